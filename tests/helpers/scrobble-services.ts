// Loopback stand-ins for ListenBrainz and Last.fm that implement the endpoints Vibes calls as their
// documentation states them, and check every field and the signature of every request: anything
// wrong is answered 400 and written to `problems`, which a test asserts stays empty. What each
// accepted is kept in order (`listens`, `nowPlaying`), so a test sees exactly what arrived.
//   ListenBrainz (listenbrainz.readthedocs.io, "Submitting listens"): GET /1/validate-token and
//   POST /1/submit-listens with `Authorization: Token <user token>`, JSON body
//   { listen_type: single | playing_now | import, payload: [{ listened_at?, track_metadata }] }.
//   Last.fm (last.fm/api): POST /2.0/ form fields, `api_sig` = md5 of the parameters but `format`
//   and `callback` sorted by name, name then value, then the secret; `format=json`. The auth page
//   (GET /api/auth/?api_key&cb) stands in for the member pressing "Yes, allow access": it sends
//   them back to `cb` with a fresh token.
import { createHash } from 'node:crypto'

type Mode = 'up' | 'down'
export type ReceivedListen = {
  user: string
  artist: string
  track: string
  album: string | null
  durationMs: number | null
  listenedAt: number | null
  listenType: string
}
export type ReceivedScrobble = {
  account: string
  method: string
  artist: string
  track: string
  album: string | null
  duration: number | null
  timestamp: number | null
  sk: string
}

const LB_MIN_TIMESTAMP = 1_033_430_400 // ListenBrainz refuses listens before 2002-10-01.
/** Vibes gives a service 10 s to answer: a held submission is answered well before it gives up. */
const HOLD_MAX_MS = 6_000

function serveOn(port: number, fetch: (req: Request) => Promise<Response> | Response) {
  return Bun.serve({ hostname: '127.0.0.1', port, fetch })
}

/** A stand-in's lifecycle: `down` answers 503, `stop` refuses connections, `start` comes back on the same port. */
abstract class StandIn {
  mode: Mode = 'up'
  problems: string[] = []
  /** Requests answered 503 while down. */
  refused = 0
  private server: ReturnType<typeof Bun.serve> | null = null
  port = 0
  get url() {
    return `http://127.0.0.1:${this.port}`
  }
  start() {
    this.server = serveOn(this.port, (req) => this.handle(req))
    this.port = this.server.port as number
    return this
  }
  async stop() {
    await this.server?.stop(true)
    this.server = null
  }
  protected fail(problem: string, status = 400): Response {
    this.problems.push(problem)
    return Response.json({ code: status, error: problem }, { status })
  }
  protected abstract handle(req: Request): Promise<Response>
}

export class ListenBrainzStandIn extends StandIn {
  /** token → user name */
  tokens = new Map<string, string>()
  listens: ReceivedListen[] = []
  nowPlaying: ReceivedListen[] = []
  /** While set, each submission waits for it (at most HOLD_MAX_MS, under the sender's time limit) before it is read. */
  hold: Promise<void> | null = null
  /** Submissions being answered now, and the most there ever were at once (two senders at work). */
  inFlight = 0
  maxInFlight = 0

  protected async handle(req: Request): Promise<Response> {
    if (new URL(req.url).pathname !== '/1/submit-listens') return this.answer(req)
    this.inFlight++
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    try {
      if (this.hold) await Promise.race([this.hold, Bun.sleep(HOLD_MAX_MS)])
      return await this.answer(req)
    } finally {
      this.inFlight--
    }
  }

  private tokenOf(req: Request): string | null {
    const header = req.headers.get('authorization') ?? ''
    const m = /^Token ([\w-]+)$/.exec(header)
    return m ? m[1] : null
  }

  private async answer(req: Request): Promise<Response> {
    const url = new URL(req.url)
    if (this.mode === 'down') {
      this.refused++
      return new Response('Service Unavailable', { status: 503 })
    }
    if (url.pathname === '/1/validate-token') {
      if (req.method !== 'GET') return this.fail(`validate-token must be GET, got ${req.method}`, 405)
      const token = this.tokenOf(req)
      if (!token) return this.fail(`validate-token without "Authorization: Token …" (got ${JSON.stringify(req.headers.get('authorization'))})`)
      const user = this.tokens.get(token)
      return Response.json(user ? { code: 200, message: 'Token valid.', valid: true, user_name: user } : { code: 200, message: 'Token invalid.', valid: false })
    }
    if (url.pathname !== '/1/submit-listens') return this.fail(`unknown ListenBrainz path ${req.method} ${url.pathname}`, 404)
    if (req.method !== 'POST') return this.fail(`submit-listens must be POST, got ${req.method}`, 405)
    const token = this.tokenOf(req)
    if (!token || !this.tokens.has(token)) return this.fail(`submit-listens with a bad token: ${JSON.stringify(req.headers.get('authorization'))}`, 401)
    if (!(req.headers.get('content-type') ?? '').startsWith('application/json'))
      return this.fail(`submit-listens content-type ${req.headers.get('content-type')}`)
    let body: Record<string, unknown>
    try {
      body = (await req.json()) as Record<string, unknown>
    } catch {
      return this.fail('submit-listens body is not JSON')
    }
    const extra = Object.keys(body).filter((k) => k !== 'listen_type' && k !== 'payload')
    if (extra.length) return this.fail(`submit-listens unknown keys ${extra}`)
    const type = body.listen_type
    if (type !== 'single' && type !== 'playing_now' && type !== 'import') return this.fail(`listen_type ${JSON.stringify(type)}`)
    const payload = body.payload
    if (!Array.isArray(payload) || payload.length === 0) return this.fail('payload must be a non-empty array')
    if (type !== 'import' && payload.length !== 1) return this.fail(`${type} must carry exactly one listen, got ${payload.length}`)
    if (payload.length > 1000) return this.fail('import of more than 1000 listens')
    const received: ReceivedListen[] = []
    for (const listen of payload as Record<string, unknown>[]) {
      const keys = Object.keys(listen ?? {})
      const allowed = type === 'playing_now' ? ['track_metadata'] : ['listened_at', 'track_metadata']
      if (keys.some((k) => !allowed.includes(k))) return this.fail(`${type} listen has keys ${keys}`)
      let listenedAt: number | null = null
      if (type !== 'playing_now') {
        if (!Number.isInteger(listen.listened_at) || (listen.listened_at as number) < LB_MIN_TIMESTAMP)
          return this.fail(`listened_at ${JSON.stringify(listen.listened_at)} is not a Unix time in seconds`)
        if ((listen.listened_at as number) > Date.now() / 1000 + 60) return this.fail('listened_at in the future')
        listenedAt = listen.listened_at as number
      }
      const meta = listen.track_metadata as Record<string, unknown> | undefined
      if (!meta || typeof meta !== 'object') return this.fail('track_metadata missing')
      const metaExtra = Object.keys(meta).filter((k) => !['artist_name', 'track_name', 'release_name', 'additional_info'].includes(k))
      if (metaExtra.length) return this.fail(`track_metadata unknown keys ${metaExtra}`)
      if (typeof meta.artist_name !== 'string' || meta.artist_name.trim() === '') return this.fail('artist_name must be a non-empty string')
      if (typeof meta.track_name !== 'string' || meta.track_name.trim() === '') return this.fail('track_name must be a non-empty string')
      if (meta.release_name !== undefined && (typeof meta.release_name !== 'string' || meta.release_name === ''))
        return this.fail('release_name must be a non-empty string when given')
      let durationMs: number | null = null
      if (meta.additional_info !== undefined) {
        const info = meta.additional_info as Record<string, unknown>
        if (typeof info !== 'object' || info === null) return this.fail('additional_info must be an object')
        if (info.duration_ms !== undefined) {
          if (!Number.isInteger(info.duration_ms) || (info.duration_ms as number) <= 0) return this.fail(`duration_ms ${JSON.stringify(info.duration_ms)}`)
          durationMs = info.duration_ms as number
        }
        for (const k of ['submission_client', 'media_player'])
          if (info[k] !== undefined && (typeof info[k] !== 'string' || info[k] === '')) return this.fail(`${k} must be a non-empty string`)
      }
      received.push({
        user: this.tokens.get(token) as string,
        artist: meta.artist_name,
        track: meta.track_name,
        album: (meta.release_name as string | undefined) ?? null,
        durationMs,
        listenedAt,
        listenType: type,
      })
    }
    if (type === 'playing_now') this.nowPlaying.push(...received)
    else this.listens.push(...received)
    return Response.json({ status: 'ok' })
  }
}

const LASTFM_METHODS: Record<string, { required: string[]; optional: string[] }> = {
  'auth.getSession': { required: ['token'], optional: [] },
  'track.updateNowPlaying': { required: ['artist', 'track', 'sk'], optional: ['album', 'trackNumber', 'context', 'mbid', 'duration', 'albumArtist'] },
  'track.scrobble': {
    required: ['artist', 'track', 'timestamp', 'sk'],
    optional: ['album', 'context', 'streamId', 'chosenByUser', 'trackNumber', 'mbid', 'albumArtist', 'duration'],
  },
}

export class LastfmStandIn extends StandIn {
  readonly apiKey = 'standinapikey0123456789abcdef012'
  readonly secret = 'standinsecret0123456789abcdef012'
  /** Tokens the auth page handed out, and the account each was for. */
  private tokens = new Map<string, string>()
  /** session key → account */
  sessions = new Map<string, string>()
  /** The account the next member to "allow access" on the auth page has. */
  nextAccount = 'lastfm-member'
  scrobbles: ReceivedScrobble[] = []
  nowPlaying: ReceivedScrobble[] = []

  private signature(params: Record<string, string>) {
    const text = Object.keys(params)
      .filter((k) => k !== 'format' && k !== 'callback' && k !== 'api_sig')
      .sort()
      .map((k) => k + params[k])
      .join('')
    return createHash('md5')
      .update(text + this.secret, 'utf8')
      .digest('hex')
  }

  private error(code: number, message: string, status = 400) {
    return Response.json({ error: code, message }, { status })
  }

  protected async handle(req: Request): Promise<Response> {
    const url = new URL(req.url)
    if (url.pathname === '/api/auth/' && req.method === 'GET') {
      // The member pressed "Yes, allow access".
      if (url.searchParams.get('api_key') !== this.apiKey) return this.fail(`auth page api_key ${url.searchParams.get('api_key')}`)
      const cb = url.searchParams.get('cb')
      if (!cb || !/^https?:\/\//.test(cb)) return this.fail(`auth page cb ${cb}`)
      const token = crypto.randomUUID().replaceAll('-', '')
      this.tokens.set(token, this.nextAccount)
      const back = new URL(cb)
      back.searchParams.set('token', token)
      return Response.redirect(back.toString(), 302)
    }
    if (this.mode === 'down') {
      this.refused++
      return this.error(16, 'There was a temporary error processing your request. Please try again', 503)
    }
    if (url.pathname !== '/2.0/') return this.fail(`unknown Last.fm path ${req.method} ${url.pathname}`, 404)
    if (req.method !== 'POST') return this.fail(`Last.fm write calls must be POST, got ${req.method}`, 405)
    if (!(req.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded'))
      return this.fail(`Last.fm call content-type ${req.headers.get('content-type')}`)
    const form = new URLSearchParams(await req.text())
    const params: Record<string, string> = {}
    for (const [k, v] of form) {
      if (k in params) return this.fail(`parameter ${k} sent twice`)
      params[k] = v
    }
    if (params.format !== 'json') return this.fail(`format ${JSON.stringify(params.format)} (want json)`)
    if (params.api_key !== this.apiKey) return this.fail(`api_key ${JSON.stringify(params.api_key)}`)
    if (!/^[0-9a-f]{32}$/.test(params.api_sig ?? '')) return this.fail(`api_sig ${JSON.stringify(params.api_sig)} is not an md5 hex`)
    if (params.api_sig !== this.signature(params)) return this.fail(`api_sig does not match the parameters (${Object.keys(params).sort()})`)
    const spec = LASTFM_METHODS[params.method]
    if (!spec) return this.fail(`unknown method ${JSON.stringify(params.method)}`)
    const known = ['method', 'api_key', 'api_sig', 'format', ...spec.required, ...spec.optional]
    const unknown = Object.keys(params).filter((k) => !known.includes(k))
    if (unknown.length) return this.fail(`${params.method}: unknown parameters ${unknown}`)
    const missing = spec.required.filter((k) => !params[k])
    if (missing.length) return this.fail(`${params.method}: missing ${missing}`)
    if (params.duration !== undefined && !/^[1-9]\d*$/.test(params.duration))
      return this.fail(`duration ${JSON.stringify(params.duration)} is not whole seconds`)
    if (params.album === '') return this.fail('album sent empty')

    if (params.method === 'auth.getSession') {
      const account = this.tokens.get(params.token)
      // A token is good for one session.
      if (!account) return this.error(4, 'Invalid authentication token supplied', 403)
      this.tokens.delete(params.token)
      const key = crypto.randomUUID().replaceAll('-', '')
      this.sessions.set(key, account)
      return Response.json({ session: { name: account, key, subscriber: 0 } })
    }
    if (!this.sessions.has(params.sk)) return this.error(9, 'Invalid session key - Please re-authenticate', 403)
    const received: ReceivedScrobble = {
      account: this.sessions.get(params.sk) as string,
      method: params.method,
      artist: params.artist,
      track: params.track,
      album: params.album ?? null,
      duration: params.duration ? Number(params.duration) : null,
      timestamp: null,
      sk: params.sk,
    }
    if (params.method === 'track.updateNowPlaying') {
      this.nowPlaying.push(received)
      return Response.json({ nowplaying: { artist: { '#text': params.artist }, track: { '#text': params.track }, ignoredMessage: { code: '0', '#text': '' } } })
    }
    const ts = Number(params.timestamp)
    if (!/^\d+$/.test(params.timestamp) || ts < Date.now() / 1000 - 14 * 86400 || ts > Date.now() / 1000 + 60)
      return this.fail(`timestamp ${params.timestamp} is not a Unix time in seconds within the last 14 days`)
    this.scrobbles.push({ ...received, timestamp: ts })
    return Response.json({ scrobbles: { scrobble: { artist: { '#text': params.artist } }, '@attr': { accepted: 1, ignored: 0 } } })
  }
}
