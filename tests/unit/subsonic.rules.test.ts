// The OpenSubsonic answer writer and password decoding (src/server/subsonic): one payload written
// as well-formed XML whatever a tag holds, and `enc:` passwords read as UTF-8 hex.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { element, errorResponse, okResponse, SubsonicError } from '~/server/subsonic/response'
import { childOf, childrenOf, parseXml } from '../helpers/xml'

// These modules read the configuration, which makes DATA_DIR: a temporary one, not ./data.
process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vibes-subsonic-unit-'))
const { decodePassword } = await import('~/server/subsonic/auth')
const { streamKind } = await import('~/server/subsonic/methods')

describe('XML writer', () => {
  test('scalars are attributes, value is text, arrays repeat, objects nest, null and undefined are left out', () => {
    const xml = parseXml(
      element('root', {
        a: 1,
        b: true,
        none: undefined,
        nothing: null,
        genre: [{ value: 'Rock', songCount: 2 }],
        versions: [1, 2],
        album: { id: 'x', song: [{ id: '1' }, { id: '2' }] },
      }),
    )
    expect(xml.attributes).toEqual({ a: '1', b: 'true' })
    expect(childOf(xml, 'genre')).toMatchObject({ text: 'Rock', attributes: { songCount: '2' } })
    expect(childrenOf(xml, 'versions').map((v) => v.text)).toEqual(['1', '2'])
    expect(childrenOf(childOf(xml, 'album'), 'song').map((s) => s.attributes.id)).toEqual(['1', '2'])
  })

  test('any tag text stays well-formed and reads back (control characters XML cannot hold are dropped)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const back = parseXml(element('song', { title: text, value: text }))
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 refuses
        const kept = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
        expect(back.attributes.title).toBe(kept)
        expect(back.text).toBe(kept)
      }),
      { seed: 20261124, numRuns: 200 },
    )
  }, 30_000)

  test('the envelope: ok and failed, XML and JSON', async () => {
    const ok = parseXml(await okResponse('xml', { ping: {} }).text())
    expect(ok.attributes).toMatchObject({ status: 'ok', version: '1.16.1', type: 'vibes', openSubsonic: 'true' })
    const failed = await errorResponse('json', new SubsonicError(40, 'Wrong username or password')).json()
    expect(failed['subsonic-response']).toMatchObject({ status: 'failed', openSubsonic: true, error: { code: 40, message: 'Wrong username or password' } })
  })
})

describe('enc: passwords', () => {
  test('hex of the UTF-8 bytes, any case; anything else is the password itself; bad hex is no password', () => {
    expect(decodePassword(`enc:${Buffer.from('sésame 🔑').toString('hex')}`)).toBe('sésame 🔑')
    expect(decodePassword('enc:414243')).toBe('ABC')
    expect(decodePassword('enc:4A4b')).toBe('JK')
    expect(decodePassword('plain')).toBe('plain')
    expect(decodePassword('enc:abc')).toBeNull()
    expect(decodePassword('enc:zz')).toBeNull()
  })
})

describe('what stream sends', () => {
  const row = (path: string, bitrate: number | null, mime = 'audio/mpeg') => ({ path, bitrate, mime }) as Parameters<typeof streamKind>[0]
  test('the file as it is, unless the browser-facing converter would convert it anyway', () => {
    expect(streamKind(row('a/x.mp3', 320), undefined, 0)).toBe('file')
    expect(streamKind(row('a/x.flac', 900, 'audio/flac'), undefined, 0)).toBe('file')
    expect(streamKind(row('a/x.wma', 192, 'audio/mpeg'), undefined, 0)).toBe('mp3')
    expect(streamKind(row('a/x.mkv', 2000, 'video/mp4'), undefined, 0)).toBe('mp4')
  })
  test('format=raw is always the original; format=mp3 converts anything but an MP3', () => {
    expect(streamKind(row('a/x.wma', 192), 'raw', 0)).toBe('file')
    expect(streamKind(row('a/x.flac', 900, 'audio/flac'), 'mp3', 0)).toBe('mp3')
    expect(streamKind(row('a/x.mp3', 320), 'mp3', 0)).toBe('file')
  })
  test('maxBitRate below the source picks the highest MP3 rate within it (MP3 sources too); a video keeps its rate', () => {
    expect(streamKind(row('a/x.flac', 900, 'audio/flac'), undefined, 128)).toBe('mp3-128')
    expect(streamKind(row('a/x.flac', 900, 'audio/flac'), undefined, 1000)).toBe('file')
    expect(streamKind(row('a/x.ogg', 160, 'audio/ogg'), undefined, 128)).toBe('mp3-128')
    expect(streamKind(row('a/x.mp3', 320), undefined, 96)).toBe('mp3-96')
    expect(streamKind(row('a/x.mp3', 320), undefined, 200)).toBe('mp3') // 192, the web player's copy
    expect(streamKind(row('a/x.mp3', 320), undefined, 320)).toBe('file')
    expect(streamKind(row('a/x.mp3', 320), undefined, 8)).toBe('mp3-64') // the lowest rate there is
    expect(streamKind(row('a/x.mp3', 64), undefined, 32)).toBe('file') // 64k would be no smaller
    expect(streamKind(row('a/x.mp3', null), undefined, 128)).toBe('mp3-128') // unknown: assumed richer
    expect(streamKind(row('a/x.mp4', 3000, 'video/mp4'), undefined, 128)).toBe('file')
    expect(streamKind(row('a/x.mkv', 3000, 'video/mp4'), undefined, 128)).toBe('mp4')
  })
  test('a file that must be converted is never converted above its own rate; format=mp3 and maxBitRate combine', () => {
    expect(streamKind(row('a/x.wma', 128), undefined, 320)).toBe('mp3-128')
    expect(streamKind(row('a/x.wma', 100), undefined, 320)).toBe('mp3-96')
    expect(streamKind(row('a/x.wma', 40), undefined, 320)).toBe('mp3-64') // converting anyway: the lowest rate
    expect(streamKind(row('a/x.flac', 900, 'audio/flac'), 'mp3', 96)).toBe('mp3-96')
    expect(streamKind(row('a/x.flac', 900, 'audio/flac'), 'mp3', 1000)).toBe('mp3-320')
    expect(streamKind(row('a/x.mp3', 320), 'mp3', 128)).toBe('mp3-128')
    expect(streamKind(row('a/x.flac', 900, 'audio/flac'), 'raw', 96)).toBe('file')
  })
})
