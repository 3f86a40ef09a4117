// What an internet radio station is playing now, from its ICY metadata: asked with
// `Icy-MetaData: 1`, a Shoutcast/Icecast server answers `icy-metaint: N` and, after every N bytes
// of audio, one length byte (×16) and a text such as `StreamTitle='Artist - Title';`. One
// short-lived reader per station reads up to the first metadata block and hangs up; its answer is
// kept a few seconds, so any number of listeners polling cost the station one connection per
// interval. The web player's audio comes through its own connection (radio/stream.ts), unchanged.
import type { AddressPolicy } from '../remote/address-policy'
import { openRemoteStream, RemoteError } from '../remote/fetch'

/** How long a station's title is reused before it is read again. */
export const NOW_PLAYING_TTL_MS = 10_000
const CONNECT_MS = 5_000
/** A whole read (connect, audio up to the first block, the block) ends by then. */
const READ_MS = 8_000
/** Stations use 8–32 KB between blocks; a larger interval is not waited for. */
const MAX_METAINT = 256 * 1024

const cache = new Map<string, { at: number; title: Promise<string | null> }>()

/** The StreamTitle of one metadata block, or null when it has none (or an empty one). */
export function streamTitleOf(block: Uint8Array): string | null {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(block)
  } catch {
    // Older stations send Latin-1.
    text = new TextDecoder('latin1').decode(block)
  }
  text = text.replace(/\0+$/, '')
  const m = /StreamTitle='([\s\S]*?)';(?=\s*(?:Stream\w+=|$))/.exec(text)
  // Icecast writes characters outside Latin-1 as numeric character references (&#8211;).
  const title = m?.[1].replace(/&#(\d{1,7});/g, (ref, code) => (Number(code) <= 0x10ffff ? String.fromCodePoint(Number(code)) : ref)).trim()
  return title ? title.slice(0, 500) : null
}

/** The station's current title, read now or reused from a read under NOW_PLAYING_TTL_MS old. */
export function readNowPlaying(streamUrl: string, policy: AddressPolicy, now = Date.now()): Promise<string | null> {
  for (const [url, entry] of cache) if (now - entry.at > NOW_PLAYING_TTL_MS) cache.delete(url)
  const kept = cache.get(streamUrl)
  if (kept) return kept.title
  const title = readTitle(streamUrl, policy).catch(() => null)
  cache.set(streamUrl, { at: now, title })
  return title
}

async function readTitle(streamUrl: string, policy: AddressPolicy): Promise<string | null> {
  const deadline = AbortSignal.timeout(READ_MS)
  const stream = await openRemoteStream(streamUrl, policy, { 'icy-metadata': '1', accept: '*/*' }, { connectMs: CONNECT_MS, signal: deadline })
  try {
    const metaint = Number(stream.headers['icy-metaint'])
    if (!Number.isInteger(metaint) || metaint <= 0 || metaint > MAX_METAINT) return null
    let buffered = new Uint8Array(0)
    for await (const chunk of stream.body) {
      const next = new Uint8Array(buffered.length + (chunk as Uint8Array).length)
      next.set(buffered)
      next.set(chunk as Uint8Array, buffered.length)
      buffered = next
      if (buffered.length <= metaint) continue
      const length = buffered[metaint] * 16
      if (buffered.length < metaint + 1 + length) continue
      return length ? streamTitleOf(buffered.subarray(metaint + 1, metaint + 1 + length)) : null
    }
    return null
  } catch (error) {
    if (error instanceof RemoteError || deadline.aborted) return null
    throw error
  } finally {
    stream.close()
  }
}
