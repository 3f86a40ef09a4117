// Where the player finds a podcast episode's audio: one path, built and read here for the
// server (services/podcasts.ts), the Podcasts page and the player's progress and analytics.
const AUDIO_PATH = /^\/api\/podcasts\/episodes\/(pe-[0-9a-f]+)\/audio$/

/** The path an episode plays from (its download, or relayed from its source through the server). */
export const episodeAudioPath = (id: string) => `/api/podcasts/episodes/${id}/audio`

/** The episode id of a player track URL, or null when the track is no podcast episode. */
export function episodeIdOfUrl(url: string): string | null {
  return AUDIO_PATH.exec(url.split(/[?#]/)[0])?.[1] ?? null
}

/** The front hands this path's audio requests to the episode audio route (its other paths are REST's). */
export const PODCAST_EPISODES_PATH = '/api/podcasts/episodes'
const AUDIO_ROUTE = /^\/api\/podcasts\/episodes\/([^/]+)\/audio\/?$/

/** Whether the episode audio route answers the path. */
export const isEpisodeAudioPath = (pathname: string) => AUDIO_ROUTE.test(pathname)

/** The (still encoded) episode id in an audio route path, '' when there is none. */
export const episodeIdOfAudioPath = (pathname: string) => AUDIO_ROUTE.exec(pathname)?.[1] ?? ''
