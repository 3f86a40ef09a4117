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
  mkdirSync(path.dirname(file), { recursive: true })
  const tmp = mkdtempSync(path.join(tmpdir(), 'vibes-apic-'))
  const audio = path.join(tmp, 'audio.mp3')
  ffmpeg('-f', 'lavfi', '-i', `sine=frequency=440:duration=${tags.seconds ?? 2}`, '-id3v2_version', '0', audio)
  const enc = new TextEncoder()
  const frame = (id: string, body: Uint8Array) => {
    const head = new Uint8Array(10)
    head.set(enc.encode(id), 0)
    new DataView(head.buffer).setUint32(4, body.length) // ID3v2.3 frame sizes are plain big-endian
    return concat([head, body])
  }
  // APIC: text encoding (0 = Latin-1), MIME type, NUL, picture type (3 = front cover), description, NUL, data.
  const frames = [frame('APIC', concat([new Uint8Array([0]), enc.encode(mime), new Uint8Array([0, 3]), enc.encode('Cover'), new Uint8Array([0]), picture]))]
  if (tags.title) frames.push(frame('TIT2', concat([new Uint8Array([0]), enc.encode(tags.title)])))
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
