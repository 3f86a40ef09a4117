// The scanner's change detection and naming rules (src/server/library/scan-plan.ts).
import { describe, expect, test } from 'bun:test'
import { albumId, artistId, coverRank, planScan, trackId, type IndexedFile } from '~/server/library/scan-plan'

const file = (path: string, size = 100, mtimeMs = 1000) => ({ path, size, mtimeMs })

describe('planScan', () => {
  const indexed = new Map([
    ['a.mp3', { size: 100, mtimeMs: 1000 }],
    ['b.mp3', { size: 100, mtimeMs: 1000 }],
    ['gone.mp3', { size: 100, mtimeMs: 1000 }],
  ])

  test('reads new files and files whose size or mtime changed; the rest are skipped', () => {
    const plan = planScan(indexed, [file('a.mp3'), file('b.mp3', 101), file('new.mp3')], false)
    expect(plan.read.map((f) => f.path)).toEqual(['b.mp3', 'new.mp3'])
    expect(plan.unchanged).toBe(1)
    expect(planScan(indexed, [file('a.mp3', 100, 2000)], false).read.map((f) => f.path)).toEqual(['a.mp3'])
  })

  test('a stale row is read again although its file did not change', () => {
    const withStale = new Map<string, IndexedFile>([...indexed, ['c.ogg', { size: 100, mtimeMs: 1000, stale: true }]])
    expect(planScan(withStale, [file('a.mp3'), file('c.ogg')], false).read.map((f) => f.path)).toEqual(['c.ogg'])
  })

  test('indexed paths not found are removed', () => {
    expect(planScan(indexed, [file('a.mp3'), file('b.mp3')], false).removed).toEqual(['gone.mp3'])
    expect(planScan(indexed, [], false).removed.sort()).toEqual(['a.mp3', 'b.mp3', 'gone.mp3'])
  })

  test('a full scan reads every file, changed or not', () => {
    const plan = planScan(indexed, [file('a.mp3'), file('b.mp3')], true)
    expect(plan.read.map((f) => f.path)).toEqual(['a.mp3', 'b.mp3'])
    expect(plan.unchanged).toBe(0)
  })
})

describe('cover images beside the files', () => {
  test('cover, folder, front… in that order; other images and non-images are none', () => {
    expect(coverRank('cover.jpg')).toBe(0)
    expect(coverRank('Folder.PNG')).toBe(1)
    expect(coverRank('front.webp')).toBe(2)
    expect(coverRank('cover.jpeg')).toBe(0)
    expect(coverRank('back.jpg')).toBe(-1)
    expect(coverRank('cover.txt')).toBe(-1)
    expect(coverRank('cover.jpg.html')).toBe(-1)
    expect(coverRank('cover.tar.gz')).toBe(-1)
  })
})

describe('ids', () => {
  test('stable hashes: the same key gives the same id, artist names fold case', () => {
    expect(trackId('a/b.mp3')).toBe(trackId('a/b.mp3'))
    expect(trackId('a/b.mp3')).not.toBe(trackId('a/c.mp3'))
    expect(trackId('x')).toMatch(/^[0-9a-f]{16}$/)
    expect(artistId('Björk')).toBe(artistId(' BJÖRK '))
    expect(artistId('Björk')).not.toBe(trackId('Björk'))
  })

  test('an album is its album artist and name; untagged albums are one per folder', () => {
    expect(albumId('Ada', 'Dawn', 'x')).toBe(albumId('ada', 'DAWN', 'y'))
    expect(albumId('Ada', 'Dawn', 'x')).not.toBe(albumId('Bo', 'Dawn', 'x'))
    expect(albumId('', null, 'x')).not.toBe(albumId('', null, 'y'))
  })
})
