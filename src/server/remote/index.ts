// Remote folders: fetch a URL under the address policy and read it as a track list.
import { TRPCError } from '@trpc/server'
import { config } from '../config'
import type { Track } from '~/shared/player/track'
import { fetchRemote, RemoteError } from './fetch'
import { parsePlaylist } from './parse'

export async function loadRemotePlaylist(url: string): Promise<Track[]> {
  try {
    const res = await fetchRemote(url, { allowHosts: config.REMOTE_ALLOW_HOSTS, allowPrivate: config.REMOTE_ALLOW_PRIVATE })
    return parsePlaylist(res.body, res.url, res.contentType)
  } catch (error) {
    if (error instanceof RemoteError) throw new TRPCError({ code: 'BAD_REQUEST', message: error.message })
    throw error
  }
}
