// The ListenBrainz API (listenbrainz.readthedocs.io, "Submitting listens"): a member's user token
// in `Authorization: Token …`; GET /1/validate-token says whose it is; POST /1/submit-listens takes
// `playing_now` (one listen, no time), `single` (one listen with `listened_at`, Unix seconds) or
// `import` (several). 401 is a token no longer valid; 429 and 5xx are worth another try.
import { brief, type Scrobble, type SendOutcome, SERVICE_TIMEOUT_MS, underBase, unreachable } from './outcome'

export type ListenType = 'playing_now' | 'single' | 'import'

const headers = (token: string) => ({ authorization: `Token ${token}`, 'content-type': 'application/json', accept: 'application/json' })

/** The account name behind a valid token, or null for one ListenBrainz does not accept; throws when unreachable. */
export async function validateListenBrainzToken(baseUrl: string, token: string): Promise<string | null> {
  const res = await fetch(underBase(baseUrl, '1/validate-token'), { headers: headers(token), signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS) })
  if (res.status === 401 || res.status === 400) return null
  if (!res.ok) throw new Error(`ListenBrainz answered ${res.status}`)
  const body = (await res.json()) as { valid?: boolean; user_name?: string }
  return body.valid === true && typeof body.user_name === 'string' ? body.user_name : null
}

function listenOf(listen: Scrobble, withTime: boolean) {
  return {
    ...(withTime ? { listened_at: Math.floor(listen.playedAt.getTime() / 1000) } : {}),
    track_metadata: {
      artist_name: listen.artist,
      track_name: listen.title,
      ...(listen.album ? { release_name: listen.album } : {}),
      additional_info: {
        ...(listen.duration > 0 ? { duration_ms: Math.round(listen.duration * 1000) } : {}),
        media_player: 'Vibes',
        submission_client: 'Vibes',
      },
    },
  }
}

/** Sends listens (one for `playing_now` and `single`, any number for `import`). */
export async function submitListens(baseUrl: string, token: string, listenType: ListenType, listens: Scrobble[]): Promise<SendOutcome> {
  const body = { listen_type: listenType, payload: listens.map((l) => listenOf(l, listenType !== 'playing_now')) }
  let res: Response
  try {
    res = await fetch(underBase(baseUrl, '1/submit-listens'), {
      method: 'POST',
      headers: headers(token),
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS),
    })
  } catch (error) {
    return unreachable('ListenBrainz', error)
  }
  if (res.ok) return { ok: true }
  const text = await res.text().catch(() => '')
  const retry = res.status === 429 || res.status >= 500
  return { ok: false, retry, error: `ListenBrainz answered ${res.status}${text ? `: ${brief(text)}` : ''}` }
}
