// Keeps the member's place in the podcast episode the player has current, on the server (so any
// device and any app resumes there): every 15 s of play, on pause, and when the player moves on
// (then "played" when it got within 30 s of the end). Failures are dropped: the next save
// carries the newer position anyway.
import { episodeIdOfUrl } from '~/shared/podcasts'
import { currentTrack } from '~/client/features/player/engine'
import { player } from '~/client/features/player/player-store'

export type ProgressSave = (input: { episodeId: string; positionMs: number; played?: boolean }) => Promise<unknown>

const SAVE_EVERY_SEC = 15
const PLAYED_WITHIN_SEC = 30

type Watched = { episodeId: string; at: number; duration: number; savedAt: number; playing: boolean }

export function keepPodcastProgress(save: ProgressSave): () => void {
  let watched: Watched | null = null
  const send = (w: Watched, played?: boolean) => {
    w.savedAt = w.at
    save({ episodeId: w.episodeId, positionMs: Math.round(w.at * 1000), ...(played === undefined ? {} : { played }) }).catch(() => {})
  }
  const nearEnd = (w: Watched) => w.duration > 0 && w.at >= w.duration - Math.min(PLAYED_WITHIN_SEC, w.duration / 10)
  return player().subscribe(() => {
    const { engine, currentTime, duration } = player().get()
    const track = currentTrack(engine)
    const episodeId = track ? episodeIdOfUrl(track.url) : null
    if (watched && watched.episodeId !== episodeId) {
      if (watched.at > 0) send(watched, nearEnd(watched) || undefined)
      watched = null
    }
    if (!episodeId) return
    // A track just loaded reports 0 before its saved place is reached: nothing to save yet.
    watched ??= { episodeId, at: 0, duration: 0, savedAt: 0, playing: engine.playing }
    if (currentTime > 0) watched.at = currentTime
    if (duration > 0) watched.duration = duration
    const paused = watched.playing && !engine.playing
    watched.playing = engine.playing
    if (watched.at > 0 && (paused || Math.abs(watched.at - watched.savedAt) >= SAVE_EVERY_SEC)) send(watched, nearEnd(watched) || undefined)
  })
}
