// The frame shared by the account screens.
import type { FormEvent, ReactNode } from 'react'
import { css } from 'styled-system/css'

export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className={css({ display: 'flex', justifyContent: 'center', py: { base: '4', md: '10' } })}>
      <div
        className={css({
          w: 'full',
          maxW: 'md',
          bg: 'bg.surface',
          borderWidth: '1px',
          borderColor: 'border.default',
          borderRadius: '2xl',
          p: { base: '6', md: '8' },
          boxShadow: 'xl',
        })}
      >
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '1' })}>{title}</h1>
        {subtitle && <p className={css({ color: 'fg.muted', fontSize: 'sm', mb: '6' })}>{subtitle}</p>}
        {children}
        {footer && (
          <div className={css({ mt: '6', fontSize: 'sm', color: 'fg.muted', textAlign: 'center', display: 'flex', flexDirection: 'column', gap: '2' })}>
            {footer}
          </div>
        )}
      </div>
    </div>
  )
}

export const formClass = css({ display: 'flex', flexDirection: 'column', gap: '4' })
export const linkClass = css({ color: 'accent.default', fontWeight: 'medium', _hover: { textDecoration: 'underline' } })
export const formError = css({ bg: 'danger.muted', color: 'danger.fg', borderRadius: 'lg', px: '3', py: '2', fontSize: 'sm' })
/** A failure the user must hear at once (role alert), shown only while there is one. */
export function FailureAlert({ message }: { message: string | null }) {
  return message ? (
    <p role="alert" className={formError}>
      {message}
    </p>
  ) : null
}

export const formSuccess = css({ bg: 'success.muted', color: 'success.fg', borderRadius: 'lg', px: '3', py: '3', fontSize: 'sm' })

/** A form that shows the server's failure on top and submits only when valid (else marks every
 * field touched so all messages show). */
export function AccountForm({
  form,
  failure,
  onValid,
  children,
}: {
  form: { isValid: boolean; touchAll: () => void }
  failure: string | null
  onValid: () => void
  children: ReactNode
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!form.isValid) return form.touchAll()
    onValid()
  }
  return (
    <form noValidate className={formClass} onSubmit={submit}>
      <FailureAlert message={failure} />
      {children}
    </form>
  )
}
