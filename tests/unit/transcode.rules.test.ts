// The pure rules of conversion (transcode-profile.ts): which files need it, what is sent instead,
// and the ffmpeg arguments — remux what is web-ready, convert the rest at most 720 lines high,
// and a library path only ever as one `file:` argument behind the protocol whitelist; and the
// caches' least-recently-used rule (cache-dir.ts).
import { describe, expect, test } from 'bun:test'
import { cacheEvictions } from '~/server/media/cache-dir'
import { mediaKindOf, mediaStartOf, signMediaUrl, verifyMediaSignature } from '~/server/media/sign'
import { resignMediaUrl } from '~/server/services/play-queue'
import {
  ffmpegArgs,
  isLibraryMediaName,
  isTranscodeProfile,
  MP3_KBPS,
  mp3Profile,
  parseProbe,
  probeArgs,
  transcodeProfileFor,
} from '~/server/media/transcode-profile'

describe('profiles', () => {
  test('formats the browser cannot play convert; the ones it plays do not', () => {
    for (const name of ['a.wma', 'B.WMA', 'c.ape', 'd.wv', 'e.aiff', 'f.aif', 'g.mka']) expect(transcodeProfileFor(name)).toBe('mp3')
    for (const name of ['a.avi', 'b.MKV']) expect(transcodeProfileFor(name)).toBe('mp4')
    for (const name of ['a.mp3', 'b.flac', 'c.ogg', 'd.m4a', 'e.wav', 'f.mp4', 'g.webm', 'h.mov', 'wma', 'x.wma.txt'])
      expect(transcodeProfileFor(name)).toBeNull()
  })

  test('library-only formats are indexed; other files are not', () => {
    expect(isLibraryMediaName('x.ape')).toBe(true)
    expect(isLibraryMediaName('x.mp3')).toBe(true)
    expect(isLibraryMediaName('cover.jpg')).toBe(false)
    expect(isLibraryMediaName('notes.txt')).toBe(false)
  })
})

describe('ffmpeg arguments', () => {
  const path = '/music/a;touch x $(id) `id`.wma'

  test('the path is one file: argument behind a file-only protocol whitelist, never stdin', () => {
    for (const args of [ffmpegArgs(path, 'mp3')!, ffmpegArgs(path, 'mp4')!, probeArgs(path)!]) {
      expect(args.filter((a) => a.includes(path))).toEqual([`file:${path}`])
      expect(args[args.indexOf('-protocol_whitelist') + 1]).toBe('file')
      expect(args.indexOf('-protocol_whitelist')).toBeLessThan(args.indexOf(`file:${path}`))
    }
    expect(ffmpegArgs(path, 'mp3')!).toContain('-nostdin')
    expect(ffmpegArgs(path, 'mp3')!.at(-1)).toBe('pipe:1')
  })

  test('the input format is named by the extension, never guessed: an HLS playlist saved as .wma is read as ASF', () => {
    const demuxerOf = (args: string[]) => ({ f: args[args.indexOf('-f') + 1], whitelist: args[args.indexOf('-format_whitelist') + 1] })
    for (const [name, demuxer] of [
      ['/m/a.wma', 'asf'],
      ['/m/a.MKV', 'matroska'],
      ['/m/a.webm', 'matroska'],
      ['/m/a.m4a', 'mov'],
      ['/m/a.aac', 'aac'],
      ['/m/a.aif', 'aiff'],
      ['/m/a.ogv', 'ogg'],
    ]) {
      for (const args of [ffmpegArgs(name, 'mp3')!, probeArgs(name)!]) {
        expect(demuxerOf(args)).toEqual({ f: demuxer, whitelist: demuxer })
        expect(args.indexOf('-f')).toBeLessThan(args.indexOf('-i'))
      }
    }
    for (const name of ['/m/a.m3u8', '/m/a.txt', '/m/noext', '/m/a.wma.m3u8']) {
      expect(ffmpegArgs(name, 'mp3')).toBeNull()
      expect(probeArgs(name)).toBeNull()
    }
  })

  test('audio: MP3 to stdout, cover pictures dropped', () => {
    const args = ffmpegArgs(path, 'mp3')!
    expect(args.join(' ')).toContain('-vn')
    expect(args.join(' ')).toContain('-c:a libmp3lame')
    expect(args.join(' ')).toContain('-f mp3 pipe:1')
  })

  test('MP3 rates: plain mp3 is 192k (the web player), each other rate of the closed set its own profile; nothing else is one', () => {
    const rateOf = (args: string[]) => args[args.indexOf('-b:a') + 1]
    expect(rateOf(ffmpegArgs(path, 'mp3')!)).toBe('192k')
    for (const kbps of MP3_KBPS) {
      const profile = mp3Profile(kbps)
      expect(isTranscodeProfile(profile)).toBe(true)
      expect(rateOf(ffmpegArgs(path, profile)!)).toBe(`${kbps}k`)
    }
    expect(mp3Profile(192)).toBe('mp3')
    for (const other of ['mp3-192', 'mp3-100', 'mp3-96k', 'mp3-', 'mp3-0', 'MP3-96', 'toString', '__proto__', 'constructor', ''])
      expect(isTranscodeProfile(other)).toBe(false)
  })

  test('video: web-ready streams are copied, others converted (H.264 ≤ 720 lines, AAC), always fragmented MP4', () => {
    const remux = ffmpegArgs(path, 'mp4', { video: 'h264', audio: 'aac' })!.join(' ')
    expect(remux).toContain('-c:v copy')
    expect(remux).toContain('-c:a copy')
    expect(remux).not.toContain('libx264')
    const convert = ffmpegArgs(path, 'mp4', { video: 'mpeg4', audio: 'wmav2' })!.join(' ')
    expect(convert).toContain('-c:v libx264')
    expect(convert).toContain("scale=-2:'min(720,ih)'")
    expect(convert).toContain('-force_key_frames expr:gte(t,n_forced*2)')
    expect(convert).toContain('-c:a aac')
    const unknown = ffmpegArgs(path, 'mp4')!.join(' ')
    expect(unknown).toContain('-c:v libx264')
    expect(unknown).toContain('-c:a aac')
    for (const args of [remux, convert, unknown])
      expect(args).toContain('-movflags frag_keyframe+empty_moov+default_base_moof -frag_duration 500000 -f mp4 pipe:1')
  })

  test('a start offset is an input seek (-ss before -i) written from the number; nothing else changes', () => {
    for (const profile of ['mp3', 'mp3-96', 'mp4'] as const) {
      const plain = ffmpegArgs(path, profile)!
      const seeking = ffmpegArgs(path, profile, undefined, 6000)!
      const at = seeking.indexOf('-ss')
      expect(seeking[at + 1]).toBe('6.000')
      expect(at).toBeLessThan(seeking.indexOf('-i'))
      expect(seeking.toSpliced(at, 2)).toEqual(plain)
      expect(seeking.filter((a) => a === '-threads')).toHaveLength(2)
    }
    for (const [ms, text] of [
      [5, '0.005'],
      [6500, '6.500'],
      [123_456, '123.456'],
    ] as const)
      expect(ffmpegArgs(path, 'mp3', undefined, ms)![ffmpegArgs(path, 'mp3', undefined, ms)!.indexOf('-ss') + 1]).toBe(text)
    expect(ffmpegArgs(path, 'mp3', undefined, 0)).toEqual(ffmpegArgs(path, 'mp3'))
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(ffmpegArgs(path, 'mp3', undefined, bad)).toBeNull()
  })

  test('ffprobe output: first video and audio codec; garbage is unknown', () => {
    const json = JSON.stringify({
      streams: [
        { codec_type: 'audio', codec_name: 'mp3' },
        { codec_type: 'video', codec_name: 'mpeg4' },
        { codec_type: 'audio', codec_name: 'aac' },
      ],
    })
    expect(parseProbe(json)).toEqual({ video: 'mpeg4', audio: 'mp3' })
    expect(parseProbe('not json')).toEqual({ video: null, audio: null })
    expect(parseProbe('{}')).toEqual({ video: null, audio: null })
  })
})

describe('converted stream URLs', () => {
  const secret = 'x'.repeat(32)
  const now = 1_800_000_000

  test('the profile is signed: the same path as the file itself or as another profile does not verify', () => {
    const url = new URL(signMediaUrl(secret, 'old/a;b.wma', 'mp3', now), 'http://x')
    expect(url.pathname).toBe('/media/old/a%3Bb.wma')
    expect(url.searchParams.get('t')).toBe('mp3')
    const [exp, sig] = [url.searchParams.get('exp'), url.searchParams.get('sig')]
    expect(mediaKindOf(url.searchParams)).toBe('mp3')
    expect(verifyMediaSignature(secret, 'old/a;b.wma', 'mp3', exp, sig, now)).toBe('ok')
    expect(verifyMediaSignature(secret, 'old/a;b.wma', 'mp4', exp, sig, now)).toBe('invalid')
    expect(verifyMediaSignature(secret, 'old/a;b.wma', 'file', exp, sig, now)).toBe('invalid')
  })

  test('a start offset is signed with the kind: another, none or one added does not verify; URLs without one sign as before', () => {
    const url = new URL(signMediaUrl(secret, 'old/a.wma', 'mp3', now, undefined, 6000), 'http://x')
    expect(url.searchParams.get('start')).toBe('6000')
    const [exp, sig] = [url.searchParams.get('exp'), url.searchParams.get('sig')]
    expect(mediaStartOf(url.searchParams, 'mp3')).toBe(6000)
    expect(verifyMediaSignature(secret, 'old/a.wma', 'mp3', exp, sig, now, 6000)).toBe('ok')
    expect(verifyMediaSignature(secret, 'old/a.wma', 'mp3', exp, sig, now, 1000)).toBe('invalid')
    expect(verifyMediaSignature(secret, 'old/a.wma', 'mp3', exp, sig, now)).toBe('invalid')
    const plain = new URL(signMediaUrl(secret, 'old/a.wma', 'mp3', now), 'http://x')
    expect(plain.searchParams.has('start')).toBe(false)
    expect(verifyMediaSignature(secret, 'old/a.wma', 'mp3', plain.searchParams.get('exp'), plain.searchParams.get('sig'), now, 6000)).toBe('invalid')
    expect(mediaStartOf(new URLSearchParams(''), 'mp3')).toBe(0)
    for (const bad of ['0', '-1', '1.5', '6e3', '0x10', ' 6', '1234567890', '']) expect(mediaStartOf(new URLSearchParams({ start: bad }), 'mp3')).toBeNull()
    for (const kind of ['file', 'cover'] as const) expect(mediaStartOf(new URLSearchParams('start=6000'), kind)).toBeNull()
  })

  test('query kinds: cover, a known profile, the file itself; an unknown profile is none', () => {
    expect(mediaKindOf(new URLSearchParams('cover=1'))).toBe('cover')
    expect(mediaKindOf(new URLSearchParams('t=mp4'))).toBe('mp4')
    expect(mediaKindOf(new URLSearchParams('exp=1'))).toBe('file')
    expect(mediaKindOf(new URLSearchParams('t=flac'))).toBeNull()
    expect(mediaKindOf(new URLSearchParams('t=constructor'))).toBeNull()
  })

  test('a saved queue renews a converted URL as a converted URL', () => {
    const old = signMediaUrl(secret, 'old/a.wma', 'mp3', 1000)
    const renewed = new URL(resignMediaUrl(secret, old), 'http://x')
    expect(renewed.searchParams.get('t')).toBe('mp3')
    expect(Number(renewed.searchParams.get('exp'))).toBeGreaterThan(Date.now() / 1000)
  })
})

describe('cache eviction', () => {
  const now = 10 * 86_400_000
  const mb = 1024 * 1024
  const f = (file: string, size: number, used: number) => ({ file, size: size * mb, used })

  test('least recently used go first until the rest fit; the copy just made stays', () => {
    const files = [f('new.mp3', 40, now), f('old.mp3', 30, now - 3000), f('mid.mp3', 30, now - 2000), f('recent.mp4', 30, now - 1000)]
    expect(cacheEvictions(files, { limit: 90 * mb, keep: 'new.mp3', now })).toEqual(['old.mp3', 'mid.mp3'])
    expect(cacheEvictions(files, { limit: 200 * mb, keep: 'new.mp3', now })).toEqual([])
    // Even when it alone is over the cap, the copy just made is not thrown away.
    expect(cacheEvictions([f('new.mp3', 300, now)], { limit: 100 * mb, keep: 'new.mp3', now })).toEqual([])
  })

  test('a partial copy being written stays; one a day old is left over from a crash and goes', () => {
    const files = [f('a.mp3.1-x.part', 500, now - 60_000), f('b.mp3.2-y.part', 5, now - 2 * 86_400_000), f('c.mp3', 10, now - 5000)]
    expect(cacheEvictions(files, { limit: 1000 * mb, keep: 'z', now })).toEqual(['b.mp3.2-y.part'])
    expect(cacheEvictions(files, { limit: 100 * mb, keep: 'z', now })).toEqual(['b.mp3.2-y.part', 'c.mp3'])
  })
})
