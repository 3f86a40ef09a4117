// The top bar: logo, public links, Library and Folders for members, Admin for admins, the library
// search for members, the account menu; a side sheet mirrors the links on small screens.
import { Dialog } from '@ark-ui/react/dialog'
import { Menu } from '@ark-ui/react/menu'
import { Portal } from '@ark-ui/react/portal'
import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { type AuthUser, useAuth } from '~/client/features/auth/auth-store'
import { useLogout } from '~/client/features/auth/use-logout'
import { TopBarSearch } from '~/client/features/library/top-bar-search'
import { useTRPC } from '~/client/trpc'
import { button } from '~/client/ui/button'
import { displayName } from '~/shared/display-name'
import { stack } from 'styled-system/patterns'
import { mutedText } from '~/client/ui/text'

type NavItem = { to: string; label: string }

function useNavItems(): NavItem[] {
  const auth = useAuth()
  const items: NavItem[] = [
    { to: '/charts', label: 'Charts' },
    { to: '/about', label: 'About' },
    { to: '/contact', label: 'Contact' },
  ]
  if (auth.isAuthenticated)
    items.push(
      { to: '/library', label: 'Library' },
      { to: '/playlists', label: 'Playlists' },
      { to: '/podcasts', label: 'Podcasts' },
      { to: '/radio', label: 'Radio' },
      { to: '/folders', label: 'Folders' },
    )
  if (auth.isAuthenticated && auth.isAdmin) items.push({ to: '/admin', label: 'Admin' })
  return items
}

const navLink = css({
  display: 'block',
  textAlign: 'left',
  px: '3',
  py: '2',
  borderRadius: 'md',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  _hover: { color: 'fg.default', bg: 'bg.subtle' },
  '&[data-status=active]': { color: 'fg.default', bg: 'bg.subtle' },
})

export function Logo() {
  return (
    <Link
      to="/"
      aria-label="Vibes home"
      className={css({ display: 'flex', alignItems: 'center', gap: '2', fontWeight: 'extrabold', fontSize: 'xl', letterSpacing: 'tight' })}
    >
      <img src="/favicon.svg" alt="" width={28} height={28} />
      <span className={css({ bgGradient: 'to-r', gradientFrom: 'accent.default', gradientTo: 'accent.pink', bgClip: 'text', color: 'transparent' })}>
        Vibes
      </span>
    </Link>
  )
}

export function TopBar() {
  const items = useNavItems()
  const member = useAuth().isAuthenticated
  return (
    <header
      className={css({
        position: 'sticky',
        top: 0,
        zIndex: 40,
        bg: 'bg.canvas/90',
        backdropFilter: 'blur(10px)',
        borderBottomWidth: '1px',
        borderColor: 'border.default',
      })}
    >
      <div className={css({ maxW: '7xl', mx: 'auto', px: { base: '4', md: '6' }, h: '16', display: 'flex', alignItems: 'center', gap: '4' })}>
        <Logo />
        <nav aria-label="Main" className={css({ display: { base: 'none', md: 'flex' }, gap: '1', ml: '4' })}>
          {items.map((item) => (
            <Link key={item.to} to={item.to} className={navLink}>
              {item.label}
            </Link>
          ))}
        </nav>
        <div
          className={css({ ml: 'auto', flex: member ? '1' : undefined, minW: 0, justifyContent: 'flex-end', display: 'flex', alignItems: 'center', gap: '2' })}
        >
          {member && (
            <div className={css({ flex: '1', minW: 0, maxW: 'sm' })}>
              <TopBarSearch />
            </div>
          )}
          <AccountMenu />
          <MobileSheet items={items} />
        </div>
      </div>
    </header>
  )
}

const menuContent = css({
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'xl',
  boxShadow: 'xl',
  p: '1.5',
  minW: '56',
  zIndex: 50,
  outline: 'none',
})
const menuItem = css({
  display: 'flex',
  alignItems: 'center',
  w: 'full',
  px: '3',
  py: '2',
  borderRadius: 'md',
  fontSize: 'sm',
  cursor: 'pointer',
  '&[data-highlighted]': { bg: 'bg.subtle' },
})

/**
 * Who is signed in: the display name (made from the e-mail), then "@username" and the e-mail.
 * The display name does not follow a username change, so the username has a line of its own.
 */
function AccountLines({ user, className }: { user: AuthUser; className: string }) {
  return (
    <div className={className}>
      <p className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>{displayName(user.email)}</p>
      {user.username && <p className={mutedText({ size: 'xs' })}>@{user.username}</p>}
      <p className={mutedText({ size: 'xs' })}>{user.email}</p>
    </div>
  )
}

/** The member's picture (set on /profile), else the initial of their name on a gradient. */
function AccountBadge({ initial }: { initial: string }) {
  const trpc = useTRPC()
  const avatar = useQuery(trpc.profile.avatar.queryOptions()).data?.avatar
  if (avatar) return <img src={avatar} alt="" aria-hidden className={css({ w: '8', h: '8', borderRadius: 'full', objectFit: 'cover' })} />
  // The initial is drawn by CSS, not text, so the trigger's visible text is just the name, which
  // its accessible name contains (axe: label-content-name-mismatch).
  return (
    <span
      aria-hidden
      data-initial={initial}
      className={css({
        _before: { content: 'attr(data-initial)' },
        w: '8',
        h: '8',
        borderRadius: 'full',
        bgGradient: 'to-br',
        gradientFrom: 'accent.default',
        gradientTo: 'accent.pink',
        display: 'grid',
        placeItems: 'center',
        fontWeight: 'bold',
        color: 'white',
        fontSize: 'sm',
      })}
    />
  )
}

function AccountMenu() {
  const auth = useAuth()
  const logout = useLogout()
  const navigate = useNavigate()
  if (!auth.isAuthenticated || !auth.user) {
    return (
      <div className={css({ display: { base: 'none', md: 'flex' }, gap: '2' })}>
        <Link to="/login" className={button({ variant: 'ghost', size: 'sm' })}>
          Login
        </Link>
        <Link to="/register" className={button({ variant: 'solid', size: 'sm' })}>
          Register
        </Link>
      </div>
    )
  }
  const name = displayName(auth.user.email)
  return (
    <Menu.Root lazyMount unmountOnExit onSelect={({ value }) => (value === 'logout' ? logout() : navigate({ href: value }))}>
      <Menu.Trigger
        aria-label={`Account menu for ${name}`}
        className={css({
          display: 'flex',
          alignItems: 'center',
          gap: '2',
          px: '2',
          py: '1',
          borderRadius: 'full',
          cursor: 'pointer',
          _hover: { bg: 'bg.subtle' },
        })}
      >
        <AccountBadge initial={name.charAt(0) || '?'} />
        <span className={css({ display: { base: 'none', sm: 'inline' }, fontSize: 'sm', fontWeight: 'medium' })}>{name}</span>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content className={menuContent}>
            <AccountLines
              user={auth.user}
              className={css({ px: '3', py: '2', borderBottomWidth: '1px', borderColor: 'border.default', mb: '1', overflowWrap: 'anywhere' })}
            />
            <Menu.Item value="/library/liked" className={menuItem}>
              Liked songs
            </Menu.Item>
            <Menu.Item value="/profile" className={menuItem}>
              Profile Settings
            </Menu.Item>
            <Menu.Item value="logout" className={menuItem}>
              Logout
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  )
}

function MobileSheet({ items }: { items: NavItem[] }) {
  const auth = useAuth()
  const logout = useLogout()
  const navigate = useNavigate()
  return (
    <Dialog.Root lazyMount unmountOnExit>
      <Dialog.Trigger
        aria-label="Open menu"
        className={css({
          display: { base: 'grid', md: 'none' },
          placeItems: 'center',
          w: '10',
          h: '10',
          borderRadius: 'md',
          cursor: 'pointer',
          _hover: { bg: 'bg.subtle' },
        })}
      >
        <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M4 6h16M4 12h16M4 18h16" />
        </svg>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop className={css({ position: 'fixed', inset: 0, bg: 'black/60', zIndex: 50 })} />
        <Dialog.Positioner className={css({ position: 'fixed', inset: 0, zIndex: 50, display: 'flex', justifyContent: 'flex-end' })}>
          <Dialog.Content
            className={css({
              w: '72',
              maxW: '85vw',
              h: 'full',
              bg: 'bg.surface',
              p: '5',
              display: 'flex',
              flexDirection: 'column',
              gap: '2',
              borderLeftWidth: '1px',
              borderColor: 'border.default',
            })}
          >
            <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: '4' })}>
              <Dialog.Title className={css({ fontWeight: 'bold' })}>Menu</Dialog.Title>
              <Dialog.CloseTrigger
                aria-label="Close menu"
                className={css({ w: '9', h: '9', borderRadius: 'md', cursor: 'pointer', _hover: { bg: 'bg.subtle' } })}
              >
                ✕
              </Dialog.CloseTrigger>
            </div>
            <nav aria-label="Mobile" className={stack({ gap: '1' })}>
              <Dialog.Context>
                {(dialog) => (
                  <>
                    <Link to="/" className={navLink} onClick={() => dialog.setOpen(false)}>
                      Home
                    </Link>
                    {items.map((item) => (
                      <Link key={item.to} to={item.to} className={navLink} onClick={() => dialog.setOpen(false)}>
                        {item.label}
                      </Link>
                    ))}
                    <hr className={css({ borderColor: 'border.default', my: '3' })} />
                    {auth.isAuthenticated && auth.user ? (
                      <>
                        <AccountLines user={auth.user} className={css({ px: '3', mb: '2', overflowWrap: 'anywhere' })} />
                        <button
                          type="button"
                          className={navLink}
                          onClick={() => {
                            dialog.setOpen(false)
                            navigate({ href: '/profile' })
                          }}
                        >
                          Profile Settings
                        </button>
                        <button
                          type="button"
                          className={navLink}
                          onClick={() => {
                            dialog.setOpen(false)
                            logout()
                          }}
                        >
                          Logout
                        </button>
                      </>
                    ) : (
                      <>
                        <Link to="/login" className={navLink} onClick={() => dialog.setOpen(false)}>
                          Login
                        </Link>
                        <Link to="/register" className={navLink} onClick={() => dialog.setOpen(false)}>
                          Register
                        </Link>
                      </>
                    )}
                  </>
                )}
              </Dialog.Context>
            </nav>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
