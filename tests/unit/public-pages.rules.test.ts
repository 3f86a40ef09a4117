import { describe, expect, test } from 'bun:test'
import { shapeFeed } from '~/server/services/charts-feed'
import { deriveSubject, SUBJECT_MAX } from '~/server/services/contact'
import { visitorHash } from '~/server/services/hits'
import { countVisit } from '~/client/features/layout/page-visits'
import { pageKey } from '~/shared/page-key'
import { REGIONS, isRegionCode } from '~/shared/regions'
import { ChartsRegionSchema, PageHitSchema } from '~/shared/validators'
import { safeArtUrl } from '~/shared/validators/charts'

describe('contact subject', () => {
  test('is the first sentence of the first line', () => {
    expect(deriveSubject('Love the app. One question about folders though.')).toBe('Love the app.')
    expect(deriveSubject('Where are my likes?\nI liked three songs yesterday.')).toBe('Where are my likes?')
    expect(deriveSubject('  Playback stops   after two tracks  ')).toBe('Playback stops after two tracks')
    expect(deriveSubject('Version 1.2 is great')).toBe('Version 1.2 is great')
  })

  test('long lines are cut on a word with an ellipsis, never over the limit', () => {
    const s = deriveSubject('The remote folder on my NAS loads fine on the laptop but on the phone it shows nothing at all')
    expect(s.endsWith('…')).toBe(true)
    expect(s.length).toBeLessThanOrEqual(SUBJECT_MAX)
    expect(s).toBe('The remote folder on my NAS loads fine on the laptop but…')
    const word = deriveSubject('x'.repeat(200))
    expect(word).toBe(`${'x'.repeat(SUBJECT_MAX - 1)}…`)
    // Cut in characters as shown: never half an emoji (a lone surrogate) or half a family emoji.
    expect(deriveSubject('🎵'.repeat(100))).toBe(`${'🎵'.repeat(SUBJECT_MAX - 1)}…`)
    expect(deriveSubject('👨‍👩‍👧'.repeat(100))).toBe(`${'👨‍👩‍👧'.repeat(SUBJECT_MAX - 1)}…`)
  })
})

describe('page keys', () => {
  test("'home' for /, else the path without the leading slash", () => {
    expect(pageKey('/')).toBe('home')
    expect(pageKey('')).toBe('home')
    expect(pageKey('/contact')).toBe('contact')
    expect(pageKey('/admin/dashboard/')).toBe('admin/dashboard')
    expect(pageKey('/reset-password/AbC_123-xyz')).toBe('reset-password')
    // A share link's id is its secret: the admin's Top Pages never sees it.
    expect(pageKey('/s/AbC_123-xyzAbC_123-xyz12')).toBe('s')
    expect(pageKey('/songs')).toBe('songs')
    expect(pageKey('/About')).toBe('about')
    expect(pageKey('//admin//users')).toBe('admin/users')
  })

  test('the validator takes 1..100 characters of letters, digits and / _ - .', () => {
    expect(PageHitSchema.safeParse({ page: 'admin/listening-analytics' }).success).toBe(true)
    expect(PageHitSchema.safeParse({ page: '' }).error?.issues[0].message).toBe('Page is required')
    expect(PageHitSchema.safeParse({}).error?.issues[0].message).toBe('Page is required')
    expect(PageHitSchema.safeParse({ page: 'a'.repeat(101) }).error?.issues[0].message).toBe('Page must be at most 100 characters')
    expect(PageHitSchema.safeParse({ page: 'a b' }).success).toBe(false)
    expect(PageHitSchema.safeParse({ page: '<script>' }).success).toBe(false)
    expect(PageHitSchema.parse({ page: 'Admin/Users' }).page).toBe('admin/users')
    for (const bad of ['..', '../x', 'a/..', 'a/./b', 'a//b', '/a', 'a/']) expect(PageHitSchema.safeParse({ page: bad }).success).toBe(false)
    for (const good of ['a.b', '...', 'v1.2/notes', 'x-y_z']) expect(PageHitSchema.safeParse({ page: good }).success).toBe(true)
    // Every key the footer can produce passes the validator.
    for (const path of ['/', '/contact', '/About/', '/admin//users', '/reset-password/tok.en'])
      expect(PageHitSchema.safeParse({ page: pageKey(path) }).success).toBe(true)
  })
})

describe('regions', () => {
  test('the 11 chart regions', () => {
    expect(REGIONS.map((r) => r.code)).toEqual(['us', 'gb', 'ca', 'au', 'de', 'fr', 'jp', 'es', 'it', 'cy', 'gr'])
    expect(isRegionCode('gb')).toBe(true)
    expect(isRegionCode('zz')).toBe(false)
  })

  test('well-formed codes pass (lowercased), malformed ones are refused', () => {
    expect(ChartsRegionSchema.parse({ region: 'GB' }).region).toBe('gb')
    expect(ChartsRegionSchema.parse({ region: 'zz' }).region).toBe('zz')
    for (const bad of ['../x', 'usa', 'u', '', 'x'.repeat(500), 'u1']) expect(ChartsRegionSchema.safeParse({ region: bad }).success).toBe(false)
  })
})

describe('feed shaping', () => {
  test('maps name, artistName, artworkUrl100 and contentAdvisoryRating; skips broken items', () => {
    const chart = shapeFeed({
      feed: {
        updated: 'Sat, 11 Nov 2023 03:13:41 +0000',
        results: [
          { name: 'Song A', artistName: 'Artist A', artworkUrl100: 'https://img.example/a.jpg', contentAdvisoryRating: 'Explicit' },
          { artistName: 'no name' },
          'junk',
          { name: 'Song B', artistName: 'Artist B', artworkUrl100: 'javascript:alert(1)' },
          { name: '  Song\nC  ' },
        ],
      },
    })
    expect(chart.updated).toBe('2023-11-11T03:13:41.000Z')
    expect(chart.tracks).toEqual([
      { rank: 1, title: 'Song A', artist: 'Artist A', art: 'https://img.example/a.jpg', explicit: true },
      { rank: 2, title: 'Song B', artist: 'Artist B', art: null, explicit: false },
      { rank: 3, title: 'Song C', artist: '', art: null, explicit: false },
    ])
  })

  test('artwork: https always, http only from the feed’s own origin, nothing else', () => {
    const item = (artworkUrl100: unknown) => ({ feed: { results: [{ name: 'S', artworkUrl100 }] } })
    const art = (url: unknown, origin: string | null = null) => shapeFeed(item(url), new Date(), origin).tracks[0].art
    expect(art('https://img.example/a.jpg')).toBe('https://img.example/a.jpg')
    expect(art('http://img.example/a.jpg')).toBeNull()
    expect(art('http://feed.example:8080/a.jpg', 'http://feed.example:8080')).toBe('http://feed.example:8080/a.jpg')
    expect(art('http://other.example/a.jpg', 'http://feed.example:8080')).toBeNull()
    for (const bad of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'vbscript:x',
      'file:///etc/passwd',
      '//img.example/a.jpg',
      'https://u:p@img.example/a.jpg',
      `https://img.example/${'a'.repeat(2000)}`,
      42,
    ]) {
      expect(art(bad, 'http://feed.example')).toBeNull()
    }
    expect(safeArtUrl('http://anything.example/a.jpg', 'any')).toBe('http://anything.example/a.jpg')
    expect(safeArtUrl('javascript:alert(1)', 'any')).toBeNull()
  })

  test('a body that is not a feed throws; a bad date becomes now', () => {
    expect(() => shapeFeed({ nope: true })).toThrow()
    expect(() => shapeFeed('<html>')).toThrow()
    const now = new Date('2026-01-01T00:00:00Z')
    expect(shapeFeed({ feed: { updated: 'whenever', results: [] } }, now).updated).toBe(now.toISOString())
  })
})

describe('visitor hash', () => {
  test('depends on IP, User-Agent and the UTC day; never contains the IP', () => {
    const secret = 's'.repeat(40)
    const day1 = new Date('2026-06-15T10:00:00Z')
    const a = visitorHash(secret, '203.0.113.9', 'UA', day1)
    expect(a).toMatch(/^[\w-]{32}$/)
    expect(a).not.toContain('203')
    expect(visitorHash(secret, '203.0.113.9', 'UA', new Date('2026-06-15T23:59:00Z'))).toBe(a)
    expect(visitorHash(secret, '203.0.113.9', 'UA2', day1)).not.toBe(a)
    expect(visitorHash(secret, '203.0.113.10', 'UA', day1)).not.toBe(a)
    expect(visitorHash(secret, '203.0.113.9', 'UA', new Date('2026-06-16T00:00:01Z'))).not.toBe(a)
    expect(visitorHash('t'.repeat(40), '203.0.113.9', 'UA', day1)).not.toBe(a)
  })
})

describe('footer counter effect', () => {
  const counts = { hitCount: 1, uniqueHitCount: 1, totalHitCount: 1 }
  const tick = () => new Promise((r) => setTimeout(r, 5))

  test('StrictMode mount → cleanup → mount sends one hit and reports it once', async () => {
    const sent: string[] = []
    const reports: unknown[] = []
    const send = async (page: string) => {
      sent.push(page)
      return counts
    }
    const cleanup = countVisit('about', send, (s) => reports.push(s))
    cleanup()
    countVisit('about', send, (s) => reports.push(s))
    await tick()
    expect(sent).toEqual(['about'])
    expect(reports).toEqual([{ status: 'done', counts }])
  })

  test('a navigation that is cleaned up after sending still counts once but no longer reports', async () => {
    const sent: string[] = []
    const reports: unknown[] = []
    let resolve!: (c: typeof counts) => void
    const cleanup = countVisit(
      'charts',
      (page) => {
        sent.push(page)
        return new Promise((r) => (resolve = r))
      },
      (s) => reports.push(s),
    )
    await tick()
    cleanup()
    resolve(counts)
    await tick()
    expect(sent).toEqual(['charts'])
    expect(reports).toEqual([])
  })

  test('a failure reports the error state', async () => {
    const reports: unknown[] = []
    countVisit(
      'home',
      async () => Promise.reject(new Error('down')),
      (s) => reports.push(s),
    )
    await tick()
    expect(reports).toEqual([{ status: 'error' }])
  })
})
