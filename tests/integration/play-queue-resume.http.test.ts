// Resuming on another device keeps what the library knows of a track: a queue saved as bare
// library paths comes back with each track's signed cover and its year, over real HTTP against
// the built server with a scanned library.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer

beforeAll(async () => {
  server = await startServer(adminEnv)
  makeTone(path.join(server.mediaRoot, 'Dawn', '01 First Light.mp3'), { title: 'First Light', artist: 'Dawn Trio', album: 'Dawn', year: 1997, cover: true })
  await scanLibraryNow(server.url, await loginAdmin(server.url))
})
afterAll(async () => {
  await server?.stop()
})

test('a resumed library track keeps its cover and year; what a player sends back of them is ignored', async () => {
  const m = await createMember(server.url)
  const saved = await api(server.url, 'PUT', '/playlist/queue', {
    token: m.token,
    body: { tracks: [{ url: '/media/Dawn/01%20First%20Light.mp3' }], index: 0, positionSec: 3, device: 'Laptop' },
  })
  expect(saved.status).toBe(200)
  const got = await api(server.url, 'GET', '/playlist/queue', { token: m.token })
  const track = got.body.data.tracks[0]
  expect(track).toMatchObject({ title: 'First Light', artist: 'Dawn Trio', year: 1997 })
  expect(track.cover).toContain('/media/Dawn/01%20First%20Light.mp3')
  const cover = await fetch(new URL(track.cover, server.url))
  expect(cover.status).toBe(200)
  expect(cover.headers.get('content-type')).toStartWith('image/')

  // The answer sent back as it is saves (its cover and year are the index's to give, not kept).
  const again = await api(server.url, 'PUT', '/playlist/queue', {
    token: m.token,
    body: { tracks: [{ ...track, cover: 'https://evil.example/x.png', year: 1 }] },
  })
  expect(again.status).toBe(200)
  const reread = (await api(server.url, 'GET', '/playlist/queue', { token: m.token })).body.data.tracks[0]
  expect(reread.year).toBe(1997)
  expect(reread.cover).toContain('/media/Dawn/')
})
