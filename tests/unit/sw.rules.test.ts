// The service worker's rules without a browser: which requests it answers (never the API, never a
// page from storage), the key of a downloaded file, and byte ranges of a stored file.
import { describe, expect, test } from 'bun:test'
import { answerFromBlob, downloadKey, offlineAnswer, parseRange, requestKind } from '~/client/pwa/sw-rules'

const ORIGIN = 'https://vibes.example'
const kind = (path: string, init: { method?: string; mode?: string; origin?: string } = {}) =>
  requestKind({ method: init.method ?? 'GET', mode: init.mode ?? 'cors', url: (init.origin ?? ORIGIN) + path }, ORIGIN)

describe('offlineAnswer', () => {
  test('with no downloads on the device, every page load with no network gets the static offline page', () => {
    for (const path of ['/', '/downloads', '/library/albums/a1', '/profile']) expect(offlineAnswer(ORIGIN + path, false)).toBe('offline-page')
  })
  test('with downloads, the downloads page is served at its own address and every other page is sent there', () => {
    expect(offlineAnswer(`${ORIGIN}/downloads`, true)).toBe('downloads-page')
    expect(offlineAnswer(`${ORIGIN}/downloads?x=1`, true)).toBe('downloads-page')
    for (const path of ['/', '/library/albums/a1', '/profile', '/downloads/x']) expect(offlineAnswer(ORIGIN + path, true)).toBe('to-downloads-page')
  })
})

describe('requestKind', () => {
  test('the API, tRPC, OpenSubsonic and metrics go to the network untouched, whatever the method or mode', () => {
    for (const path of ['/api/trpc/auth.status', '/api', '/api/user/folders', '/trpc/x', '/rest/ping.view?u=a', '/rest', '/metrics'])
      for (const mode of ['cors', 'navigate', 'no-cors']) expect({ path, mode, kind: kind(path, { mode }) }).toEqual({ path, mode, kind: 'network' })
  })

  test('pages are fetched (offline page on failure), build files come from the shell, media from downloads', () => {
    expect(kind('/library', { mode: 'navigate' })).toBe('page')
    expect(kind('/', { mode: 'navigate' })).toBe('page')
    expect(kind('/assets/main-abc123.js')).toBe('asset')
    expect(kind('/offline.html')).toBe('asset')
    expect(kind('/icons/icon-192.png')).toBe('asset')
    expect(kind('/media/A/B/01.mp3?exp=1&sig=x')).toBe('media')
  })

  test('anything else, other methods and other origins are left alone', () => {
    expect(kind('/media/A/01.mp3', { method: 'POST' })).toBe('network')
    expect(kind('/assets/x.js', { origin: 'https://cdn.example' })).toBe('network')
    expect(kind('/apiary')).toBe('network')
    expect(kind('/restaurant.png')).toBe('network')
    expect(kind('/promotions/charts.svg')).toBe('network')
  })
})

test('a download is keyed by its path: the signature and expiry are not part of it', () => {
  expect(downloadKey('/media/Low%20Sun/01.mp3?exp=100&sig=abc', ORIGIN)).toBe('/media/Low%20Sun/01.mp3')
  expect(downloadKey(`${ORIGIN}/media/Low%20Sun/01.mp3?exp=200&sig=def`, ORIGIN)).toBe('/media/Low%20Sun/01.mp3')
})

describe('byte ranges of a stored file', () => {
  test('parseRange', () => {
    expect(parseRange(null, 100)).toBeNull()
    expect(parseRange('bytes=0-', 100)).toEqual({ start: 0, end: 99 })
    expect(parseRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 })
    expect(parseRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 })
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 })
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 })
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable')
    expect(parseRange('bytes=20-10', 100)).toBe('unsatisfiable')
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable')
    // Several ranges or another unit: the whole file.
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull()
    expect(parseRange('items=0-1', 100)).toBeNull()
  })

  test('answerFromBlob: 200 whole, 206 with the part and its Content-Range, 416 past the end', async () => {
    const blob = new Blob([new Uint8Array(Array.from({ length: 100 }, (_, i) => i))])
    const whole = answerFromBlob(blob, 'audio/mpeg', null)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-length')).toBe('100')
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    const part = answerFromBlob(blob, 'audio/mpeg', 'bytes=10-14')
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe('bytes 10-14/100')
    expect(part.headers.get('content-type')).toBe('audio/mpeg')
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([10, 11, 12, 13, 14])
    const past = answerFromBlob(blob, 'audio/mpeg', 'bytes=100-')
    expect(past.status).toBe(416)
    expect(past.headers.get('content-range')).toBe('bytes */100')
  })
})

test("a file's embedded cover (same path, ?cover=1) and a transcoded copy are other files than the file itself", () => {
  const file = downloadKey('/media/A/01.mp3?exp=1&sig=a', ORIGIN)
  const cover = downloadKey('/media/A/01.mp3?cover=1&exp=1&sig=b', ORIGIN)
  const transcoded = downloadKey('/media/A/01.flac?t=mp3&exp=1&sig=c', ORIGIN)
  expect(file).toBe('/media/A/01.mp3')
  expect(cover).toBe('/media/A/01.mp3?cover=1')
  expect(transcoded).toBe('/media/A/01.flac?t=mp3')
  expect(downloadKey('/media/A/01.mp3?cover=1&exp=2&sig=z', ORIGIN)).toBe(cover)
})
