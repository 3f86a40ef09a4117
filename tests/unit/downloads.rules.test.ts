// Downloads for offline without a browser: fakes for Cache Storage, storage, fetch and the
// signed-in member. Files are stored once under their path, a download stops at the limit keeping
// what it stored, removing a collection keeps files another one holds, anyone but the owner
// signed in (or no one, while online) deletes everything, and the tracks kept for the downloads
// page are those whose file is stored.
import { describe, expect, test } from 'bun:test'
import { createDownloads, DOWNLOAD_LIMIT_KEY, DOWNLOADS_INDEX_KEY, storedTracks } from '~/client/features/offline/downloads'
import { DOWNLOADS_CACHE } from '~/client/pwa/sw-rules'
import { makeTrack } from '~/shared/player/track'

const ORIGIN = 'https://vibes.example'

function fakes(sizes: Record<string, number>) {
  const stores = new Map<string, Map<string, Response>>()
  const items = new Map<string, string>()
  const fetched: string[] = []
  let owner: string | null = 'alice'
  let online = true
  const deps = {
    storage: {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    },
    caches: {
      open: async (name: string) => {
        if (!stores.has(name)) stores.set(name, new Map())
        const store = stores.get(name)!
        return { put: async (k: string, r: Response) => void store.set(k, r), delete: async (k: string) => store.delete(k) } as unknown as Cache
      },
      delete: async (name: string) => stores.delete(name),
    },
    fetch: async (url: string) => {
      fetched.push(url)
      const path = new URL(url, ORIGIN).pathname
      return new Response(new Uint8Array(sizes[path] ?? 0), { headers: { 'content-type': 'audio/mpeg' } })
    },
    origin: ORIGIN,
    owner: () => owner,
    online: () => online,
  }
  return {
    downloads: createDownloads(deps),
    stored: () => [...(stores.get(DOWNLOADS_CACHE)?.keys() ?? [])].sort(),
    cacheExists: () => stores.has(DOWNLOADS_CACHE),
    items,
    fetched,
    signIn: (who: string | null) => (owner = who),
    setOnline: (on: boolean) => (online = on),
  }
}

const A = '/media/A/01.mp3'
const B = '/media/A/02.mp3'
const C = '/media/C/01.mp3'
const signed = (path: string, sig = 'x') => `${path}?exp=1&sig=${sig}`

describe('downloads', () => {
  test('stores each file once under its path; a second collection holding it fetches nothing again', async () => {
    const f = fakes({ [A]: 1000, [B]: 2000, [C]: 500 })
    const r = await f.downloads.download({ kind: 'album', id: 'a', name: 'Album A' }, [signed(A), signed(B)])
    expect(r).toEqual({ stored: 2, total: 2, full: false })
    await f.downloads.download({ kind: 'playlist', id: 'p', name: 'Mix' }, [signed(A, 'other'), signed(C)])
    expect(f.stored()).toEqual([A, B, C].sort())
    expect(f.fetched.length).toBe(3)
    const s = f.downloads.get()
    expect(s.used).toBe(3500)
    expect(s.collections.map((c) => [c.name, c.bytes])).toEqual([
      ['Album A', 3000],
      ['Mix', 1500],
    ])
  })

  test("a track's embedded cover (its own path with cover=1) is stored beside it, not over it", async () => {
    const f = fakes({ [A]: 1000 })
    await f.downloads.download({ kind: 'album', id: 'a', name: 'Album A' }, [signed(A), `${A}?cover=1&exp=1&sig=y`])
    expect(f.stored()).toEqual([A, `${A}?cover=1`])
  })

  test('stops before the file that would pass the limit, keeping what it stored', async () => {
    const f = fakes({ [A]: 600, [B]: 600 })
    f.downloads.setLimit(1000)
    const r = await f.downloads.download({ kind: 'album', id: 'a', name: 'Album A' }, [A, B])
    expect(r).toEqual({ stored: 1, total: 2, full: true })
    expect(f.stored()).toEqual([A])
    expect(f.downloads.get().used).toBe(600)
    // A bigger limit: downloading again stores the rest, fetching only what is missing.
    f.downloads.setLimit(2000)
    expect(await f.downloads.download({ kind: 'album', id: 'a', name: 'Album A' }, [A, B])).toEqual({ stored: 2, total: 2, full: false })
    expect(f.fetched).toEqual([A, B, B])
    expect(f.items.get(DOWNLOAD_LIMIT_KEY)).toBe('2000')
  })

  test('removing a collection keeps the files another collection holds', async () => {
    const f = fakes({ [A]: 1, [B]: 1, [C]: 1 })
    await f.downloads.download({ kind: 'album', id: 'a', name: 'Album A' }, [A, B])
    await f.downloads.download({ kind: 'playlist', id: 'p', name: 'Mix' }, [A, C])
    await f.downloads.remove({ kind: 'album', id: 'a' })
    expect(f.stored()).toEqual([A, C].sort())
    expect(f.downloads.get().collections.map((c) => c.name)).toEqual(['Mix'])
  })

  test('anyone but the owner signed in, or no one, deletes every download', async () => {
    const f = fakes({ [A]: 1 })
    await f.downloads.download({ kind: 'album', id: 'a', name: 'Album A' }, [A])
    await f.downloads.checkOwner()
    expect(f.stored()).toEqual([A])
    f.signIn('bob')
    // Bob never sees Alice's downloads, even before the check runs.
    expect(f.downloads.get().collections).toEqual([])
    await f.downloads.checkOwner()
    expect(f.cacheExists()).toBe(false)
    expect(f.items.has(DOWNLOADS_INDEX_KEY)).toBe(false)

    const g = fakes({ [A]: 1 })
    await g.downloads.download({ kind: 'album', id: 'a', name: 'Album A' }, [A])
    g.signIn(null)
    await g.downloads.checkOwner()
    expect(g.cacheExists()).toBe(false)
  })

  test('offline with no one signed in (a sign-in that expired) keeps the downloads; another member still clears them', async () => {
    const f = fakes({ [A]: 1 })
    await f.downloads.download({ kind: 'album', id: 'a', name: 'Album A' }, [A])
    f.setOnline(false)
    f.signIn(null)
    await f.downloads.checkOwner()
    expect(f.stored()).toEqual([A])
    // Nobody signed in sees nothing of them meanwhile.
    expect(f.downloads.get().collections).toEqual([])
    f.signIn('alice')
    expect(f.downloads.get().collections.map((c) => c.name)).toEqual(['Album A'])
    f.signIn('bob')
    await f.downloads.checkOwner()
    expect(f.cacheExists()).toBe(false)
  })

  test('the tracks kept with a collection are listed for the downloads page only where their file is stored', async () => {
    const f = fakes({ [A]: 600, [B]: 600 })
    f.downloads.setLimit(1000)
    const tracks = [makeTrack({ url: signed(A), title: 'One' }), makeTrack({ url: signed(B), title: 'Two' })]
    const r = await f.downloads.download(
      { kind: 'album', id: 'a', name: 'Album A' },
      tracks.map((t) => t.url),
      tracks,
    )
    expect(r.full).toBe(true)
    const [album] = f.downloads.get().collections
    expect(album.tracks).toEqual(tracks)
    expect(storedTracks(album, ORIGIN).map((t) => t.title)).toEqual(['One'])
  })

  test('signed out, or without Cache Storage, nothing is downloaded', async () => {
    const f = fakes({ [A]: 1 })
    f.signIn(null)
    await expect(f.downloads.download({ kind: 'album', id: 'a', name: 'Album A' }, [A])).rejects.toThrow(/Sign in/)
    expect(f.fetched).toEqual([])
  })
})
