// "Last updated" wording: "just now", then minutes, hours and days up to 29 days, then
// a short date. Pure so the chart page and tests agree on every boundary.
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`

/** `date` relative to `now`; a future date (clock skew) reads "just now". */
export function relativeTime(date: Date | string | number, now: Date | number = Date.now(), locale?: string): string {
  const then = new Date(date)
  const t = then.getTime()
  if (Number.isNaN(t)) return ''
  const diff = Number(now) - t
  if (diff < MINUTE) return 'just now'
  if (diff < HOUR) return plural(Math.floor(diff / MINUTE), 'minute')
  if (diff < DAY) return plural(Math.floor(diff / HOUR), 'hour')
  const days = Math.floor(diff / DAY)
  if (days <= 29) return plural(days, 'day')
  return shortDate(then, new Date(now), locale)
}

/** "Mar 4" within the current year, "Mar 4, 2023" otherwise. */
export function shortDate(date: Date, now: Date = new Date(), locale?: string): string {
  const sameYear = date.getFullYear() === now.getFullYear()
  return date.toLocaleDateString(locale ?? 'en-US', sameYear ? { month: 'short', day: 'numeric' } : { month: 'short', day: 'numeric', year: 'numeric' })
}
