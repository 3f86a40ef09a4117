// Tiny media fixtures made with ffmpeg (installed by .ci/run): tagged tones, optionally with
// embedded cover art.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export type ToneTags = {
  title?: string
  artist?: string
  album?: string
  genre?: string
  year?: number
  seconds?: number
  cover?: boolean
  frequency?: number
  metadata?: Record<string, string>
}

/** Runs ffmpeg quietly, overwriting the output; throws with its error output when it fails. */
export function ffmpeg(...args: string[]) {
  const r = Bun.spawnSync(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', ...args], { stderr: 'pipe' })
  if (r.exitCode !== 0) throw new Error(`ffmpeg failed: ${r.stderr.toString()}`)
}

/** Writes an MP3/WAV/M4A/OGG tone (format from the extension) with the given tags. */
export function makeTone(file: string, tags: ToneTags = {}) {
  mkdirSync(path.dirname(file), { recursive: true })
  const seconds = tags.seconds ?? 3
  const meta: string[] = []
  for (const [k, v] of Object.entries({ title: tags.title, artist: tags.artist, album: tags.album, genre: tags.genre, date: tags.year, ...tags.metadata }))
    if (v !== undefined) meta.push('-metadata', `${k}=${v}`)
  const input = ['-f', 'lavfi', '-i', `sine=frequency=${tags.frequency ?? 440}:duration=${seconds}`]
  if (tags.cover && file.endsWith('.mp3')) {
    const tmp = mkdtempSync(path.join(tmpdir(), 'vibes-cover-'))
    const cover = path.join(tmp, 'cover.png')
    ffmpeg('-f', 'lavfi', '-i', 'color=c=purple:s=32x32', '-frames:v', '1', cover)
    ffmpeg(...input, '-i', cover, '-map', '0:a', '-map', '1:v', '-c:v', 'png', '-id3v2_version', '3', '-metadata:s:v', 'comment=Cover (front)', ...meta, file)
    rmSync(tmp, { recursive: true, force: true })
    return
  }
  ffmpeg(...input, '-ac', '1', '-ar', '22050', ...meta, file)
}

/**
 * An MP3 tone whose ID3v2.3 APIC frame (the embedded picture) carries `picture` under the MIME
 * type `mime`, whatever the bytes are: how a hostile file labels an HTML page as its cover. The
 * tag is written here byte by byte because ffmpeg derives the APIC type from the codec.
 */
export function makeToneWithPicture(file: string, mime: string, picture: Uint8Array, tags: { title?: string; seconds?: number } = {}) {
  // APIC: text encoding (0 = Latin-1), MIME type, NUL, picture type (3 = front cover), description, NUL, data.
  const frames = [id3Frame('APIC', concat([new Uint8Array([0]), enc.encode(mime), new Uint8Array([0, 3]), enc.encode('Cover'), new Uint8Array([0]), picture]))]
  if (tags.title) frames.push(id3Frame('TIT2', concat([new Uint8Array([0]), enc.encode(tags.title)])))
  writeToneWithId3(file, frames, tags.seconds)
}

/**
 * An MP3 tone with lyrics in real ID3v2.3 USLT (unsynchronised, one text) and SYLT (synchronised:
 * [ms, text] pairs) frames, as taggers write them; ffmpeg writes `-metadata lyrics=` to MP3 as a
 * TXXX frame instead. Latin-1 text only.
 */
export function makeToneWithLyrics(
  file: string,
  tags: { title: string; artist: string; uslt?: { lang: string; text: string }; sylt?: { lang: string; lines: [number, string][] } },
) {
  const latin1 = (text: string) => concat([new Uint8Array([0]), enc.encode(text)])
  const frames = [id3Frame('TIT2', latin1(tags.title)), id3Frame('TPE1', latin1(tags.artist))]
  // USLT: encoding, language (3 bytes), descriptor, NUL, text.
  if (tags.uslt) frames.push(id3Frame('USLT', concat([new Uint8Array([0]), enc.encode(tags.uslt.lang), new Uint8Array([0]), enc.encode(tags.uslt.text)])))
  if (tags.sylt) {
    // SYLT: encoding, language, time format (2 = milliseconds), content type (1 = lyrics), descriptor, NUL, then text NUL + 32-bit time per line.
    const lines = tags.sylt.lines.map(([ms, text]) => {
      const time = new Uint8Array(4)
      new DataView(time.buffer).setUint32(0, ms)
      return concat([enc.encode(text), new Uint8Array([0]), time])
    })
    frames.push(id3Frame('SYLT', concat([new Uint8Array([0]), enc.encode(tags.sylt.lang), new Uint8Array([2, 1, 0]), ...lines])))
  }
  writeToneWithId3(file, frames)
}

const enc = new TextEncoder()
function id3Frame(id: string, body: Uint8Array) {
  const head = new Uint8Array(10)
  head.set(enc.encode(id), 0)
  new DataView(head.buffer).setUint32(4, body.length) // ID3v2.3 frame sizes are plain big-endian
  return concat([head, body])
}

/** A tone with no tags of ffmpeg's, behind an ID3v2.3 tag of the given frames. */
function writeToneWithId3(file: string, frames: Uint8Array[], seconds = 2) {
  mkdirSync(path.dirname(file), { recursive: true })
  const tmp = mkdtempSync(path.join(tmpdir(), 'vibes-id3-'))
  const audio = path.join(tmp, 'audio.mp3')
  ffmpeg('-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-id3v2_version', '0', audio)
  const body = concat(frames)
  // The tag size is "syncsafe": 7 bits per byte.
  const size = body.length
  const header = new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f])
  writeFileSync(file, concat([header, body, new Uint8Array(readFileSync(audio))]))
  rmSync(tmp, { recursive: true, force: true })
}

/** A small solid-colour image (JPEG, PNG… by the extension), such as a folder's cover.jpg. */
export function makeImage(file: string, color = 'red') {
  mkdirSync(path.dirname(file), { recursive: true })
  ffmpeg('-f', 'lavfi', '-i', `color=c=${color}:s=16x16`, '-frames:v', '1', file)
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
