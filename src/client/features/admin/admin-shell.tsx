// The admin frame: 'Admin' header greeting the user, a logout button and a
// sidebar that can be opened and closed.
import { Link } from '@tanstack/react-router'
import { useState, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import { useAuth } from '~/client/features/auth/auth-store'
import { useLogout } from '~/client/features/auth/use-logout'
import { Button } from '~/client/ui/button'
import { displayName } from '~/shared/display-name'
import { stack } from 'styled-system/patterns'
import { mutedText } from '~/client/ui/text'

// The sidebar order: Dashboard, Users, Folders, Music, Insights, Listening Analytics, Stats,
// Messages.
const SIDEBAR = [
  { to: '/admin/dashboard', label: 'Dashboard' },
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/folders', label: 'Folders' },
  { to: '/admin/music', label: 'Music' },
  { to: '/admin/insights', label: 'Insights' },
  { to: '/admin/listening-analytics', label: 'Listening Analytics' },
  { to: '/admin/stats', label: 'Stats' },
  { to: '/admin/messages', label: 'Messages' },
] as const

export function AdminShell({ children }: { children: ReactNode }) {
  const auth = useAuth()
  const logout = useLogout()
  const [open, setOpen] = useState(true)
  return (
    <div className={stack({ gap: '6' })}>
      <header className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap' })}>
        <Button variant="outline" size="sm" aria-expanded={open} aria-controls="admin-sidebar" onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide menu' : 'Show menu'}
        </Button>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Admin</h1>
        <p className={mutedText()}>Welcome back, {auth.user ? displayName(auth.user.email) : ''}</p>
        <Button variant="outline" size="sm" className={css({ ml: 'auto' })} onClick={() => logout()}>
          Logout
        </Button>
      </header>
      <div className={css({ display: 'flex', gap: '6', flexDirection: { base: 'column', md: 'row' } })}>
        {open && (
          <nav
            id="admin-sidebar"
            aria-label="Admin"
            className={css({
              w: { base: 'full', md: '56' },
              flexShrink: 0,
              display: 'flex',
              flexDirection: { base: 'row', md: 'column' },
              flexWrap: 'wrap',
              gap: '1',
            })}
          >
            {SIDEBAR.map((item) => (
              <Link
                key={item.to}
                to={item.to}
                className={css({
                  px: '3',
                  py: '2',
                  borderRadius: 'md',
                  fontSize: 'sm',
                  color: 'fg.muted',
                  _hover: { bg: 'bg.subtle', color: 'fg.default' },
                  '&[data-status=active]': { bg: 'accent.muted', color: 'fg.default' },
                })}
              >
                {item.label}
              </Link>
            ))}
          </nav>
        )}
        <div className={css({ flex: '1', minW: 0 })}>{children}</div>
      </div>
    </div>
  )
}
