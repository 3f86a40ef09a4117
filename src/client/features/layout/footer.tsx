// The footer: year, Home and Contact links, the page-visit counter, and on localhost
// the development "Reset Auth".
import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { DevResetAuth } from '~/client/features/auth/dev-reset-auth'
import { PageVisits } from './page-visits'

export function Footer() {
  return (
    <footer className={css({ borderTopWidth: '1px', borderColor: 'border.default', mt: 'auto' })}>
      <div
        className={css({
          maxW: '7xl',
          mx: 'auto',
          px: { base: '4', md: '6' },
          py: '6',
          display: 'flex',
          flexWrap: 'wrap',
          gap: '4',
          alignItems: 'center',
          fontSize: 'sm',
          color: 'fg.muted',
        })}
      >
        <span>© {new Date().getFullYear()} Vibes · Feel the Vibes</span>
        <nav aria-label="Footer" className={css({ display: 'flex', gap: '4' })}>
          <Link to="/" className={css({ _hover: { color: 'fg.default' } })}>
            Home
          </Link>
          <Link to="/contact" className={css({ _hover: { color: 'fg.default' } })}>
            Contact
          </Link>
        </nav>
        <div className={css({ ml: { base: '0', sm: 'auto' }, display: 'flex', alignItems: 'center', gap: '4' })}>
          <PageVisits />
          <DevResetAuth />
        </div>
      </div>
    </footer>
  )
}
