// The building blocks every admin panel shares: a titled card, its loading / error / empty
// states, stat tiles and simple horizontal bars.
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { Spinner } from '~/client/ui/spinner'
import type { Tone } from './format'
import { card } from '~/client/ui/card'

export const panelCard = card()

export function Panel({
  title,
  actions,
  children,
  className,
  id,
}: {
  title: string
  actions?: ReactNode
  children: ReactNode
  className?: string
  id?: string
}) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-title`
  return (
    <section aria-labelledby={headingId} className={cx(panelCard, className)}>
      <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap', mb: '4' })}>
        <h2 id={headingId} className={css({ fontWeight: 'semibold', fontSize: 'md' })}>
          {title}
        </h2>
        {actions && <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>{actions}</div>}
      </div>
      {children}
    </section>
  )
}

export function PanelLoading({ label }: { label: string }) {
  return (
    <div className={css({ display: 'flex', justifyContent: 'center', py: '8' })}>
      <Spinner label={label} />
    </div>
  )
}

/** The red error box of a panel or tab, with an optional action such as Retry. */
export function ErrorBox({ message, action }: { message: string; action?: ReactNode }) {
  return (
    <div
      role="alert"
      className={css({
        bg: 'danger.muted',
        color: 'danger.fg',
        borderWidth: '1px',
        borderColor: 'danger.default',
        borderRadius: 'lg',
        px: '4',
        py: '3',
        fontSize: 'sm',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: '3',
        flexWrap: 'wrap',
      })}
    >
      <span>{message}</span>
      {action}
    </div>
  )
}

export function Notice({ children }: { children: ReactNode }) {
  return <p className={css({ fontSize: 'sm', color: 'warning.fg', bg: 'warning.muted', px: '3', py: '2', borderRadius: 'lg' })}>{children}</p>
}

export function EmptyState({ title, text }: { title: string; text?: string }) {
  return (
    <div className={css({ textAlign: 'center', py: '8', color: 'fg.muted' })}>
      <p className={css({ fontWeight: 'semibold', color: 'fg.default' })}>{title}</p>
      {text && <p className={css({ fontSize: 'sm', mt: '1' })}>{text}</p>}
    </div>
  )
}

const toneColor: Record<Tone, string> = { good: css({ color: 'success.fg' }), warn: css({ color: 'warning.fg' }), bad: css({ color: 'danger.fg' }) }

/** A figure with its label and an optional line under it. */
export function Stat({ label, value, hint, tone }: { label: string; value: ReactNode; hint?: ReactNode; tone?: Tone }) {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '0.5', minW: 0 })}>
      <span className={css({ fontSize: 'xs', color: 'fg.muted', textTransform: 'uppercase', letterSpacing: 'wide' })}>{label}</span>
      <span className={cx(css({ fontSize: '2xl', fontWeight: 'bold', lineHeight: 'tight', fontVariantNumeric: 'tabular-nums' }), tone && toneColor[tone])}>
        {value}
      </span>
      {hint && <span className={css({ fontSize: 'xs', color: 'fg.subtle' })}>{hint}</span>}
    </div>
  )
}

export const statGrid = css({ display: 'grid', gridTemplateColumns: { base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, gap: '4' })
export const panelGrid = css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: 'repeat(2, minmax(0, 1fr))' }, gap: '4' })

/** One labelled horizontal bar (Traffic Sources, Device Types, hourly plays). */
export function Bar({ label, value, width, detail }: { label: string; value: ReactNode; width: number; detail?: ReactNode }) {
  return (
    <li className={css({ display: 'grid', gridTemplateColumns: 'minmax(4.5rem, 7rem) 1fr auto', alignItems: 'center', gap: '3', fontSize: 'sm' })}>
      <span className={css({ color: 'fg.muted', truncate: true })}>{label}</span>{' '}
      <span aria-hidden className={css({ h: '2.5', bg: 'bg.subtle', borderRadius: 'full', overflow: 'hidden' })}>
        <span
          className={css({ display: 'block', h: 'full', borderRadius: 'full', bgGradient: 'to-r', gradientFrom: 'accent.default', gradientTo: 'accent.pink' })}
          style={{ width: `${width}%` }}
        />
      </span>
      <span className={css({ fontVariantNumeric: 'tabular-nums', textAlign: 'right', whiteSpace: 'nowrap' })}>
        {value}
        {/* Spaces in the text, not only margins: a screen reader reads "Mobile 5 55.6%", not "Mobile555.6%". */}
        {detail && (
          <>
            {' '}
            <span className={css({ color: 'fg.subtle', ml: '1' })}>{detail}</span>
          </>
        )}
      </span>
    </li>
  )
}

/** Tables scroll sideways on narrow screens instead of overflowing the page. */
export function TableScroll({ children, label }: { children: ReactNode; label: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling table must take focus so keyboard users can scroll it
    <section aria-label={label} tabIndex={0} className={css({ overflowX: 'auto', maxW: 'full' })}>
      {children}
    </section>
  )
}

export function BackToDashboard() {
  return (
    <Link
      to="/admin/dashboard"
      className={css({ fontSize: 'sm', color: 'fg.muted', _hover: { color: 'fg.default' }, display: 'inline-flex', gap: '1', alignItems: 'center' })}
    >
      <span aria-hidden>←</span> Back to Dashboard
    </Link>
  )
}
