// The playlist page as the built server renders it for a signed-in browser (the session cookie):
// the first HTML already holds the playlist's header, its first rows and a usable Play all, so
// nothing waits for the page's own request after hydration; a long playlist sends only its first
// rows (the rest load in the browser), and nobody sees a playlist they may not open.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let adminToken: string
type Member = Awaited<ReturnType<typeof createMember>>
let owner: Member
let other: Member
const ids: Record<string, string> = {}

beforeAll(async () => {
  server = await startServer(adminEnv)
  for (const title of ['Opening Anthem', 'Middle Verse', 'Closing Credits', 'Gone Tomorrow'])
    makeTone(path.join(server.mediaRoot, 'SSR', `${title}.mp3`), { title, artist: 'Page Band', album: 'Server Side', seconds: 1 })
  adminToken = await loginAdmin(server.url)
  await scanLibraryNow(server.url, adminToken)
  ;[owner, other] = await Promise.all([createMember(server.url), createMember(server.url)])
  const songs = await api(server.url, 'GET', '/library/songs?limit=50', { token: owner.token })
  for (const t of songs.body.data.tracks) ids[t.title] = t.id
})
afterAll(() => server?.stop())

async function newPlaylist(name: string, trackIds: string[], extra: Record<string, unknown> = {}) {
  const res = await api(server.url, 'POST', '/user/playlists', { token: owner.token, body: { name, trackIds, ...extra } })
  expect(res.status).toBe(201)
  return res.body.data.id as string
}

/** The page as a browser signed in with `member`'s session cookie gets it. */
async function page(id: string, member?: Member) {
  const res = await fetch(`${server.url}/playlists/${id}`, { headers: member ? { cookie: `vibes_session=${member.token}` } : {} })
  expect(res.status).toBe(200)
  return res.text()
}

/** The Play all button as rendered, or undefined. */
const playAllButton = (html: string) => [...html.matchAll(/<button[^>]*>(?:(?!<\/button>).)*<\/button>/gs)].map((m) => m[0]).find((b) => b.includes('Play all'))

describe('the playlist page renders on the server', () => {
  test("the owner's first HTML holds the header, the first rows and a usable Play all", async () => {
    const id = await newPlaylist('Rendered early', [ids['Opening Anthem'], ids['Middle Verse'], ids['Closing Credits']])
    const html = await page(id, owner)
    expect(html).toContain('Rendered early')
    expect(html).toContain('3 songs')
    expect(html).toMatch(/<ul aria-label="Songs"/)
    for (const title of ['Opening Anthem', 'Middle Verse', 'Closing Credits']) expect(html).toContain(`>${title}</span>`)
    const play = playAllButton(html)
    expect(play).toBeDefined()
    expect(play).not.toMatch(/^<button[^>]*\sdisabled=""/)
    expect(html).not.toContain('Checking your session')
  })

  test('a long playlist sends its first rows and its counts, not every entry', async () => {
    const middle = Array.from({ length: 300 }, () => ids['Middle Verse'])
    const id = await newPlaylist('Very long', [ids['Opening Anthem'], ...middle, ids['Closing Credits']])
    const html = await page(id, owner)
    expect(html).toContain('302 songs')
    expect(html).toContain('>Opening Anthem</span>')
    // The last entry is far below the first screen: neither rendered nor in the page's data.
    expect(html).not.toContain('Closing Credits')
    expect(html.split('Middle Verse').length - 1).toBeLessThan(200)
  })

  test('the counts cover the whole playlist: an entry whose file has gone is counted unavailable', async () => {
    const id = await newPlaylist('With a gap', [ids['Opening Anthem'], ids['Gone Tomorrow'], ...Array.from({ length: 60 }, () => ids['Middle Verse'])])
    rmSync(path.join(server.mediaRoot, 'SSR', 'Gone Tomorrow.mp3'))
    await scanLibraryNow(server.url, adminToken)
    const html = await page(id, owner)
    expect(html).toContain('62 songs')
    expect(html).toContain('1 unavailable')
    expect(html).toContain('>Gone Tomorrow</span>')
  })

  test('a visitor and another member get no rows of a private playlist', async () => {
    const id = await newPlaylist('Kept private', [ids['Opening Anthem']])
    for (const html of [await page(id), await page(id, other)]) {
      expect(html).not.toContain('Kept private')
      expect(html).not.toContain('Opening Anthem')
    }
    // A public one is another member's to see, rows and all.
    const shared = await newPlaylist('Shared out', [ids['Middle Verse']], { public: true })
    const html = await page(shared, other)
    expect(html).toContain('Shared out')
    expect(html).toContain('>Middle Verse</span>')
  })
})
