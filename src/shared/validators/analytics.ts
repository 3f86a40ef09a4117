// Inputs of the admin statistics and listening-analytics calls. Query strings arrive as text, tRPC sends numbers and booleans: both
// are accepted. Every number is bounded so no call can ask for an unbounded scan or list.
import { z } from 'zod'

/** The analytics periods in days; anything else is a 400. */
export const ANALYTICS_DAYS = [1, 7, 14, 30, 60, 90] as const
export type AnalyticsDays = (typeof ANALYTICS_DAYS)[number]
export const DEFAULT_ANALYTICS_DAYS = 7

/** A whole number from a number or a numeric query-string value, within [min, max]. */
const wholeNumber = (label: string, min: number, max: number) =>
  z.union([z.number(), z.string().trim()], { error: `${label} must be a whole number` }).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : /^-?\d{1,9}$/.test(v) ? Number(v) : Number.NaN
    if (!Number.isInteger(n)) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a whole number` })
      return z.NEVER
    }
    if (n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `${label} must be between ${min} and ${max}` })
      return z.NEVER
    }
    return n
  })

/** `true`/`false` as a boolean or query-string text. */
const flag = (label: string) =>
  z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: `${label} must be true or false` })
    .transform((v) => v === true || v === 'true' || v === '1')

const analyticsDays = z.union([z.number(), z.string().trim()], { error: 'days must be one of 1, 7, 14, 30, 60, 90' }).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : /^\d{1,3}$/.test(v) ? Number(v) : Number.NaN
  if (!(ANALYTICS_DAYS as readonly number[]).includes(n)) {
    ctx.addIssue({ code: 'custom', message: 'days must be one of 1, 7, 14, 30, 60, 90' })
    return z.NEVER
  }
  return n as AnalyticsDays
})

export const AnalyticsPeriodSchema = z.strictObject({ days: analyticsDays.default(DEFAULT_ANALYTICS_DAYS) }).default({ days: DEFAULT_ANALYTICS_DAYS })

export const USER_BEHAVIOR_LIMIT = 20
export const PLAYLIST_LIMIT = 15
export const MAX_LIST_LIMIT = 100

export const UserBehaviorSchema = z
  .strictObject({ days: analyticsDays.default(DEFAULT_ANALYTICS_DAYS), limit: wholeNumber('limit', 1, MAX_LIST_LIMIT).default(USER_BEHAVIOR_LIMIT) })
  .default({ days: DEFAULT_ANALYTICS_DAYS, limit: USER_BEHAVIOR_LIMIT })
export const PlaylistAnalyticsSchema = z
  .strictObject({ days: analyticsDays.default(DEFAULT_ANALYTICS_DAYS), limit: wholeNumber('limit', 1, MAX_LIST_LIMIT).default(PLAYLIST_LIMIT) })
  .default({ days: DEFAULT_ANALYTICS_DAYS, limit: PLAYLIST_LIMIT })

// --- statistics (GET /admin/…) ------------------------------------------------------------------

export const AdminStatsSchema = z.strictObject({ forceFresh: flag('forceFresh').default(false) }).default({ forceFresh: false })

export const TOP_TRACKS_DAYS = 7
export const TOP_TRACKS_LIMIT = 10
export const TopTracksSchema = z
  .strictObject({
    days: analyticsDays.default(TOP_TRACKS_DAYS),
    limit: wholeNumber('limit', 1, MAX_LIST_LIMIT).default(TOP_TRACKS_LIMIT),
    /** Drop the cached answer and compute afresh (the panel's Clear Cache & Refresh). */
    clearCache: flag('clearCache').default(false),
  })
  .default({ days: TOP_TRACKS_DAYS, limit: TOP_TRACKS_LIMIT, clearCache: false })

export const UserActivitySummarySchema = z.strictObject({ fresh: flag('fresh').default(false) }).default({ fresh: false })

export const TOP_PAGES_DAYS = 30
export const TOP_PAGES_LIMIT = 5
export const TopPagesSchema = z
  .strictObject({ days: wholeNumber('days', 1, 365).default(TOP_PAGES_DAYS), limit: wholeNumber('limit', 1, MAX_LIST_LIMIT).default(TOP_PAGES_LIMIT) })
  .default({ days: TOP_PAGES_DAYS, limit: TOP_PAGES_LIMIT })

export const PAGE_VIEW_DAYS = 30
export const DailyActivitySchema = z.strictObject({ days: wholeNumber('days', 1, 365).default(PAGE_VIEW_DAYS) }).default({ days: PAGE_VIEW_DAYS })

export const HIT_ANALYTICS_DAYS = 30
export const DASHBOARD_HIT_DAYS = 7
export const HitAnalyticsSchema = z
  .strictObject({
    days: wholeNumber('days', 1, 365).default(HIT_ANALYTICS_DAYS),
    /** Only this page key (as the footer counts it); omitted or empty means every page. */
    page: z
      .string({ error: 'page must be text' })
      .trim()
      .max(100, 'page must be at most 100 characters')
      .optional()
      .transform((p) => (p ? p.toLowerCase() : undefined)),
  })
  .default({ days: HIT_ANALYTICS_DAYS, page: undefined })

export const ErrorsSchema = z
  .strictObject({ hours: wholeNumber('hours', 1, 720).default(1), limit: wholeNumber('limit', 1, MAX_LIST_LIMIT).default(10) })
  .default({ hours: 1, limit: 10 })
