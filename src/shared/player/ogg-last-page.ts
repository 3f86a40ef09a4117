// The length of an Ogg file (Vorbis, Opus, FLAC or Speex in Ogg) from its last page. An Ogg
// stream states its length nowhere but in the granule position of its last page; music-metadata
// finds it only by walking every page of the file, so readers take the file's tail instead (one
// read of at most one page): the library scanner from disk, the remote reader by a Range request,
// the browser from a picked file's Blob.

/** The largest Ogg page: a 27-byte header, 255 lacing values and 255 segments of 255 bytes. */
export const OGG_MAX_PAGE = 27 + 255 + 255 * 255

/**
 * Seconds of audio in a file whose last bytes are `tail`, or null when they hold no page with a
 * position. `sampleRate` is what the granule position counts: the stream's rate, 48 kHz for Opus
 * whatever its input rate was.
 */
export function oggDurationInTail(tail: Uint8Array, sampleRate: number): number | null {
  if (!(sampleRate > 0)) return null
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength)
  // The last "OggS" capture (version 0) whose granule position is set; -1 means no packet ends there.
  for (let i = tail.length - 27; i >= 0; i--) {
    if (tail[i] !== 0x4f || tail[i + 1] !== 0x67 || tail[i + 2] !== 0x67 || tail[i + 3] !== 0x53 || tail[i + 4] !== 0) continue
    const granule = view.getBigInt64(i + 6, true)
    if (granule > 0n) return Number(granule) / sampleRate
  }
  return null
}

/** The granule rate of an Ogg stream as music-metadata describes it. */
export const oggGranuleRate = (codec: string | undefined, sampleRate: number | undefined) => (codec === 'Opus' ? 48_000 : (sampleRate ?? 0))
