// The fallback screen for a render failure: "Something went wrong".
import type { ErrorComponentProps } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { Button } from '~/client/ui/button'

export function ErrorScreen({ reset }: Partial<ErrorComponentProps>) {
  return (
    <div
      role="alert"
      className={css({
        minH: '60vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: '4',
        textAlign: 'center',
        px: '6',
      })}
    >
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Something went wrong</h1>
      <p className={css({ color: 'fg.muted', maxW: 'md' })}>An unexpected error stopped this page from showing. Refreshing usually helps.</p>
      <div className={css({ display: 'flex', gap: '3' })}>
        <Button onClick={() => window.location.reload()}>Refresh Page</Button>
        <Button variant="outline" onClick={() => reset?.()}>
          Try Again
        </Button>
      </div>
    </div>
  )
}
