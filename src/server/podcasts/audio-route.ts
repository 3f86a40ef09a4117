// GET /api/podcasts/episodes/{id}/audio: an episode's audio for the web player, from its download
// or relayed from its source through the server (so the page's CSP keeps media same-origin and
// the source never sees the listener's address). The listener's Range is passed on; the source
// is checked by the address policy at every request. Identity is the bearer token or session
// cookie, as for every /api call; answers other than audio use the /api JSON envelope.
import { episodeIdOfAudioPath } from '~/shared/podcasts'
import { validateToken } from '../auth/sessions'
import { config } from '../config'
import { getDb } from '../db'
import { DomainError } from '../errors'
import { episodeAudio } from '../services/podcasts'
import { requestToken } from '../http/request-token'

const STATUS: Record<DomainError['kind'], number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'rate-limited': 429,
}

const envelope = (status: number, error: string, headers: Record<string, string> = {}) =>
  Response.json({ success: false, error }, { status, headers: { 'cache-control': 'no-store', ...headers } })

export async function handleEpisodeAudio(request: Request, url: URL): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return envelope(405, 'Use GET', { allow: 'GET, HEAD' })
  const token = requestToken(request)
  const user = token ? validateToken(getDb(), token, config.AUTH_SECRET) : null
  if (!user) return envelope(401, 'Not signed in')
  const id = episodeIdOfAudioPath(url.pathname)
  try {
    return await episodeAudio(getDb(), user, decodeURIComponent(id), request)
  } catch (error) {
    if (error instanceof DomainError) return envelope(STATUS[error.kind], error.message)
    if (error instanceof URIError) return envelope(400, 'Malformed URL')
    throw error
  }
}
