// Pure rules of on-the-fly conversion (decision 025), no disk and no processes: which library
// files a browser cannot play, what the server sends instead (a profile: its MIME type and cache
// extension), the exact ffmpeg argument arrays, and which cached copies to evict. The only outside value in any argument list
// is the absolute path of a library file that resolveInside checked, passed as one argument with
// the `file:` protocol (so a name such as 'a;touch x.wma' or 'http:x.wma' is a file name, never
// a shell word or a URL) and `-protocol_whitelist file` (so a container cannot pull in
// anything but local files).
import { extensionOf, isMediaFileName } from '~/shared/player/mime'

export type TranscodeProfile = 'mp3' | 'mp4'

export const TRANSCODE_PROFILES: Readonly<Record<TranscodeProfile, { mime: string; ext: string }>> = {
  // MP3 plays in every browser (Safari included), streams without an index and starts at once.
  mp3: { mime: 'audio/mpeg', ext: 'mp3' },
  // Fragmented MP4 (H.264/AAC): written front to back to a pipe, played by every browser.
  mp4: { mime: 'video/mp4', ext: 'mp4' },
}

export const isTranscodeProfile = (value: string | null): value is TranscodeProfile => value === 'mp3' || value === 'mp4'

// Spec extensions browsers cannot decode, plus library-only formats (never offered for local
// folders, which the browser plays itself).
const PROFILE_BY_EXTENSION: ReadonlyMap<string, TranscodeProfile> = new Map([
  ['wma', 'mp3'],
  ['ape', 'mp3'],
  ['wv', 'mp3'],
  ['aiff', 'mp3'],
  ['aif', 'mp3'],
  ['mka', 'mp3'],
  ['avi', 'mp4'],
  ['mkv', 'mp4'],
])

/** The profile a library file is streamed in, or null when the browser plays it as it is. */
export function transcodeProfileFor(name: string): TranscodeProfile | null {
  return PROFILE_BY_EXTENSION.get(extensionOf(name)) ?? null
}

/** Whether a file belongs in the server library: a spec media file or one we can convert. */
export const isLibraryMediaName = (name: string) => isMediaFileName(name) || transcodeProfileFor(name) !== null

export const NEEDS_FFMPEG = 'needs ffmpeg'

/** Codecs a browser plays inside MP4 without conversion. */
const WEB_VIDEO = new Set(['h264'])
const WEB_AUDIO = new Set(['aac', 'mp3'])

export type StreamCodecs = { video: string | null; audio: string | null }

const INPUT_FLAGS = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-protocol_whitelist', 'file']

/** ffprobe arguments that print the first video and audio codec names as JSON. */
export function probeArgs(absPath: string): string[] {
  return ['-v', 'error', '-protocol_whitelist', 'file', '-show_entries', 'stream=codec_type,codec_name', '-of', 'json', `file:${absPath}`]
}

/** ffprobe's JSON → the first video and audio codec (null when absent or unreadable). */
export function parseProbe(json: string): StreamCodecs {
  try {
    const streams = (JSON.parse(json) as { streams?: Array<{ codec_type?: string; codec_name?: string }> }).streams ?? []
    const first = (type: string) => streams.find((s) => s.codec_type === type)?.codec_name ?? null
    return { video: first('video'), audio: first('audio') }
  } catch {
    return { video: null, audio: null }
  }
}

/**
 * ffmpeg arguments (after the program name) that write `profile` to stdout. Video keeps each
 * stream that is already web-ready (copy) and converts the others: H.264 at most 720 lines high
 * (libx264 veryfast), AAC audio. Unknown codecs (no ffprobe) are converted.
 */
export function ffmpegArgs(absPath: string, profile: TranscodeProfile, codecs: StreamCodecs = { video: null, audio: null }): string[] {
  const input = [...INPUT_FLAGS, '-i', `file:${absPath}`]
  if (profile === 'mp3') return [...input, '-map', '0:a:0', '-vn', '-sn', '-dn', '-c:a', 'libmp3lame', '-b:a', '192k', '-f', 'mp3', 'pipe:1']
  const video =
    codecs.video && WEB_VIDEO.has(codecs.video)
      ? ['-c:v', 'copy']
      : // A keyframe every 2 s: fragments end at keyframes, and x264's default GOP (250 frames)
        // would hold the first playable fragment back for ~10 s of encoding.
        [
          '-vf',
          "scale=-2:'min(720,ih)'",
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-crf',
          '23',
          '-pix_fmt',
          'yuv420p',
          '-force_key_frames',
          'expr:gte(t,n_forced*2)',
        ]
  const audio = codecs.audio && WEB_AUDIO.has(codecs.audio) ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '160k', '-ac', '2']
  return [
    ...input,
    '-map',
    '0:v:0?',
    '-map',
    '0:a:0?',
    '-sn',
    '-dn',
    ...video,
    ...audio,
    '-movflags',
    'frag_keyframe+empty_moov+default_base_moof',
    // Half-second fragments: the browser gets playable data without waiting for a keyframe.
    '-frag_duration',
    '500000',
    '-f',
    'mp4',
    'pipe:1',
  ]
}

export type CachedFile = { file: string; size: number /** Last use (ms): the file's mtime, touched on each hit. */; used: number }

const STALE_PART_MS = 24 * 3600_000

/**
 * The cached copies to delete: least recently used first until the rest fit `limit` (never
 * `keep`, the copy just made, nor a `.part` being written), and any `.part` a day old — what a
 * crash or a kill -9 left behind.
 */
export function cacheEvictions(files: CachedFile[], opts: { limit: number; keep: string; now: number }): string[] {
  const out: string[] = []
  let total = files.reduce((sum, f) => sum + f.size, 0)
  for (const f of [...files].sort((a, b) => a.used - b.used)) {
    if (f.file.endsWith('.part')) {
      if (opts.now - f.used > STALE_PART_MS) {
        out.push(f.file)
        total -= f.size
      }
      continue
    }
    if (total <= opts.limit || f.file === opts.keep) continue
    out.push(f.file)
    total -= f.size
  }
  return out
}
