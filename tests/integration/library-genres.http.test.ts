// A genre's counts span the whole library, so the scanner recounts the genres it touched at most
// every few seconds and once more at the end of the scan (scan.ts waitingGenres), not per batch of
// 250 files. A library scanned in several batches, then rescanned after files were removed,
// lists every genre with its exact counts.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { linkSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

const FILES = 640 // three batches and a part
let server: TestServer
let admin: string
let member: Awaited<ReturnType<typeof createMember>>
const sources = mkdtempSync(path.join(tmpdir(), 'vibes-genres-'))
const linkPath = (i: number) => path.join(server.mediaRoot, `Shelf ${Math.floor(i / 20)}`, `${i} ${i % 2 ? 'Rock' : 'Jazz'}.mp3`)

async function scan() {
  expect((await api(server.url, 'POST', '/admin/library/scan', { token: admin })).status).toBe(202)
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const status = await api(server.url, 'GET', '/admin/library/scan', { token: admin })
    if (!status.body.data.scanning) return status.body.data
    await Bun.sleep(100)
  }
  throw new Error('scan did not finish')
}
const genres = async () => (await api(server.url, 'GET', '/library/genres', { token: member.token })).body.data.genres

beforeAll(async () => {
  server = await startServer(adminEnv)
  const jazz = path.join(sources, 'jazz.mp3')
  const rock = path.join(sources, 'rock.mp3')
  makeTone(jazz, { title: 'Blue', artist: 'Ada', album: 'Blue Room', genre: 'Jazz', year: 1999, seconds: 1 })
  makeTone(rock, { title: 'Red', artist: 'Bo', album: 'Red Hall', genre: 'Rock', year: 2001, seconds: 1 })
  // Hard links: FILES index rows from two encoded files.
  for (let i = 0; i < FILES; i++) {
    mkdirSync(path.dirname(linkPath(i)), { recursive: true })
    linkSync(i % 2 ? rock : jazz, linkPath(i))
  }
  admin = await loginAdmin(server.url)
  member = await createMember(server.url)
}, 120_000)
afterAll(async () => {
  await server?.stop()
  rmSync(sources, { recursive: true, force: true })
})

test('a library scanned in several batches lists each genre with all its songs', async () => {
  expect((await scan()).tracks).toBe(FILES)
  expect(await genres()).toEqual([
    { name: 'Jazz', songCount: FILES / 2, albumCount: 1 },
    { name: 'Rock', songCount: FILES / 2, albumCount: 1 },
  ])
}, 90_000)

test('after files are removed, a rescan recounts their genre; a genre left with no song is gone', async () => {
  // Every Rock file, and 100 of the Jazz ones.
  let jazzRemoved = 0
  for (let i = 0; i < FILES; i++) {
    if (i % 2 === 0 && jazzRemoved === 100) continue
    if (i % 2 === 0) jazzRemoved++
    rmSync(linkPath(i))
  }
  expect((await scan()).tracks).toBe(FILES / 2 - 100)
  expect(await genres()).toEqual([{ name: 'Jazz', songCount: FILES / 2 - 100, albumCount: 1 }])
}, 90_000)
