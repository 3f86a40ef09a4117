// GET /api/radio/stream/<station id>: a station's live stream through this server, for the web
// player (decision 077). The member is the caller's session cookie or bearer token; the station's
// URL is opened under the remote-folder address policy (every hop judged again, so a host that
// now resolves into the LAN is refused) and its bytes are passed on as they come, with no ICY
// metadata asked for, so the browser gets plain audio. Leaving (the tab stops, the player changes
// station) closes the upstream connection; so do 30 s without a byte. A member may hold a few
// streams at once (tabs, devices), not more.
import { RADIO_STREAM_PREFIX } from '~/shared/player/track'
import { authenticate } from '../auth/sessions'
import { config } from '../config'
import { getDb } from '../db'
import { DomainError } from '../errors'
import { textProblem } from '../http/nul-text'
import { requestToken } from '../http/request-token'
import { logger } from '../logger'
import { MEDIA_SECURITY_HEADERS } from '../media/handler'
import { remotePolicy } from '../remote'
import { openRemoteStream, RemoteError } from '../remote/fetch'
import { getStation } from '../services/radio'

const CONNECT_MS = 10_000
const IDLE_MS = 30_000
export const MAX_STREAMS_PER_MEMBER = 4

const open = new Map<string, number>()

/** The station id a stream path names, or null when it names none (empty, nested, malformed, absurdly long). */
function stationIdOf(pathname: string): string | null {
  const raw = pathname.slice(RADIO_STREAM_PREFIX.length)
  if (!raw || raw.length > 300 || raw.includes('/')) return null
  try {
    return decodeURIComponent(raw)
  } catch {
    return null
  }
}

const envelope = (status: number, error: string, headers: Record<string, string> = {}) =>
  Response.json({ success: false, error }, { status, headers: { 'cache-control': 'no-store', ...headers } })

/** What a browser may play: audio, Ogg, or a server that does not say (many stations send octet-stream). */
const playable = (type: string) => type === '' || /^(audio\/|application\/(ogg|octet-stream)|video\/(mp2t|ogg))/i.test(type)

export async function handleRadioStream(request: Request, url = new URL(request.url)): Promise<Response> {
  if (request.method !== 'GET') return envelope(405, 'Use GET', { allow: 'GET' })
  const token = requestToken(request)
  const user = token ? await authenticate(getDb(), token, config.AUTH_SECRET) : null
  if (!user) return envelope(401, 'Not signed in')
  const id = stationIdOf(url.pathname)
  if (!id) return envelope(404, 'Radio station not found')
  const problem = textProblem(id)
  if (problem) return envelope(400, problem)
  if ((open.get(user.id) ?? 0) >= MAX_STREAMS_PER_MEMBER) return envelope(429, `At most ${MAX_STREAMS_PER_MEMBER} radio streams at once`)
  let station: Awaited<ReturnType<typeof getStation>>
  try {
    station = await getStation(getDb(), id)
  } catch (error) {
    if (error instanceof DomainError) return envelope(404, error.message)
    throw error
  }
  let upstream: Awaited<ReturnType<typeof openRemoteStream>>
  try {
    upstream = await openRemoteStream(
      station.streamUrl,
      remotePolicy(),
      { accept: 'audio/*, application/ogg, */*;q=0.5' },
      { connectMs: CONNECT_MS, signal: request.signal },
    )
  } catch (error) {
    if (error instanceof RemoteError) return envelope(502, `${station.name}: ${error.message}`)
    throw error
  }
  const type = upstream.contentType.split(';')[0].trim().toLowerCase()
  if (!playable(type)) {
    upstream.close()
    return envelope(502, `${station.name} did not answer with audio (it sent ${type})`)
  }
  open.set(user.id, (open.get(user.id) ?? 0) + 1)
  let released = false
  const release = () => {
    if (released) return
    released = true
    upstream.close()
    const left = (open.get(user.id) ?? 1) - 1
    if (left > 0) open.set(user.id, left)
    else open.delete(user.id)
  }
  const chunks = upstream.body[Symbol.asyncIterator]()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const idle = setTimeout(release, IDLE_MS)
      try {
        const next = await chunks.next()
        if (next.done) {
          release()
          controller.close()
        } else controller.enqueue(new Uint8Array(next.value as Buffer))
      } catch (error) {
        if (!(error instanceof RemoteError)) logger.info({ station: station.id, err: error }, 'radio stream ended')
        release()
        controller.close()
      } finally {
        clearTimeout(idle)
      }
    },
    cancel: release,
  })
  return new Response(body, {
    headers: {
      'content-type': type || 'audio/mpeg',
      'cache-control': 'no-store',
      ...MEDIA_SECURITY_HEADERS,
    },
  })
}
