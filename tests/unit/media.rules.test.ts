// Pure rules of /media: path decoding, range parsing, signatures.
import { describe, expect, test } from 'bun:test'
import { mediaPathOf, parseRange } from '~/server/media/request-rules'
import { encodeMediaPath, signMediaUrl, verifyMediaSignature } from '~/server/media/sign'

describe('media paths', () => {
  test('decodes segments and refuses dot segments, encoded slashes, NUL and empty segments', () => {
    expect(mediaPathOf('/media/music/My%20Song.mp3')).toBe('music/My Song.mp3')
    expect(mediaPathOf('/media/a/%252e%252e/b.mp3')).toBe('a/%2e%2e/b.mp3')
    for (const bad of [
      '/media/../x.mp3',
      '/media/%2e%2e/x.mp3',
      '/media/a/%2E%2E/x',
      '/media/..%2fx.mp3',
      '/media/a%2Fb.mp3',
      '/media/a%00.mp3',
      '/media/a//b.mp3',
      '/media/',
      '/media/%E0%A4%A',
    ])
      expect(mediaPathOf(bad)).toBeNull()
  })
})

describe('ranges', () => {
  test('single ranges, suffixes, open ends; unsatisfiable; ignored forms', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 })
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 })
    expect(parseRange('bytes=990-5000', 1000)).toEqual({ start: 990, end: 999 })
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable')
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable')
    expect(parseRange('bytes=5-1', 1000)).toBeNull()
    expect(parseRange('bytes=0-1,5-6', 1000)).toBeNull()
    expect(parseRange('items=0-1', 1000)).toBeNull()
    expect(parseRange(null, 1000)).toBeNull()
  })
})

describe('signatures', () => {
  const secret = 's'.repeat(40)
  const parts = (url: string) => {
    const u = new URL(url, 'http://x')
    return [u.searchParams.get('exp'), u.searchParams.get('sig')] as const
  }
  test('valid for the signed path and kind only, until it expires', () => {
    const now = 1_800_000_000
    const url = signMediaUrl(secret, 'a b/c.mp3', 'file', now)
    expect(url.startsWith('/media/a%20b/c.mp3?exp=')).toBe(true)
    const [exp, sig] = parts(url)
    expect(Number(exp)).toBeGreaterThanOrEqual(now + 24 * 3600)
    expect(verifyMediaSignature(secret, 'a b/c.mp3', 'file', exp, sig, now)).toBe('ok')
    expect(verifyMediaSignature(secret, 'a b/d.mp3', 'file', exp, sig, now)).toBe('invalid')
    expect(verifyMediaSignature(secret, 'a b/c.mp3', 'cover', exp, sig, now)).toBe('invalid')
    expect(verifyMediaSignature('t'.repeat(40), 'a b/c.mp3', 'file', exp, sig, now)).toBe('invalid')
    expect(verifyMediaSignature(secret, 'a b/c.mp3', 'file', String(Number(exp) + 1), sig, now)).toBe('invalid')
    expect(verifyMediaSignature(secret, 'a b/c.mp3', 'file', exp, sig, Number(exp) + 1)).toBe('expired')
    expect(verifyMediaSignature(secret, 'a b/c.mp3', 'file', null, null, now)).toBe('missing')
  })

  test('a signature already found valid (remembered) still holds only for its path, kind, secret and time', () => {
    const now = 1_800_000_000
    const [exp, sig] = parts(signMediaUrl(secret, 'x/y.mp3', 'file', now))
    for (let i = 0; i < 3; i++) expect(verifyMediaSignature(secret, 'x/y.mp3', 'file', exp, sig, now)).toBe('ok')
    expect(verifyMediaSignature(secret, 'x/y.mp3\0', 'file', exp, sig, now)).toBe('invalid')
    expect(verifyMediaSignature(secret, 'x/y.mp', 'file', exp, sig, now)).toBe('invalid')
    expect(verifyMediaSignature(secret, 'x/y.mp3', 'mp3-128', exp, sig, now)).toBe('invalid')
    expect(verifyMediaSignature(`${secret}x`, 'x/y.mp3', 'file', exp, sig, now)).toBe('invalid')
    expect(verifyMediaSignature(secret, 'x/y.mp3', 'file', exp, `${sig}A`, now)).toBe('invalid')
    expect(verifyMediaSignature(secret, 'x/y.mp3', 'file', exp, sig?.slice(1) ?? null, now)).toBe('invalid')
    expect(verifyMediaSignature(secret, 'x/y.mp3', 'file', exp, sig, Number(exp) + 1)).toBe('expired')
  })
  test('each signature is the HMAC of its own secret, however the secrets alternate', () => {
    const now = 1_800_000_000
    const hmac = (key: string, text: string) => new Bun.CryptoHasher('sha256', key).update(text).digest('base64url')
    for (const key of [secret, 't'.repeat(40), secret, 'u'.repeat(40), secret]) {
      for (const p of ['a/b.mp3', 'c d/é.flac']) {
        const [exp, sig] = parts(signMediaUrl(key, p, 'cover', now))
        expect(sig).toBe(hmac(key, `cover\n${exp}\n${p}`))
      }
    }
  })

  test('a media path is encoded segment by segment: only its separators stay slashes', () => {
    for (const p of ['a b/c#?.mp3', 'x%2Fy/z.mp3', 'ü/%2f/100%.mp3', 'plain/path.mp3', "it's (live)/[1] & more+.ogg"])
      expect(encodeMediaPath(p)).toBe(p.split('/').map(encodeURIComponent).join('/'))
  })
})
