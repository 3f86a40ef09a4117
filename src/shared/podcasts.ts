// Where the player finds a podcast episode's audio: one path, built and read here for the
// server (services/podcasts.ts), the Podcasts page and the player's progress and analytics.
const AUDIO_PATH = /^\/api\/podcasts\/episodes\/(pe-[0-9a-f]+)\/audio$/

/** The path an episode plays from (its download, or relayed from its source through the server). */
export const episodeAudioPath = (id: string) => `/api/podcasts/episodes/${id}/audio`

/** The episode id of a player track URL, or null when the track is no podcast episode. */
export function episodeIdOfUrl(url: string): string | null {
  return AUDIO_PATH.exec(url.split(/[?#]/)[0])?.[1] ?? null
}
