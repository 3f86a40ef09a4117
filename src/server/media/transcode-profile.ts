// Pure rules of on-the-fly conversion (decision 025), no disk and no processes: which library
// files a browser cannot play, what the server sends instead (a profile: its MIME type and cache
// extension), the exact ffmpeg argument arrays, and which cached copies to evict. The only outside value in any argument list
// is the absolute path of a library file that resolveInside checked, passed as one argument with
// the `file:` protocol (so a name such as 'a;touch x.wma' or 'http:x.wma' is a file name, never
// a shell word or a URL) and `-protocol_whitelist file` (so a container cannot pull in
// anything but local files). Its format is never guessed from its content (libraryInput).
import { extensionOf, isMediaFileName } from '~/shared/player/mime'

/**
 * The MP3 bit rates (kbit/s) a conversion may have: a closed set, so a client's number reaches
 * ffmpeg only as one of these (decision 031, "maxBitRate"). 192 is plain `mp3`, the web player's.
 */
export const MP3_KBPS = [64, 96, 128, 160, 192, 256, 320] as const
export type Mp3Kbps = (typeof MP3_KBPS)[number]
const DEFAULT_MP3_KBPS = 192

/** `mp3` (192k), `mp3-<kbps>` at another rate of MP3_KBPS, or `mp4`. */
export type TranscodeProfile = 'mp3' | 'mp4' | `mp3-${Exclude<Mp3Kbps, 192>}`

const MP3 = { mime: 'audio/mpeg', ext: 'mp3' }
const RATED_MP3_PROFILES = MP3_KBPS.filter((kbps) => kbps !== DEFAULT_MP3_KBPS).map((kbps) => `mp3-${kbps}` as TranscodeProfile)

export const TRANSCODE_PROFILES: Readonly<Record<TranscodeProfile, { mime: string; ext: string }>> = {
  // MP3 plays in every browser (Safari included), streams without an index and starts at once.
  mp3: MP3,
  // Fragmented MP4 (H.264/AAC): written front to back to a pipe, played by every browser.
  mp4: { mime: 'video/mp4', ext: 'mp4' },
  ...(Object.fromEntries(RATED_MP3_PROFILES.map((profile) => [profile, MP3])) as Record<`mp3-${Exclude<Mp3Kbps, 192>}`, typeof MP3>),
}

export const isTranscodeProfile = (value: string | null): value is TranscodeProfile => value !== null && Object.hasOwn(TRANSCODE_PROFILES, value)

/** The MP3 profile at `kbps` (192 is plain `mp3`, so each rate has one name, one cache key). */
export const mp3Profile = (kbps: Mp3Kbps): TranscodeProfile => (kbps === DEFAULT_MP3_KBPS ? 'mp3' : `mp3-${kbps}`)

/** The bit rate of an MP3 profile (null for mp4). */
export function mp3KbpsOf(profile: TranscodeProfile): Mp3Kbps | null {
  if (profile === 'mp4') return null
  return profile === 'mp3' ? DEFAULT_MP3_KBPS : (Number(profile.slice(4)) as Mp3Kbps)
}

/**
 * The MP3 rate for a client's limit (`maxKbps`, 0 = none) and the source's rate (null = unknown,
 * counted as above any limit): the highest rate within both, the lowest rate when even that is
 * above the limit, or null — send the file as it is (or plain `mp3` when it must be converted) —
 * when there is no limit, the source is within it, or no rate would be smaller than the source.
 * `mustConvert`: the format needs converting anyway, so only "never above the source" applies.
 */
export function mp3KbpsFor(maxKbps: number, sourceKbps: number | null, mustConvert: boolean): Mp3Kbps | null {
  if (maxKbps <= 0) return null
  const source = sourceKbps ?? Number.POSITIVE_INFINITY
  if (!mustConvert && source <= maxKbps) return null
  const limit = Math.min(maxKbps, source)
  const kbps = MP3_KBPS.findLast((rate) => rate <= limit) ?? MP3_KBPS[0]
  return !mustConvert && kbps >= source ? null : kbps
}

// Accepted media extensions browsers cannot decode, plus library-only formats (never offered for local
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

/** Whether a file belongs in the server library: an accepted media file or one we can convert. */
export const isLibraryMediaName = (name: string) => isMediaFileName(name) || transcodeProfileFor(name) !== null

export const NEEDS_FFMPEG = 'needs ffmpeg'

/** Codecs a browser plays inside MP4 without conversion. */
const WEB_VIDEO = new Set(['h264'])
const WEB_AUDIO = new Set(['aac', 'mp3'])

export type StreamCodecs = { video: string | null; audio: string | null }

// The demuxer each library format is read with. Left to guess from the content, ffmpeg and
// ffprobe read an HLS playlist saved as song.wma as a playlist, and follow its file:// entries to
// files outside MEDIA_ROOT (the file protocol alone does not stop that). So the format is always
// named, from this table only; `-format_whitelist` with the same name also keeps any input a
// demuxer opens by itself to that format.
const DEMUXER_BY_EXTENSION: ReadonlyMap<string, string> = new Map([
  ['mp3', 'mp3'],
  ['wav', 'wav'],
  ['m4a', 'mov'],
  ['mp4', 'mov'],
  ['mov', 'mov'],
  ['aac', 'aac'],
  ['ogg', 'ogg'],
  ['ogv', 'ogg'],
  ['flac', 'flac'],
  ['wma', 'asf'],
  ['webm', 'matroska'],
  ['mkv', 'matroska'],
  ['mka', 'matroska'],
  ['avi', 'avi'],
  ['ape', 'ape'],
  ['wv', 'wv'],
  ['aiff', 'aiff'],
  ['aif', 'aiff'],
])

/**
 * The input part of an ffmpeg or ffprobe run on a checked library file (`-i` and what goes
 * before it): local files only, read as the format its extension names; null for a format
 * outside the table, which is then not read at all.
 */
export function libraryInput(absPath: string): string[] | null {
  const demuxer = DEMUXER_BY_EXTENSION.get(extensionOf(absPath))
  if (!demuxer) return null
  return ['-protocol_whitelist', 'file', '-format_whitelist', demuxer, '-f', demuxer, '-i', `file:${absPath}`]
}

/** ffprobe arguments that print the first video and audio codec names as JSON (null: see libraryInput). */
export function probeArgs(absPath: string): string[] | null {
  const input = libraryInput(absPath)
  return input && ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name', '-of', 'json', ...input]
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

/** ffmpeg's text for a whole number of milliseconds, in seconds ('6000' → '6.000'). */
const secondsText = (ms: number) => `${Math.floor(ms / 1000)}.${String(ms % 1000).padStart(3, '0')}`

/**
 * ffmpeg arguments (after the program name) that write `profile` to stdout, from `startMs`
 * milliseconds into the source (an input seek: `-ss` before `-i`, written here from the number).
 * MP3 at the profile's
 * rate (a number from MP3_KBPS, never the client's text). Video keeps each
 * stream that is already web-ready (copy) and converts the others: H.264 at most 720 lines high
 * (libx264 veryfast), AAC audio. Unknown codecs (no ffprobe) are converted. Null: a format
 * libraryInput does not read.
 */
export function ffmpegArgs(absPath: string, profile: TranscodeProfile, codecs: StreamCodecs = { video: null, audio: null }, startMs = 0): string[] | null {
  const source = libraryInput(absPath)
  if (!source || !Number.isSafeInteger(startMs) || startMs < 0) return null
  const seek = startMs > 0 ? ['-ss', secondsText(startMs)] : []
  // One thread each for decoding, filters and encoding: a conversion costs at most one core.
  const input = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-filter_threads', '1', '-threads', '1', ...seek, ...source]
  const kbps = mp3KbpsOf(profile)
  if (kbps !== null) return [...input, '-map', '0:a:0', '-vn', '-sn', '-dn', '-c:a', 'libmp3lame', '-b:a', `${kbps}k`, '-threads', '1', '-f', 'mp3', 'pipe:1']
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
    '-threads',
    '1',
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
