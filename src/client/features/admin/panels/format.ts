// Pure display rules of the admin screens (listen-time and percent formats, latency and error-rate
// colours, the sample page views), kept apart from the components so tests pin every boundary.

/** Insights: minutes below an hour, otherwise hours and minutes ('45m', '2h 5m'). */
export function listenTimeInsights(seconds: number | null | undefined): string {
  const s = Math.max(0, seconds ?? 0)
  if (s < 3600) return `${Math.round(s / 60)}m`
  const h = Math.floor(s / 3600)
  return `${h}h ${Math.floor((s - h * 3600) / 60)}m`
}

/** Listening Analytics: '0m' when empty, minutes under an hour, else hours to one decimal ('2.5h'). */
export function listenTimeAnalytics(seconds: number | null | undefined): string {
  if (!seconds || seconds <= 0) return '0m'
  if (seconds < 3600) return `${Math.round(seconds / 60)}m`
  return `${(seconds / 3600).toFixed(1)}h`
}

/** A short duration such as an average listen: '3:07'. */
export function clockDuration(seconds: number | null | undefined): string {
  const s = Math.max(0, Math.round(seconds ?? 0))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/** Insights rates: one decimal. */
export const percent1 = (value: number | null | undefined) => (value === null || value === undefined ? 'N/A' : `${value.toFixed(1)}%`)
/** Listening Analytics rates: whole percents. */
export const percentWhole = (value: number | null | undefined) => (value === null || value === undefined ? 'N/A' : `${Math.round(value)}%`)

export const formatCount = (n: number | null | undefined) => (n ?? 0).toLocaleString('en-US')
export { plural } from '~/shared/plural'

export type Tone = 'good' | 'warn' | 'bad'
/** Latency colour: under 100 ms green, under 300 yellow, else red. */
export const latencyTone = (ms: number): Tone => (ms < 100 ? 'good' : ms < 300 ? 'warn' : 'bad')
/** Error-rate colour on the fraction the metrics carry: under 0.1 green, under 0.5 yellow, else red. */
export const errorRateTone = (fraction: number): Tone => (fraction < 0.1 ? 'good' : fraction < 0.5 ? 'warn' : 'bad')

export const genreLabel = (genre: string | null | undefined) => (genre?.trim() ? genre : 'Unknown')
export const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`

/** The busiest hours, most plays first (earlier hour on ties), quiet hours left out. */
export function peakHours(hourly: readonly { hour: number; plays: number }[], count = 6) {
  return hourly
    .filter((h) => h.plays > 0)
    .slice()
    .sort((a, b) => b.plays - a.plays || a.hour - b.hour)
    .slice(0, count)
}

/** A bar's width in percent of the largest value, never below `min` (the hourly chart uses 5). */
export function barWidth(value: number, max: number, min = 0): number {
  const raw = max > 0 ? (value / max) * 100 : 0
  return Math.min(100, Math.max(min, raw))
}

/** The playlist id as the table shows it: its first 8 characters. */
export const shortId = (id: string) => id.slice(0, 8)

/** A share of a total in percent (0 when the total is 0). */
export const shareOf = (part: number, total: number) => (total > 0 ? (part / total) * 100 : 0)

/** The stats page refreshes every 5 minutes, or every 10 while any source is rate-limited. */
export const statsRefreshMs = (rateLimited: boolean) => (rateLimited ? 10 : 5) * 60_000

/** Top Tracks refresh every 30 minutes on Insights; elsewhere every 3, or 5 while rate-limited. */
export const topTracksRefreshMs = (place: 'insights' | 'elsewhere', rateLimited: boolean) => (place === 'insights' ? 30 : rateLimited ? 5 : 3) * 60_000

/** The error line of an engagement failure: the status, or the offline hint. */
export function engagementErrorMessage(base: string, status: number | undefined, online: boolean): string {
  if (!online) return `${base} - Please check your internet connection`
  return status ? `${base} - Server returned status: ${status}` : base
}

const DEVICE_NAMES: Record<string, string> = {
  desktop: 'Desktop',
  mobile: 'Mobile',
  tablet: 'Tablet',
  'smart-tv': 'Smart TV',
  speaker: 'Speaker',
  unknown: 'Unknown',
}
const SOURCE_NAMES: Record<string, string> = {
  direct: 'Direct',
  playlist: 'Playlist',
  shuffle: 'Shuffle',
  repeat: 'Repeat',
  subsonic: 'Apps (OpenSubsonic)',
  share: 'Share links',
  podcast: 'Podcasts',
  radio: 'Internet radio',
}
export const deviceName = (d: string) => DEVICE_NAMES[d] ?? d
export const sourceName = (s: string) => SOURCE_NAMES[s] ?? s

/** A health answer is reused for 2 minutes (a page opened again shows it without asking). */
export const HEALTH_CACHE_MS = 2 * 60_000
const HEALTH_FLAGGED_MS = 5 * 60_000

/** The next health check: 30 s when healthy; after n failures 2^n s (at most 60 s) plus up to 100 ms
 *  of jitter; 5 minutes in a flag state (the last answer was rate-limited or an auth error: asking
 *  sooner only earns another 429 or 401). */
export function healthRefreshMs(failures: number, random: () => number = Math.random, flagged = false): number {
  if (flagged) return HEALTH_FLAGGED_MS
  if (!failures) return 30_000
  return Math.min(60_000, 1000 * 2 ** failures) + random() * 100
}

/** The User Activity table's New Users cell: '+3' above zero, '0' otherwise. */
export const newUsersText = (n: number) => (n > 0 ? `+${n}` : String(n))

export type TopTrack = { trackUrl: string; title: string; artist: string | null; count: number }

/** Top Tracks' plays order, on the client: desc (default) or asc; ties keep the server's order. */
export function sortTracks(tracks: readonly TopTrack[], direction: 'desc' | 'asc'): TopTrack[] {
  return tracks.slice().sort((a, b) => (direction === 'desc' ? b.count - a.count : a.count - b.count))
}
