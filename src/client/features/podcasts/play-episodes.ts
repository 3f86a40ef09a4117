// Podcast episodes into the app's one player, through its public events only. An episode plays
// from its server path (relayed or downloaded), so the page's CSP and the listener's privacy
// hold; it starts where the member left it on any device, unless they finished it.
import { player } from '~/client/features/player/player-store'
import { episodeAudioPath } from '~/shared/podcasts'
import { makeTrack, type Track } from '~/shared/player/track'

export type PlayableEpisode = { id: string; title: string; durationSec: number; enclosureType: string; positionMs: number; played: boolean }

export const episodeTrack = (e: PlayableEpisode, channelTitle: string): Track =>
  makeTrack({ url: episodeAudioPath(e.id), title: e.title, artist: channelTitle, album: channelTitle, duration: e.durationSec, mime: e.enclosureType })

/** Where an episode resumes: its saved place, or the start once it was played to the end. */
export const resumeSeconds = (e: PlayableEpisode) => (e.played ? 0 : e.positionMs / 1000)

/** Replaces the queue with the episode and plays it from where the member left it. */
export function playEpisode(e: PlayableEpisode, channelTitle: string) {
  player().send({
    type: 'restore',
    queue: { tracks: [episodeTrack(e, channelTitle)], context: { source: 'remote', label: channelTitle }, index: 0, positionSec: resumeSeconds(e) },
    play: true,
  })
}

/** Appends the episode to the queue (an empty player takes it as its list). */
export function queueEpisode(e: PlayableEpisode, channelTitle: string) {
  player().send({ type: 'append', tracks: [episodeTrack(e, channelTitle)] })
}
