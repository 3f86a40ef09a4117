// GET /metrics in the Prometheus text exposition format, as Navidrome and
// Jellyfin offer: requests and latencies by route, media streams and running conversions, the
// library scanner's state, the database's size and the process's memory and uptime.
//
// Who may read it: a scraper with `Authorization: Bearer $METRICS_TOKEN` (compared in constant
// time), or an admin with their own token; 401 without a valid one, 403 for a member. Nothing in
// it names a user, a file or an address.
//
// Route labels must stay few (each is a time series kept forever by the scraper) and must not be
// chosen by clients: only the route table's own paths (`/api/admin/users/:id/role`) and the
// router's procedures (`/api/trpc/auth.status`) are labels, a batch of several procedures is one
// `/api/trpc/:batch`, media is one `/media`, OpenSubsonic one `/rest`, client files one `/assets`,
// every page one `page`, and any other path (a made-up route or procedure) `unknown`. So the set of
// labels is fixed by the code (decision 044). Recording is two Map lookups and a few additions per
// request. Every sample also carries `instance` (INSTANCE_NAME, else hostname:port), so the series
// of several nodes behind one load balancer stay apart wherever they are collected.
//
// The start-up creates the one recorder (start-up.ts) and hands it what this layer does not import:
// the API front's route labels (the transports know their routes and procedures) and the readings
// of the library scanner and the transcoder (decision 064).
import { statSync } from 'node:fs'
import { timingSafeEqual } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { type Db, firstRow, isPostgres } from '~/db/engine'
import { type AuthUser, authenticate } from '../auth/sessions'
import { config } from '../config'
import { getDb } from '../db'

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const

type RouteStats = { counts: Map<string, number>; buckets: number[]; sum: number; count: number }

const UNKNOWN = 'unknown'

/** The library scanner's state, as /metrics shows it. */
export type ScanReading = { scanning: boolean; scanned: number; total: number; tracks: number; albums: number; artists: number; lastScanAt: string | null }

export type MetricsSources = {
  /** The label of an /api path (its route or procedure), or undefined for a path the API does not know. */
  apiRouteLabel: (pathname: string) => string | undefined
  /** ffmpeg conversions streaming now. */
  runningTranscodes: () => number
  scanStatus: () => Promise<ScanReading>
  /** This node's name: the `instance` label of every sample. */
  instance: () => string
}

export type RequestMetrics = ReturnType<typeof createRequestMetrics>

export function createRequestMetrics({ apiRouteLabel, runningTranscodes, scanStatus, instance }: MetricsSources) {
  const routes = new Map<string, RouteStats>()

  function routeLabel(pathname: string): string {
    if (pathname.startsWith('/media/')) return '/media'
    if (pathname.startsWith('/assets/')) return '/assets'
    if (pathname === '/metrics') return '/metrics'
    if (pathname === '/rest' || pathname.startsWith('/rest/')) return '/rest'
    if (pathname === '/api' || pathname.startsWith('/api/')) return apiRouteLabel(pathname) ?? UNKNOWN
    return 'page'
  }

  // The label of each known path seen lately: a request pays the route-table walk only the first
  // time its path comes by. Unknown paths are not kept (clients make up as many as they like, and
  // a procedure is unknown until the router has loaded). Bounded, since ids make paths many.
  const labels = new Map<string, string>()
  function labelOf(pathname: string): string {
    let label = labels.get(pathname)
    if (label === undefined) {
      label = routeLabel(pathname)
      if (label === UNKNOWN) return label
      if (labels.size >= 4096) labels.clear()
      labels.set(pathname, label)
    }
    return label
  }

  function observe(method: string, pathname: string, status: number, ms: number) {
    const label = labelOf(pathname)
    let stats = routes.get(label)
    if (!stats) routes.set(label, (stats = { counts: new Map(), buckets: BUCKETS.map(() => 0), sum: 0, count: 0 }))
    const key = `${method === 'HEAD' || method === 'GET' || method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE' ? method : 'OTHER'} ${status}`
    stats.counts.set(key, (stats.counts.get(key) ?? 0) + 1)
    const seconds = ms / 1000
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]) stats.buckets[i]++
    stats.sum += seconds
    stats.count++
  }

  async function text(): Promise<string> {
    const out: string[] = []
    const metric = (name: string, type: 'counter' | 'gauge' | 'histogram', help: string) => out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)
    const node = `instance="${labelValue(instance())}"`

    metric('vibes_http_requests_total', 'counter', 'HTTP requests answered, by route, method and status.')
    for (const [route, stats] of routes) {
      for (const [key, n] of stats.counts) {
        const [method, status] = key.split(' ')
        out.push(`vibes_http_requests_total{${node},route="${labelValue(route)}",method="${method}",status="${status}"} ${n}`)
      }
    }
    metric('vibes_http_request_duration_seconds', 'histogram', 'Time to answer a request (until the response starts), by route.')
    for (const [route, stats] of routes) {
      const r = labelValue(route)
      for (let i = 0; i < BUCKETS.length; i++)
        out.push(`vibes_http_request_duration_seconds_bucket{${node},route="${r}",le="${BUCKETS[i]}"} ${stats.buckets[i]}`)
      out.push(`vibes_http_request_duration_seconds_bucket{${node},route="${r}",le="+Inf"} ${stats.count}`)
      out.push(`vibes_http_request_duration_seconds_sum{${node},route="${r}"} ${stats.sum}`)
      out.push(`vibes_http_request_duration_seconds_count{${node},route="${r}"} ${stats.count}`)
    }

    const media = routes.get('/media')
    metric('vibes_media_streams_total', 'counter', 'Media requests (streams, ranges, covers) answered.')
    out.push(`vibes_media_streams_total{${node}} ${media?.count ?? 0}`)
    metric('vibes_transcodes_running', 'gauge', 'ffmpeg conversions streaming now.')
    out.push(`vibes_transcodes_running{${node}} ${runningTranscodes()}`)

    const scan = await scanStatus()
    metric('vibes_library_scanning', 'gauge', '1 while the library scanner runs.')
    out.push(`vibes_library_scanning{${node}} ${scan.scanning ? 1 : 0}`)
    metric('vibes_library_scan_files', 'gauge', 'Files the running scan has read and found so far.')
    out.push(`vibes_library_scan_files{${node},state="scanned"} ${scan.scanned}`, `vibes_library_scan_files{${node},state="total"} ${scan.total}`)
    metric('vibes_library_items', 'gauge', 'Indexed tracks, albums and artists.')
    out.push(
      `vibes_library_items{${node},kind="tracks"} ${scan.tracks}`,
      `vibes_library_items{${node},kind="albums"} ${scan.albums}`,
      `vibes_library_items{${node},kind="artists"} ${scan.artists}`,
    )
    metric('vibes_library_last_scan_timestamp_seconds', 'gauge', 'When the last scan finished (0: never).')
    out.push(`vibes_library_last_scan_timestamp_seconds{${node}} ${scan.lastScanAt ? Date.parse(scan.lastScanAt) / 1000 : 0}`)

    metric('vibes_db_size_bytes', 'gauge', "The database: SQLite's file and its write-ahead log, or PostgreSQL's database.")
    for (const [file, bytes] of await databaseSize(getDb())) out.push(`vibes_db_size_bytes{${node},file="${file}"} ${bytes}`)

    const memory = process.memoryUsage()
    metric('process_resident_memory_bytes', 'gauge', 'Resident memory of the server process.')
    out.push(`process_resident_memory_bytes{${node}} ${memory.rss}`)
    metric('vibes_uptime_seconds', 'gauge', 'Seconds since the server started.')
    out.push(`vibes_uptime_seconds{${node}} ${Math.round(process.uptime())}`)
    return `${out.join('\n')}\n`
  }

  /** GET /metrics. */
  function handle(request: Request): Response | Promise<Response> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed', { allow: 'GET, HEAD' })
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
    if (!token) return plain(401, 'No authentication token found. Please log in again.', { 'www-authenticate': 'Bearer' })
    if (config.METRICS_TOKEN && sameSecret(token, config.METRICS_TOKEN)) return metricsAnswer(request)
    // A value on SQLite, a promise on PostgreSQL (auth/sessions.ts).
    const user = authenticate(getDb(), token, config.AUTH_SECRET)
    return user instanceof Promise ? user.then((u) => adminOnly(request, u)) : adminOnly(request, user)
  }

  function adminOnly(request: Request, user: AuthUser | null): Response | Promise<Response> {
    if (!user) return plain(401, 'Authentication token is invalid or expired', { 'www-authenticate': 'Bearer' })
    if (!user.isAdmin) return plain(403, 'Admin access required')
    return metricsAnswer(request)
  }

  const metricsAnswer = async (request: Request) =>
    new Response(request.method === 'HEAD' ? null : await text(), {
      headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
    })

  return { observe, text, handle }
}

const labelValue = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')

/** The database's size in bytes, by part: `db` (and `wal` on SQLite). */
async function databaseSize(db: Db): Promise<[string, number][]> {
  // PostgreSQL: no file of ours to measure; the server knows its database's size.
  if (isPostgres(db)) {
    const row = await firstRow<{ bytes: string | number }>(db, sql`SELECT pg_database_size(current_database()) AS "bytes"`)
    return [['db', Number(row?.bytes ?? 0)]]
  }
  // SQLite: the file and its write-ahead log.
  return [
    ['db', fileSize(config.dbFile)],
    ['wal', fileSize(`${config.dbFile}-wal`)],
  ]
}

function fileSize(file: string): number {
  return statSync(file, { throwIfNoEntry: false })?.size ?? 0
}

function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given)
  const b = new TextEncoder().encode(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

const plain = (status: number, text: string, extra: Record<string, string> = {}) =>
  new Response(`${text}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra } })
