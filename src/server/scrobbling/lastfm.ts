// The Last.fm API (last.fm/api): every call is a POST to <base>/2.0/ with `method`, `api_key` and
// `api_sig` = md5 of every parameter but `format` and `callback`, sorted by name, each name then
// its value, then the shared secret (UTF-8); `format=json` asks for a JSON answer. Web auth: the
// member allows Vibes on Last.fm's auth page, which sends them back with a token; auth.getSession
// trades it for a session key that does not expire. Scrobbling: track.updateNowPlaying and
// track.scrobble with `sk`. Errors 11 (offline), 16 (temporarily unavailable) and 29 (rate limit)
// are worth another try, as is any 5xx; the rest (9: the session key was revoked) are final.
import { createHash } from 'node:crypto'
import { brief, type Scrobble, type SendOutcome, SERVICE_TIMEOUT_MS, underBase, unreachable } from './outcome'

export type LastfmApp = { apiUrl: string; apiKey: string; apiSecret: string }

const RETRYABLE_ERRORS = new Set([11, 16, 29])

export function lastfmSignature(params: Record<string, string>, secret: string): string {
  const signed = Object.keys(params)
    .filter((name) => name !== 'format' && name !== 'callback')
    .sort()
    .map((name) => name + params[name])
    .join('')
  return createHash('md5')
    .update(signed + secret, 'utf8')
    .digest('hex')
}

type CallResult = { ok: true; body: Record<string, unknown> } | { ok: false; retry: boolean; error: string }

async function call(app: LastfmApp, method: string, params: Record<string, string>): Promise<CallResult> {
  const signed = { ...params, method, api_key: app.apiKey }
  const form = new URLSearchParams({ ...signed, api_sig: lastfmSignature(signed, app.apiSecret), format: 'json' })
  let res: Response
  try {
    res = await fetch(underBase(app.apiUrl, '2.0/'), { method: 'POST', body: form, signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS) })
  } catch (error) {
    return unreachable('Last.fm', error)
  }
  const text = await res.text().catch(() => '')
  let body: Record<string, unknown> | null = null
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    // An HTML error page from a proxy in front of the service.
  }
  if (body && typeof body.error === 'number') {
    return { ok: false, retry: RETRYABLE_ERRORS.has(body.error), error: `Last.fm error ${body.error}: ${brief(String(body.message ?? ''))}` }
  }
  if (!res.ok || !body) return { ok: false, retry: res.status === 429 || res.status >= 500 || res.ok, error: `Last.fm answered ${res.status}: ${brief(text)}` }
  return { ok: true, body }
}

/** The page a member is sent to, to allow Vibes to scrobble; Last.fm comes back to `callback` with `token`. */
export function lastfmAuthPage(authUrl: string, apiKey: string, callback: string): string {
  const url = new URL(authUrl)
  url.searchParams.set('api_key', apiKey)
  url.searchParams.set('cb', callback)
  return url.toString()
}

/** Trades the token from the auth page for the member's session: their name and session key. */
export async function lastfmSession(app: LastfmApp, token: string): Promise<{ ok: true; name: string; key: string } | { ok: false; error: string }> {
  const result = await call(app, 'auth.getSession', { token })
  if (!result.ok) return result
  const session = result.body.session as { name?: unknown; key?: unknown } | undefined
  if (typeof session?.name !== 'string' || typeof session.key !== 'string') return { ok: false, error: 'Last.fm answered without a session' }
  return { ok: true, name: session.name, key: session.key }
}

const trackParams = (s: Scrobble) => ({
  artist: s.artist,
  track: s.title,
  ...(s.album ? { album: s.album } : {}),
  ...(s.duration >= 1 ? { duration: String(Math.round(s.duration)) } : {}),
})

export async function lastfmNowPlaying(app: LastfmApp, sessionKey: string, s: Scrobble): Promise<SendOutcome> {
  const result = await call(app, 'track.updateNowPlaying', { ...trackParams(s), sk: sessionKey })
  return result.ok ? { ok: true } : result
}

export async function lastfmScrobble(app: LastfmApp, sessionKey: string, s: Scrobble): Promise<SendOutcome> {
  const result = await call(app, 'track.scrobble', { ...trackParams(s), timestamp: String(Math.floor(s.playedAt.getTime() / 1000)), sk: sessionKey })
  return result.ok ? { ok: true } : result
}
