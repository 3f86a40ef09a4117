// Tiny media fixtures made with ffmpeg (installed by .ci/run): tagged tones, optionally with
// embedded cover art.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export type ToneTags = { title?: string; artist?: string; album?: string; genre?: string; year?: number; seconds?: number; cover?: boolean; frequency?: number }

function ffmpeg(args: string[]) {
  const r = Bun.spawnSync(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', ...args], { stderr: 'pipe' })
  if (r.exitCode !== 0) throw new Error(`ffmpeg failed: ${r.stderr.toString()}`)
}

/** Writes an MP3/WAV/M4A/OGG tone (format from the extension) with the given tags. */
export function makeTone(file: string, tags: ToneTags = {}) {
  mkdirSync(path.dirname(file), { recursive: true })
  const seconds = tags.seconds ?? 3
  const meta: string[] = []
  for (const [k, v] of Object.entries({ title: tags.title, artist: tags.artist, album: tags.album, genre: tags.genre, date: tags.year })) if (v !== undefined) meta.push('-metadata', `${k}=${v}`)
  const input = ['-f', 'lavfi', '-i', `sine=frequency=${tags.frequency ?? 440}:duration=${seconds}`]
  if (tags.cover && file.endsWith('.mp3')) {
    const tmp = mkdtempSync(path.join(tmpdir(), 'vibes-cover-'))
    const cover = path.join(tmp, 'cover.png')
    ffmpeg(['-f', 'lavfi', '-i', 'color=c=purple:s=32x32', '-frames:v', '1', cover])
    ffmpeg([...input, '-i', cover, '-map', '0:a', '-map', '1:v', '-c:v', 'png', '-id3v2_version', '3', '-metadata:s:v', 'comment=Cover (front)', ...meta, file])
    rmSync(tmp, { recursive: true, force: true })
    return
  }
  ffmpeg([...input, '-ac', '1', '-ar', '22050', ...meta, file])
}
