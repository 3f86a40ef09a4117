import { z } from 'zod'

// A well-formed storefront code is two letters (any case; answered in lowercase). A well-formed
// code outside the 11 regions is a 404 from the service; anything malformed is a 400 here.
export const ChartsRegionSchema = z.strictObject({
  region: z
    .string({ error: (issue) => (issue.input === undefined ? 'Region is required' : 'Region must be text') })
    .regex(/^[A-Za-z]{2}$/, 'Region must be a two-letter storefront code')
    .transform((r) => r.toLowerCase()),
})

export const ART_URL_MAX = 2000

/**
 * Chart artwork comes from a third-party feed and ends up in an <img src>, so only a plain web
 * image URL passes: https, or http from `httpOrigin` (the configured feed's own origin — an admin
 * chose that host; 'any' is the browser's last check, after the server applied the real rule).
 * No other scheme (javascript:, data:, file:, blob:), no credentials in the URL, no over-long URL.
 * Answers the normalised URL or null.
 */
export function safeArtUrl(raw: unknown, httpOrigin: string | null = null): string | null {
  if (typeof raw !== 'string' || raw.length > ART_URL_MAX) return null
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return null
  }
  if (url.username || url.password || !url.hostname) return null
  if (url.protocol === 'https:') return url.href
  if (url.protocol === 'http:' && httpOrigin !== null && (httpOrigin === 'any' || url.origin === httpOrigin)) return url.href
  return null
}
