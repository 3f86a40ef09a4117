// The length of an AVI file from its main header. music-metadata does not read AVI, and an .avi
// plays converted (a chunked stream whose length the browser learns only at its end), so the
// index's duration is what the player's seek bar and the OpenSubsonic apps show.

/** The RIFF headers sit at the start; their lists hold a few kilobytes. */
const HEAD_BYTES = 64 * 1024

const fourCc = (bytes: Uint8Array, at: number, code: string) =>
  bytes[at] === code.charCodeAt(0) && bytes[at + 1] === code.charCodeAt(1) && bytes[at + 2] === code.charCodeAt(2) && bytes[at + 3] === code.charCodeAt(3)

function chunkAt(bytes: Uint8Array, code: string): number {
  for (let i = 12; i + 8 <= bytes.length; i++) if (fourCc(bytes, i, code)) return i
  return -1
}

/**
 * Seconds: microseconds per frame times the frame count of the `avih` header, or of the OpenDML
 * `dmlh` header when larger (`avih` counts only the first gigabyte of a large file). Null when the
 * file is no AVI or its header says nothing.
 */
export async function aviDurationFromHeader(file: string): Promise<number | null> {
  const bytes = new Uint8Array(await Bun.file(file).slice(0, HEAD_BYTES).arrayBuffer())
  if (bytes.length < 12 || !fourCc(bytes, 0, 'RIFF') || !fourCc(bytes, 8, 'AVI ')) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const avih = chunkAt(bytes, 'avih')
  if (avih < 0 || avih + 8 + 20 > bytes.length) return null
  const microsPerFrame = view.getUint32(avih + 8, true)
  const dmlh = chunkAt(bytes, 'dmlh')
  // Writers that reserve `dmlh` may leave it 0 for a small file: the larger count is the file's.
  const frames = Math.max(view.getUint32(avih + 8 + 16, true), dmlh >= 0 && dmlh + 12 <= bytes.length ? view.getUint32(dmlh + 8, true) : 0)
  const seconds = (microsPerFrame * frames) / 1e6
  return seconds > 0 && Number.isFinite(seconds) ? seconds : null
}
