// Small pieces the admin users, folders and messages screens share: the role badge, a failed-load
// box with Retry, the joined/created date and the panel frame.
import type { ReactNode } from 'react'
import { Button } from '~/client/ui/button'
import { css, cx } from 'styled-system/css'
import { card } from '~/client/ui/card'

export const panel = card()

export const pageTitle = css({ fontSize: { base: 'xl', md: '2xl' }, fontWeight: 'bold' })

const badge = css({
  display: 'inline-flex',
  alignItems: 'center',
  fontSize: 'xs',
  fontWeight: 'semibold',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  whiteSpace: 'nowrap',
})

export function RoleBadge({ isAdmin, className }: { isAdmin: boolean; className?: string }) {
  return (
    <span className={cx(badge, isAdmin ? css({ bg: 'accent.muted', color: 'accent.default' }) : css({ bg: 'bg.muted', color: 'fg.muted' }), className)}>
      {isAdmin ? 'Admin' : 'User'}
    </span>
  )
}

export function AdminBadge() {
  return <span className={cx(badge, css({ bg: 'accent.muted', color: 'accent.default' }))}>Admin</span>
}

export function ErrorPanel({ message, onRetry, children }: { message: string; onRetry?: () => void; children?: ReactNode }) {
  return (
    <div
      role="alert"
      className={css({ textAlign: 'center', py: '8', px: '4', bg: 'danger.muted', borderRadius: 'xl', borderWidth: '1px', borderColor: 'danger.default' })}
    >
      <p className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{message}</p>
      {children}
      {onRetry && (
        <Button variant="outline" size="sm" className={css({ mt: '3' })} onClick={onRetry}>
          Retry
        </Button>
      )}
    </div>
  )
}

/** "Mar 4, 2026" in the reader's locale. */
export function formatDate(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })
}

export function RefreshIcon() {
  return (
    <svg
      aria-hidden="true"
      width="14"
      height="14"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M21 12a9 9 0 1 1-2.64-6.36" />
      <path d="M21 3v6h-6" />
    </svg>
  )
}
