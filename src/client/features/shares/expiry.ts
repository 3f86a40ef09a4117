// How long a share link still works, in words: "expires in 3 days", "expired", "never expires".
const HOUR = 3_600_000
const DAY = 24 * HOUR

const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`

export function expiryText(expiresAt: number | null, now = Date.now()): string {
  if (expiresAt === null) return 'never expires'
  const left = expiresAt - now
  if (left <= 0) return 'expired'
  if (left < HOUR) return `expires in ${count(Math.max(1, Math.ceil(left / 60_000)), 'minute')}`
  if (left < DAY) return `expires in ${count(Math.round(left / HOUR), 'hour')}`
  return `expires in ${count(Math.round(left / DAY), 'day')}`
}
