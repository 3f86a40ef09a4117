// GET /api/podcasts/episodes/{id}/audio: an episode's audio for the web player, from its download
// or relayed from its source through the server (so the page's CSP keeps media same-origin and
// the source never sees the listener's address). The listener's Range is passed on; the source
// is checked by the address policy at every request. Identity is the bearer token or session
// cookie, as for every /api call; answers other than audio use the /api JSON envelope.
// GET /api/podcasts/{channelId}/artwork?size=N: the channel's artwork as a same-origin JPEG
// (podcasts/artwork.ts), under the same identity and envelope.
import { REST_STATUS } from '../rest/handler'
import { channelIdOfArtworkPath, episodeIdOfAudioPath } from '~/shared/podcasts'
import { authenticate } from '../auth/sessions'
import { config } from '../config'
import { getDb } from '../db'
import { DomainError, RateLimitedError } from '../errors'
import { episodeAudio } from '../services/podcasts'
import { channelArtwork } from './artwork'
import { textProblem } from '../http/nul-text'
import { requestToken } from '../http/request-token'

const envelope = (status: number, error: string, headers: Record<string, string> = {}) =>
  Response.json({ success: false, error }, { status, headers: { 'cache-control': 'no-store', ...headers } })

/** The artwork's `size`: absent, or a whole number of pixels from 1 to 10000. */
function askedSize(url: URL): number | undefined | null {
  const raw = url.searchParams.get('size')
  if (raw === null) return undefined
  const size = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN
  return size >= 1 && size <= 10_000 ? size : null
}

/** Episode audio or channel artwork (the front sends only those paths here). */
export async function handlePodcastMedia(request: Request, url: URL): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return envelope(405, 'Use GET', { allow: 'GET, HEAD' })
  const token = requestToken(request)
  const user = token ? await authenticate(getDb(), token, config.AUTH_SECRET) : null
  if (!user) return envelope(401, 'Not signed in')
  try {
    const channelId = channelIdOfArtworkPath(url.pathname)
    const id = decodeURIComponent(channelId ?? episodeIdOfAudioPath(url.pathname))
    const problem = textProblem(id)
    if (problem) return envelope(400, problem)
    if (channelId !== null) {
      const size = askedSize(url)
      if (size === null) return envelope(400, 'size must be a whole number from 1 to 10000')
      return await channelArtwork(getDb(), user, id, size, request.signal)
    }
    return await episodeAudio(getDb(), user, id, request)
  } catch (error) {
    if (error instanceof DomainError)
      return envelope(REST_STATUS[error.kind], error.message, error instanceof RateLimitedError ? { 'retry-after': String(error.retryAfterSec) } : {})
    if (error instanceof URIError) return envelope(400, 'Malformed URL')
    throw error
  }
}
