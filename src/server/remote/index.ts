// Remote folders: fetch a URL under the address policy and read it as a track list; and the
// save-time check that a folder's URL is one the policy lets the server reach.
import { TRPCError } from '@trpc/server'
import { config } from '../config'
import type { Track } from '~/shared/player/track'
import type { AddressPolicy } from './address-policy'
import { AddressRefusedError, checkHost, fetchRemote, REMOTE_TIMEOUT_MS, RemoteError } from './fetch'
import { parsePlaylist } from './parse'

/** The operator's policy (REMOTE_ALLOW_HOSTS, REMOTE_ALLOW_PRIVATE) for every outgoing fetch. */
export const remotePolicy = (): AddressPolicy => ({ allowHosts: config.REMOTE_ALLOW_HOSTS, allowPrivate: config.REMOTE_ALLOW_PRIVATE })

export async function loadRemotePlaylist(url: string): Promise<Track[]> {
  try {
    const res = await fetchRemote(url, remotePolicy())
    return parsePlaylist(res.body, res.url, res.contentType)
  } catch (error) {
    if (error instanceof RemoteError) throw new TRPCError({ code: 'BAD_REQUEST', message: error.message })
    throw error
  }
}

/**
 * Refuses (400, the policy's own message) a folder URL whose host the address policy refuses, so
 * it fails when saved rather than when played. A name that does not resolve right now (a NAS that
 * is off, a slow resolver) is accepted: that may change, and playing checks again.
 */
export async function checkRemoteFolderUrl(url: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, REMOTE_TIMEOUT_MS)))
  try {
    await Promise.race([checkHost(new URL(url), remotePolicy()), timeout])
  } catch (error) {
    if (error instanceof AddressRefusedError) throw new TRPCError({ code: 'BAD_REQUEST', message: error.message })
    if (!(error instanceof RemoteError)) throw error
  } finally {
    clearTimeout(timer)
  }
}
