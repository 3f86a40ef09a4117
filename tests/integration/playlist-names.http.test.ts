// The Playlists tab of Listening Analytics names what was played from, over real HTTP against the
// built server with a scanned library: a member's library folder shows its label, owner, path and
// the number of tracks the library holds in it (not the number played); a remote folder shows its
// URL and no size (the server keeps no copy of a remote list); the player's own "remote" source
// (a remote URL or a resumed queue) is named.
import { sqlOn } from '../helpers/engine'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let admin: string

beforeAll(async () => {
  server = await startServer(adminEnv)
  for (const [i, title] of ['One', 'Two', 'Three'].entries()) makeTone(path.join(server.mediaRoot, 'Mix', `0${i + 1} ${title}.mp3`), { title })
  makeTone(path.join(server.mediaRoot, 'Mix', 'Bonus', '01 Four.mp3'), { title: 'Four' })
  makeTone(path.join(server.mediaRoot, 'Mixtape', '01 Elsewhere.mp3'), { title: 'Elsewhere' })
  admin = await loginAdmin(server.url)
  await scanLibraryNow(server.url, admin)
})
afterAll(async () => {
  await server?.stop()
})

test('a library folder shows its size from the index, a remote folder its URL and no size, the remote source its name', async () => {
  const m = await createMember(server.url)
  const created = await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Road trip', path: '/Mix' } })
  expect(created.status).toBe(201)
  const mix = created.body.data.id as string
  // A remote folder as the folders page saves it (written directly: the test server may not fetch a URL).
  const remoteId = 'remote-folder-of-test'
  await sqlOn(server, 'INSERT INTO folders (id, user_id, label, path, position, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)', [
    remoteId,
    m.user.id,
    'Radio',
    'https://music.example/radio/',
    Date.now(),
    Date.now(),
  ])
  const play = (playlistId: string, title: string) =>
    api(server.url, 'POST', '/playlist/plays', { token: m.token, body: { trackUrl: `https://x.example/${title}.mp3`, title, duration: 60, playlistId } })
  for (const [id, title] of [
    [mix, 'One'],
    [mix, 'One'],
    [mix, 'One'],
    [remoteId, 'Far'],
    [remoteId, 'Far'],
    ['remote', 'Resumed'],
  ]) {
    expect((await play(id, title)).status).toBe(201)
  }

  const res = await api(server.url, 'GET', '/analytics/playlist-analytics?days=7', { token: admin })
  expect(res.status).toBe(200)
  const rows = res.body.data.playlists as Array<Record<string, unknown>>
  expect(rows.map(({ playlistId, name, owner, path, trackCount, uniqueTracks }) => ({ playlistId, name, owner, path, trackCount, uniqueTracks }))).toEqual([
    // Four tracks in Mix and below (Mixtape is another folder); one of them was played.
    { playlistId: mix, name: 'Road trip', owner: m.username, path: '/Mix', trackCount: 4, uniqueTracks: 1 },
    { playlistId: remoteId, name: 'Radio', owner: m.username, path: 'https://music.example/radio/', trackCount: null, uniqueTracks: 1 },
    { playlistId: 'remote', name: 'Remote URL or resumed queue', owner: null, path: null, trackCount: null, uniqueTracks: 1 },
  ])
})
