// The top banner shown on a 429: the same sentence as the toast, 10 s or until dismissed.
import { useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { RATE_LIMIT_EVENT, RATE_LIMIT_SENTENCE } from '~/client/global-errors'

const BANNER_MS = 10_000

export function RateLimitBanner() {
  const [shownAt, setShownAt] = useState<number | null>(null)
  useEffect(() => {
    const show = () => setShownAt(Date.now())
    window.addEventListener(RATE_LIMIT_EVENT, show)
    return () => window.removeEventListener(RATE_LIMIT_EVENT, show)
  }, [])
  useEffect(() => {
    if (shownAt === null) return
    const timer = setTimeout(() => setShownAt(null), BANNER_MS)
    return () => clearTimeout(timer)
  }, [shownAt])
  if (shownAt === null) return null
  return (
    <div
      role="alert"
      className={css({
        bg: 'warning.muted',
        color: 'warning.fg',
        px: '4',
        py: '2',
        display: 'flex',
        justifyContent: 'center',
        alignItems: 'center',
        gap: '4',
        fontSize: 'sm',
      })}
    >
      <span>{RATE_LIMIT_SENTENCE}</span>
      <button type="button" aria-label="Dismiss" onClick={() => setShownAt(null)} className={css({ cursor: 'pointer', fontWeight: 'bold' })}>
        ✕
      </button>
    </div>
  )
}
