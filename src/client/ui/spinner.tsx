import { css } from 'styled-system/css'

const spin = css({
  display: 'inline-block',
  w: '8',
  h: '8',
  borderWidth: '3px',
  borderColor: 'bg.muted',
  borderTopColor: 'accent.default',
  borderRadius: 'full',
  animation: 'spin 0.8s linear infinite',
})

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <span role="status" aria-label={label} className={spin} />
}

export function CenteredSpinner({ label }: { label?: string }) {
  return (
    <div className={css({ display: 'flex', justifyContent: 'center', alignItems: 'center', py: '24' })}>
      <Spinner label={label} />
    </div>
  )
}
