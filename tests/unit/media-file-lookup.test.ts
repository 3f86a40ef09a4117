// The resolved-path cache of /media (file-lookup.ts) on real files: a kept path is trusted only
// while the same inode is a regular file there, so a replaced, deleted or re-linked file is never
// answered from the cache, and nothing outside the library is reached through it.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createFileLookup } from '~/server/media/file-lookup'
import { isInside } from '~/server/media/library-path'

let base: string
let root: string
let outside: string
let resolved: string[]
let clock: number

function lookupFor(ttlMs = 5000, maxEntries = 1024) {
  const resolve = (rel: string) => {
    resolved.push(rel)
    try {
      const real = realpathSync(path.join(root, rel))
      return isInside(root, real) ? real : null
    } catch {
      return null
    }
  }
  return createFileLookup({ resolve, ttlMs, maxEntries, now: () => clock })
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'vibes-lookup-')))
  root = path.join(base, 'library')
  outside = path.join(base, 'outside')
  mkdirSync(path.join(root, 'album'), { recursive: true })
  mkdirSync(outside)
  writeFileSync(path.join(root, 'album/song.mp3'), 'inside')
  writeFileSync(path.join(outside, 'song.mp3'), 'CANARY')
  resolved = []
  clock = 0
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

describe('media file lookup', () => {
  test('a file asked for again within the TTL is not resolved again; its stat is fresh each time', () => {
    const lookup = lookupFor()
    expect(lookup('album/song.mp3')?.st.size).toBe(6)
    writeFileSync(path.join(root, 'album/song.mp3'), 'inside, longer now')
    clock = 4000
    expect(lookup('album/song.mp3')?.st.size).toBe(18)
    expect(resolved).toEqual(['album/song.mp3'])
  })

  test('a file replaced by another (new inode) is resolved again at once', () => {
    const lookup = lookupFor()
    const first = lookup('album/song.mp3')
    writeFileSync(path.join(root, 'album/new.mp3'), 'replacement')
    renameSync(path.join(root, 'album/new.mp3'), path.join(root, 'album/song.mp3'))
    const second = lookup('album/song.mp3')
    expect(second?.st.ino).not.toBe(first?.st.ino)
    expect(second?.st.size).toBe(11)
    expect(resolved).toHaveLength(2)
  })

  test('a kept file turned into a link out of the library, or whose folder is, is refused at once', () => {
    const lookup = lookupFor()
    expect(lookup('album/song.mp3')).not.toBeNull()
    unlinkSync(path.join(root, 'album/song.mp3'))
    symlinkSync(path.join(outside, 'song.mp3'), path.join(root, 'album/song.mp3'))
    expect(lookup('album/song.mp3')).toBeNull()

    rmSync(path.join(root, 'album'), { recursive: true })
    mkdirSync(path.join(root, 'album'))
    writeFileSync(path.join(root, 'album/song.mp3'), 'inside again')
    expect(lookup('album/song.mp3')).not.toBeNull()
    rmSync(path.join(root, 'album'), { recursive: true })
    symlinkSync(outside, path.join(root, 'album'))
    expect(lookup('album/song.mp3')).toBeNull()
  })

  test('a deleted file or a folder is not found', () => {
    const lookup = lookupFor()
    expect(lookup('album/song.mp3')).not.toBeNull()
    unlinkSync(path.join(root, 'album/song.mp3'))
    expect(lookup('album/song.mp3')).toBeNull()
    expect(lookup('album')).toBeNull()
  })

  test('a link inside the library re-pointed to another library file answers the new one once the TTL passes', () => {
    writeFileSync(path.join(root, 'album/other.mp3'), 'the other one')
    symlinkSync('song.mp3', path.join(root, 'album/link.mp3'))
    const lookup = lookupFor(5000)
    expect(lookup('album/link.mp3')?.real).toBe(path.join(root, 'album/song.mp3'))
    unlinkSync(path.join(root, 'album/link.mp3'))
    symlinkSync('other.mp3', path.join(root, 'album/link.mp3'))
    clock = 4999
    expect(lookup('album/link.mp3')?.real).toBe(path.join(root, 'album/song.mp3'))
    clock = 5000
    expect(lookup('album/link.mp3')?.real).toBe(path.join(root, 'album/other.mp3'))
  })

  test('the map starts over when full', () => {
    for (const n of [1, 2, 3]) writeFileSync(path.join(root, `album/${n}.mp3`), String(n))
    const lookup = lookupFor(5000, 2)
    for (const n of [1, 2, 3, 3, 1]) lookup(`album/${n}.mp3`)
    expect(resolved).toEqual(['album/1.mp3', 'album/2.mp3', 'album/3.mp3', 'album/1.mp3'])
  })
})
