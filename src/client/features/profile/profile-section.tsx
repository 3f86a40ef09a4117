// The card every /profile section sits in (the account screens' card, wider), and the polite
// status line that announces a section's success to screen readers, and the outcome state each
// section's form keeps for them.
import { type ReactNode, useState } from 'react'
import { css } from 'styled-system/css'
import { FailureAlert, formSuccess } from '~/client/features/auth/auth-card'
import { errorMessage } from '~/client/global-errors'
import { Button } from '~/client/ui/button'
import { pageHeader } from '~/client/ui/page-header'
import { Spinner } from '~/client/ui/spinner'

export function ProfileSection({
  id,
  title,
  description,
  danger,
  children,
}: {
  id: string
  title: string
  description?: ReactNode
  danger?: boolean
  children: ReactNode
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={css({
        bg: 'bg.surface',
        borderWidth: '1px',
        borderColor: danger ? 'danger.default' : 'border.default',
        borderRadius: '2xl',
        p: { base: '5', md: '8' },
        boxShadow: 'xl',
        display: 'flex',
        flexDirection: 'column',
        gap: '4',
      })}
    >
      <div>
        <h2 id={`${id}-title`} className={pageHeader().title}>
          {title}
        </h2>
        {description && <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>{description}</p>}
      </div>
      {children}
    </section>
  )
}

/** Always in the page, so assistive technology hears the message when it appears. */
export function StatusLine({ message }: { message: string | null }) {
  return (
    <p role="status" aria-live="polite" className={message ? formSuccess : undefined}>
      {message}
    </p>
  )
}

/** A section's list while it loads (a spinner), or why it could not be loaded; nothing once it has. */
export function ListLoadState({ list, loading, failed }: { list: { isPending: boolean; isError: boolean; error: unknown }; loading: string; failed: string }) {
  if (list.isPending) return <Spinner label={loading} />
  return list.isError ? <FailureAlert message={errorMessage(list.error, failed)} /> : null
}

/** A list row's Revoke (touch-sized): clears the section's last message first, and is off while a
 * revoke is on its way. `label` names what it revokes for screen readers. */
export function RevokeButton({ label, pending, onRevoke }: { label: string; pending: boolean; onRevoke: () => void }) {
  return (
    <Button variant="outline" className={touchTarget} aria-label={label} disabled={pending} onClick={onRevoke}>
      Revoke
    </Button>
  )
}

/** Buttons on this page are at least 44 px tall (touch targets). */
export const touchTarget = css({ minH: '11' })

/** The destructive buttons: the kit's danger button (size lg) on a darker red, so the white text
 * reaches WCAG AA (white on danger.default is 3.8:1, on #b91c1c 6.5:1). */
export const dangerButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  fontWeight: 'semibold',
  borderRadius: 'lg',
  cursor: 'pointer',
  whiteSpace: 'nowrap',
  h: '12',
  px: '6',
  fontSize: 'md',
  bg: '#b91c1c',
  color: 'white',
  _hover: { _enabled: { opacity: 0.9 } },
  _disabled: { opacity: 0.5, cursor: 'not-allowed' },
})

/** A form's last outcome: the error beside its fields and the success line under its button. */
export function useOutcome() {
  const [failure, setFailure] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const clear = () => {
    setFailure(null)
    setDone(null)
  }
  return { failure, done, setFailure, setDone, clear }
}
