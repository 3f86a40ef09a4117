// Where the player finds a podcast episode's audio: one path, built and read here for the
// server (services/podcasts.ts), the Podcasts page and the player's progress and analytics.
const AUDIO_PATH = /^\/api\/podcasts\/episodes\/(pe-[0-9a-f]+)\/audio$/

/** The path an episode plays from (its download, or relayed from its source through the server). */
export const episodeAudioPath = (id: string) => `/api/podcasts/episodes/${id}/audio`

/** The episode id of a player track URL, or null when the track is no podcast episode. */
export function episodeIdOfUrl(url: string): string | null {
  return AUDIO_PATH.exec(url.split(/[?#]/)[0])?.[1] ?? null
}

/** The front hands this path's audio and artwork requests to the podcast media routes (its other paths are REST's). */
export const PODCAST_MEDIA_PATH = '/api/podcasts'
const AUDIO_ROUTE = /^\/api\/podcasts\/episodes\/([^/]+)\/audio\/?$/
const ARTWORK_ROUTE = /^\/api\/podcasts\/([^/]+)\/artwork\/?$/

/** The path of a channel's artwork (a same-origin JPEG, scaled to fit `size`×`size`). */
export const channelArtworkPath = (channelId: string, size: number) => `/api/podcasts/${channelId}/artwork?size=${size}`

/** Whether the podcast media routes (episode audio, channel artwork) answer the path. */
export const isPodcastMediaPath = (pathname: string) => AUDIO_ROUTE.test(pathname) || ARTWORK_ROUTE.test(pathname)

/** The (still encoded) channel id in an artwork route path, null when the path is no artwork route. */
export const channelIdOfArtworkPath = (pathname: string) => ARTWORK_ROUTE.exec(pathname)?.[1] ?? null

/** Whether the episode audio route answers the path. */
export const isEpisodeAudioPath = (pathname: string) => AUDIO_ROUTE.test(pathname)

/** The (still encoded) episode id in an audio route path, '' when there is none. */
export const episodeIdOfAudioPath = (pathname: string) => AUDIO_ROUTE.exec(pathname)?.[1] ?? ''
