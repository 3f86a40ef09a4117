// The OpenSubsonic podcast methods over the one podcast service of the web's Podcasts page
// (services/podcasts.ts, docs/decisions/078). A member's channels are the feeds they subscribe to:
// createPodcastChannel subscribes (a feed no one follows yet is fetched first), deletePodcastChannel
// unsubscribes. Every episode can play at once (relayed from its source through the server, or
// from its download), so its status is "completed"; downloadPodcastEpisode keeps a copy on the
// server and deletePodcastEpisode removes that copy. An episode's position is the member's
// progress, the same the web player resumes from, offered to apps as its bookmark.
import { MEDIA_EXTENSIONS, mimeFromName } from '~/shared/player/mime'
import { episodeAudioPath } from '~/shared/podcasts'
import type { PlayFacts } from '../services/listening'
import {
  type ChannelSummary,
  deleteDownload,
  downloadEpisode,
  episodeAudio,
  episodeFor,
  type EpisodeView,
  episodesOfChannels,
  listChannels,
  newestEpisodes,
  refreshForMember,
  subscribe,
  unsubscribe,
} from '../services/podcasts'
import { NotFoundError } from '../errors'
import { channelArtwork } from '../podcasts/artwork'
import type { MethodContext } from './methods'
import { ErrorCode, type Payload, SubsonicError } from './response'

/** The analytics source of every podcast play, whichever door reported it. */
const PODCAST_SOURCE = 'podcast'

export const isEpisodeId = (id: string) => /^pe-[0-9a-f]+$/.test(id)
export const isChannelId = (id: string) => /^pc-[0-9a-f]+$/.test(id)

/** getCoverArt for a podcast channel: its artwork through the server (podcasts/artwork.ts). */
export async function channelCoverArt(ctx: MethodContext, channelId: string, size: number | undefined): Promise<Response> {
  try {
    return await channelArtwork(ctx.db, ctx.user, channelId, size, ctx.request.signal)
  } catch (error) {
    if (error instanceof NotFoundError) throw new SubsonicError(ErrorCode.notFound, error.message)
    throw error
  }
}

/** The usual file extension of a MIME type ('audio/mpeg' → 'mp3'), or undefined. */
const suffixOf = (type: string) => MEDIA_EXTENSIONS.find((ext) => mimeFromName(`x.${ext}`) === type.toLowerCase())

const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString())

/** An episode as a PodcastEpisode (a Child with the podcast fields). */
export function episodePayload(e: EpisodeView, channel: (Pick<ChannelSummary, 'title' | 'author'> & { artworkUrl?: string | null }) | undefined): Payload {
  return {
    id: e.id,
    // Episodes show their channel's artwork (getCoverArt with the channel's id).
    coverArt: channel?.artworkUrl ? e.channelId : undefined,
    streamId: e.id,
    channelId: e.channelId,
    parent: e.channelId,
    isDir: false,
    title: e.title,
    album: channel?.title,
    artist: channel?.author || channel?.title,
    size: e.enclosureSize || undefined,
    contentType: e.enclosureType,
    suffix: suffixOf(e.enclosureType),
    duration: e.durationSec || undefined,
    isVideo: e.enclosureType.startsWith('video/'),
    created: iso(e.publishedAt),
    type: 'podcast',
    mediaType: 'song',
    bookmarkPosition: e.positionMs > 0 && !e.played ? e.positionMs : undefined,
    description: e.description || undefined,
    status: 'completed',
    publishDate: iso(e.publishedAt),
  }
}

function channelPayload(c: ChannelSummary, episodes?: EpisodeView[]): Payload {
  return {
    id: c.id,
    url: c.feedUrl,
    title: c.title,
    description: c.description || undefined,
    coverArt: c.artworkUrl ? c.id : undefined,
    originalImageUrl: c.artworkUrl ?? undefined,
    status: c.lastError ? 'error' : 'completed',
    errorMessage: c.lastError ?? undefined,
    ...(episodes ? { episode: episodes.map((e) => episodePayload(e, c)) } : {}),
  }
}

export const PODCAST_METHODS = {
  getPodcasts: async (ctx: MethodContext) => {
    const id = ctx.params.get('id')
    const all = await listChannels(ctx.db, ctx.user.id)
    const channels = id ? all.filter((c) => c.id === id) : all
    if (id && !channels.length) throw new SubsonicError(ErrorCode.notFound, 'Podcast not found')
    if (!ctx.params.bool('includeEpisodes', true)) return { podcasts: { channel: channels.map((c) => channelPayload(c)) } }
    const episodes = await episodesOfChannels(
      ctx.db,
      ctx.user.id,
      channels.map((c) => c.id),
    )
    return {
      podcasts: {
        channel: channels.map((c) =>
          channelPayload(
            c,
            episodes.filter((e) => e.channelId === c.id),
          ),
        ),
      },
    }
  },
  getNewestPodcasts: async (ctx: MethodContext) => {
    const count = ctx.params.int('count', { min: 0, max: 500, fallback: 20 })
    const [episodes, channels] = await Promise.all([newestEpisodes(ctx.db, ctx.user.id, count), listChannels(ctx.db, ctx.user.id)])
    const byId = new Map(channels.map((c) => [c.id, c]))
    return { newestPodcasts: { episode: episodes.map((e) => episodePayload(e, byId.get(e.channelId))) } }
  },
  getPodcastEpisode: async (ctx: MethodContext) => {
    const episode = await episodeFor(ctx.db, ctx.user, ctx.params.required('id'))
    const channel = (await listChannels(ctx.db, ctx.user.id)).find((c) => c.id === episode.channelId)
    return { podcastEpisode: episodePayload(episode, channel) }
  },
  refreshPodcasts: async (ctx: MethodContext) => {
    await refreshForMember(ctx.db, ctx.user)
    return {}
  },
  createPodcastChannel: async (ctx: MethodContext) => {
    await subscribe(ctx.db, ctx.user, ctx.params.required('url'))
    return {}
  },
  deletePodcastChannel: async (ctx: MethodContext) => {
    await unsubscribe(ctx.db, ctx.user.id, ctx.params.required('id'))
    return {}
  },
  downloadPodcastEpisode: async (ctx: MethodContext) => {
    await downloadEpisode(ctx.db, ctx.user, ctx.params.required('id'))
    return {}
  },
  deletePodcastEpisode: async (ctx: MethodContext) => {
    await deleteDownload(ctx.db, ctx.user, ctx.params.required('id'))
    return {}
  },
}

/** An app's scrobbles of episodes (every id one), as plays with source `podcast`, keyed as the web player keys them. */
export async function scrobbledEpisodes(ctx: MethodContext, ids: string[], times: Date[]): Promise<PlayFacts[]> {
  if (!ids.every(isEpisodeId)) throw new SubsonicError(ErrorCode.generic, 'Scrobble podcast episodes and songs in separate calls')
  const channels = new Map((await listChannels(ctx.db, ctx.user.id)).map((c) => [c.id, c]))
  return Promise.all(
    ids.map(async (id, i) => {
      const e = await episodeFor(ctx.db, ctx.user, id)
      const channel = channels.get(e.channelId)
      return {
        trackUrl: episodeAudioPath(e.id),
        title: e.title,
        duration: e.durationSec,
        artist: channel?.author || channel?.title || null,
        album: channel?.title ?? null,
        source: PODCAST_SOURCE,
        finishedAt: times[i],
      }
    }),
  )
}

/** stream and download of an episode id: its audio, as the web player gets it. */
export const streamEpisode = (ctx: MethodContext, id: string) => episodeAudio(ctx.db, ctx.user, id, ctx.request)
