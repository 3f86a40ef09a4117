// OpenSubsonic at 100,000 indexed tracks, through HTTP on the real built server (goals: every /rest
// list and search method p95 < 50 ms; getSimilarSongs2 and getTopSongs p95 < 100 ms; the web
// library's list and search procedures (/api/library/…) p95 < 50 ms alike).
// The index is seeded straight into the database (bench/lib/library-index-seed.ts, the seeding of
// bench/library-search.ts): 100,000 tracks, 10,000 albums, 5,000 artists, 40 genres, 75 years.
// MEDIA_ROOT points at a folder that does not exist, so the start-up scan keeps that index.
// A member (app key) gets 20,000 plays over 90 days on 3,000 of the tracks, 400 likes (20 of them by
// title only), 300 rated albums, 300 rated songs and 30 rated artists, 10 folders (playlists), a 500-track play queue and one play a minute ago; 40 other
// listeners add 40,000 plays. Each method is called with realistic, varied parameters, one
// request at a time; wall p50/p95 and the server's own CPU per request (from /proc: on a shared
// machine the wall figures include waiting for a core) are printed and written to
// bench/results/subsonic-at-scale.json.
//   bun run build && bun bench/subsonic-at-scale.ts     (RUNS=60 per method by default)
//   BENCH_DATA_DIR=/tmp/x keeps the seeded DATA_DIR there and reuses it on the next run.
//   BENCH_BASELINE=/path/to/another/worktree (built) runs that tree's server beside this one on a
//   copy of the same index, alternating their requests, so a change is measured before and after
//   under the same machine load (the baseline's migrations seed the index, so this tree's own
//   migrations, an index say, apply only to its server).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDb } from '../src/db/client'
import { libraryTrackKey } from '../src/server/catalog/track'
import { encodeCursor } from '../src/server/library/page-cursor'
import { api, createMember } from '../tests/helpers/api'
import type { TestServer } from '../tests/helpers/server'
import { genres, pick, rand, seedLibraryIndex, words } from './lib/library-index-seed'

const TRACKS = 100_000
const RUNS = Number(process.env.RUNS ?? 60)
const root = path.resolve(import.meta.dir, '..')
const baselineTree = process.env.BENCH_BASELINE ? path.resolve(process.env.BENCH_BASELINE) : null
const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'vibes-subsonic-scale-'))
mkdirSync(dataDir, { recursive: true })
const templateFile = path.join(dataDir, 'seeded-index.db')
const migrationsOf = (tree: string) => path.join(tree, 'src/db/migrations')

const seeded = existsSync(templateFile)
if (!seeded) {
  const started = performance.now()
  const db = openDb(templateFile, migrationsOf(baselineTree ?? root))
  seedLibraryIndex(db.$client, { tracks: TRACKS, albumsPerArtist: 2 })
  db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  db.$client.close()
  console.log(`seeded ${TRACKS} tracks in ${((performance.now() - started) / 1000).toFixed(0)} s → ${templateFile}`)
}

type Track = { path: string; title: string; artist: string; album: string; genre: string; year: number; id: string; seq: number; addedAt: number }
const template = openDb(templateFile, migrationsOf(baselineTree ?? root)).$client
const sampled = template
  .query<Track, []>(
    'SELECT path, title, artist, album, genre, year, id, seq, added_at AS addedAt FROM library_tracks WHERE seq % 20 = 0 ORDER BY seq LIMIT 5000',
  )
  .all()
const favourites = sampled.slice(0, 3000).sort(() => rand() - 0.5)
// The member's listening, the same for every server: plays skewed towards the first favourites (a
// few played often, many once), and 40 other listeners' plays.
const now = Date.now()
const memberPlays = Array.from({ length: 20_000 }, () => ({
  t: favourites[Math.floor(favourites.length * rand() ** 3)],
  at: now - Math.floor(rand() * 90 * 86_400_000),
}))
const otherPlays = Array.from({ length: 40_000 }, () => ({
  listener: Math.floor(rand() * 40),
  t: pick(sampled),
  at: now - Math.floor(rand() * 90 * 86_400_000),
}))
const counts = template
  .query<{ tracks: number; albums: number; artists: number }, []>(
    'SELECT (SELECT count(*) FROM library_tracks) AS tracks, (SELECT count(*) FROM library_albums) AS albums, (SELECT count(*) FROM library_artists) AS artists',
  )
  .get()!
const ids = {
  albums: template.query<{ id: string; artistId: string }, []>('SELECT id, artist_id AS artistId FROM library_albums').all(),
  artists: template.query<{ id: string; name: string }, []>('SELECT id, name FROM library_artists').all(),
  playedArtists: [...new Set(favourites.slice(0, 300).map((t) => t.artist))],
}
const folderIdOf = (p: string) => `d${Buffer.from(p).toString('base64url')}`
const artistFolders = template.query<{ path: string }, []>("SELECT path FROM library_folders WHERE parent = ''").all()
const albumFolders = template.query<{ path: string }, []>("SELECT path FROM library_folders WHERE parent <> '' LIMIT 2000").all()
const albumRows = template
  .query<{ id: string; sortName: string; year: number; addedAt: number; seq: number }, []>(
    'SELECT id, sort_name AS sortName, year, added_at AS addedAt, seq FROM library_albums WHERE seq % 10 = 0',
  )
  .all()
const artistRows = template.query<{ id: string; sortName: string }, []>('SELECT id, sort_name AS sortName FROM library_artists WHERE seq % 10 = 0').all()
template.close()
console.log(`index: ${counts.tracks} tracks, ${counts.albums} albums, ${counts.artists} artists${seeded ? ' (reused)' : ''}`)

/** One server under test: its own copy of the seeded index and its own member. */
type Target = { label: string; app: TestServer; key: string; token: string }

async function startTarget(label: string, tree: string): Promise<Target> {
  const dir = path.join(dataDir, label)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  copyFileSync(templateFile, path.join(dir, 'vibes.db'))
  const noMedia = path.join(dir, 'no-media-root')
  const { startServer } = (await import(path.join(tree, 'tests/helpers/server.ts'))) as typeof import('../tests/helpers/server')
  const app = await startServer({ RATE_LIMIT: 'off', MEDIA_ROOT: noMedia }, { dataDir: dir, mediaRoot: noMedia })
  const member = await createMember(app.url, { username: `bench${label}${Date.now().toString(36)}` })
  const key = (await api(app.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'bench', currentPassword: member.password } })).body.data
    .key as string
  const c = openDb(path.join(dir, 'vibes.db'), migrationsOf(tree)).$client
  const others = Array.from({ length: 40 }, (_, i) => `bench-listener-${i}-${member.user.id}`)
  const insertUser = c.prepare("INSERT INTO users (id, username, email, password_hash, is_admin, created_at) VALUES (?, ?, ?, 'x', 0, ?)")
  const play =
    c.prepare(`INSERT INTO play_events (id, user_id, track_url, title, duration, genre, artist, album, year, listen_duration, completed, started_at, updated_at)
    VALUES (?, ?, ?, ?, 240, ?, ?, ?, ?, 240, 1, ?, ?)`)
  const like = c.prepare('INSERT OR REPLACE INTO likes (user_id, track_key, track_url, liked, updated_at) VALUES (?, ?, ?, 1, ?)')
  const rate = c.prepare('INSERT INTO ratings (user_id, item_id, kind, rating, updated_at) VALUES (?, ?, ?, ?, ?)')
  const folder = c.prepare('INSERT INTO folders (id, user_id, label, path, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
  const addPlay = (userId: string, t: Track, at: number) =>
    play.run(crypto.randomUUID(), userId, libraryTrackKey(t.path), t.title, t.genre, t.artist, t.album, t.year, at, at)
  c.transaction(() => {
    for (const [i, id] of others.entries()) insertUser.run(id, `${id}`, `listener${i}@${member.user.id}.test`, now)
    for (const { t, at } of memberPlays) addPlay(member.user.id, t, at)
    for (const { listener, t, at } of otherPlays) addPlay(others[listener], t, at)
    addPlay(member.user.id, favourites[0], now - 60_000)
    for (let i = 0; i < 400; i++) {
      const t = favourites[i * 7]
      like.run(member.user.id, t.title, i < 20 ? null : libraryTrackKey(t.path), now - i * 3_600_000)
    }
    // Ratings: getAlbumList2 highest lists the member's rated albums, and every song and album
    // answer carries its userRating.
    for (let i = 0; i < 300; i++) {
      rate.run(member.user.id, ids.albums[i * 31].id, 'album', 1 + (i % 5), now)
      rate.run(member.user.id, favourites[i * 9].id, 'song', 1 + (i % 5), now)
    }
    for (let i = 0; i < 30; i++) rate.run(member.user.id, ids.artists[i * 101].id, 'artist', 1 + (i % 5), now)
    for (let i = 0; i < 10; i++) {
      const t = favourites[i * 13]
      const dir = i % 2 ? t.path.slice(0, t.path.lastIndexOf('/')) : t.path.slice(0, t.path.indexOf('/'))
      folder.run(crypto.randomUUID(), member.user.id, `Folder ${i}`, `/${dir}`, i, now, now)
    }
  })()
  c.close()
  const queue = await api(app.url, 'PUT', '/playlist/queue', {
    token: member.token,
    body: {
      tracks: favourites.slice(0, 500).map((t) => ({ url: `/media/${t.path.split('/').map(encodeURIComponent).join('/')}` })),
      index: 10,
      positionSec: 30,
    },
  })
  if (queue.status !== 200) throw new Error(`queue: ${queue.status} ${JSON.stringify(queue.body)}`)
  return { label, app, key, token: member.token }
}

const targets: Target[] = []
if (baselineTree) targets.push(await startTarget('before', baselineTree))
targets.push(await startTarget(baselineTree ? 'after' : 'this', root))

const unaccent = (w: string) => w.normalize('NFD').replace(/\p{M}/gu, '')
const offset = (n: number) => String(Math.floor(rand() * n))

/** utime + stime of a server process, in ms (clock ticks of 10 ms). */
function serverCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

type Figures = { p50: number; p95: number; max: number; cpuMsPerCall: number; holds: boolean }
type Row = { group: string; name: string; goalMs: number } & Figures & { before?: Figures }
const rows: Row[] = []
// BENCH_ONLY=<regular expression>: only the rows whose name matches (while working on a few).
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
const q = (x: number[], p: number) => x[Math.min(x.length - 1, Math.ceil(p * x.length) - 1)]

/** A request's URL for a target; `make` draws the varied parameters once, for every target alike. */
type Call = { url: (t: Target) => string; headers?: (t: Target) => Record<string, string> }

async function time(group: string, name: string, goalMs: number, make: () => Call) {
  if (only && !only.test(name)) return
  const get = async (t: Target, r: Call) => {
    const res = await fetch(r.url(t), { headers: r.headers?.(t) ?? {} })
    const body = await res.text()
    if (res.status !== 200 || body.includes('"status":"failed"')) throw new Error(`${name} (${t.label}): ${res.status} ${body.slice(0, 300)}`)
  }
  for (let i = 0; i < 3; i++) {
    const r = make()
    for (const t of targets) await get(t, r)
  }
  const ms = targets.map(() => [] as number[])
  const cpu = targets.map((t) => serverCpuMs(t.app.pid))
  for (let i = 0; i < RUNS; i++) {
    const r = make()
    // Alternate which server goes first, so neither always meets the other's leftovers.
    const order = i % 2 ? [...targets.keys()].reverse() : [...targets.keys()]
    for (const k of order) {
      const started = performance.now()
      await get(targets[k], r)
      ms[k].push(performance.now() - started)
    }
  }
  const figures = targets.map((t, k): Figures => {
    const sorted = ms[k].sort((a, b) => a - b)
    const p95 = q(sorted, 0.95)
    return { p50: q(sorted, 0.5), p95, max: sorted[sorted.length - 1], cpuMsPerCall: (serverCpuMs(t.app.pid) - cpu[k]) / RUNS, holds: p95 < goalMs }
  })
  const mine = figures[figures.length - 1]
  const row: Row = { group, name, goalMs, ...mine, before: figures.length > 1 ? figures[0] : undefined }
  rows.push(row)
  const f = (n: number) => n.toFixed(1).padStart(7)
  const cols = (x: Figures) => `${f(x.p50)}${f(x.p95)}${f(x.cpuMsPerCall)}`
  console.log(`${name.padEnd(52)}${figures.map(cols).join('   |')}   < ${String(goalMs).padEnd(4)} ${row.holds ? 'ok' : 'OVER'}`)
}

const restUrl = (t: Target, method: string, params: Record<string, string>) =>
  `${t.app.url}/rest/${method}?${new URLSearchParams({ apiKey: t.key, f: 'json', c: 'bench', v: '1.16.1', ...params })}`
const auth = (t: Target) => ({ authorization: `Bearer ${t.token}` })

console.log(
  `\n${RUNS} requests per row, one at a time; this machine is shared and loaded (load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]} on 2 cores): wall figures include waiting for a core`,
)
console.log(`${'method (parameters)'.padEnd(52)}${targets.map((t) => `${t.label.padStart(7)}: p50    p95    cpu`).join('  |')}  goal (ms)`)
const R = (name: string, method: string, params: () => Record<string, string> = () => ({}), goal = 50) =>
  time('rest', name, goal, () => {
    const p = params()
    return { url: (t) => restUrl(t, method, p) }
  })
await R('getArtists (5,000 artists by letter)', 'getArtists')
await R('getIndexes (5,000 top folders by letter)', 'getIndexes')
await R('getMusicDirectory root', 'getMusicDirectory', () => ({ id: '1' }))
await R('getMusicDirectory an artist folder', 'getMusicDirectory', () => ({ id: folderIdOf(pick(artistFolders).path) }))
await R('getMusicDirectory an album folder', 'getMusicDirectory', () => ({ id: folderIdOf(pick(albumFolders).path) }))
await R('getMusicDirectory an artist id', 'getMusicDirectory', () => ({ id: pick(ids.artists).id }))
await R('getMusicDirectory an album id', 'getMusicDirectory', () => ({ id: pick(ids.albums).id }))
await R('getArtist', 'getArtist', () => ({ id: pick(ids.artists).id }))
await R('getAlbum', 'getAlbum', () => ({ id: pick(ids.albums).id }))
await R('getSong', 'getSong', () => ({ id: pick(sampled).id }))
for (const method of ['getAlbumList2', 'getAlbumList']) {
  for (const type of ['random', 'newest', 'highest', 'frequent', 'recent', 'alphabeticalByName', 'alphabeticalByArtist', 'starred']) {
    // Apps page from the start; some scroll far: a random page of the list.
    const deep = ['newest', 'alphabeticalByName', 'alphabeticalByArtist'].includes(type)
    await R(`${method} ${type}${deep ? ', random offset' : ''}`, method, () => ({ type, size: '50', offset: deep ? offset(counts.albums) : '0' }))
  }
  await R(`${method} byYear 1970–1990, random offset`, method, () => ({ type: 'byYear', fromYear: '1970', toYear: '1990', size: '50', offset: offset(2500) }))
  await R(`${method} byYear 2020–1990 (newest first)`, method, () => ({ type: 'byYear', fromYear: '2020', toYear: '1990', size: '50', offset: '0' }))
  await R(`${method} byGenre, random offset`, method, () => ({ type: 'byGenre', genre: pick(genres), size: '50', offset: offset(200) }))
}
await R('getRandomSongs size 50', 'getRandomSongs', () => ({ size: '50' }))
await R('getRandomSongs size 50 of a genre', 'getRandomSongs', () => ({ size: '50', genre: pick(genres) }))
await R('getRandomSongs size 50, 1980–1989', 'getRandomSongs', () => ({ size: '50', fromYear: '1980', toYear: '1989' }))
await R('getSongsByGenre count 50, random offset', 'getSongsByGenre', () => ({ genre: pick(genres), count: '50', offset: offset(2400) }))
await R('search2 a 3-letter prefix', 'search2', () => ({ query: pick(words).slice(0, 3) }))
await R('search3 a 2-letter prefix (common)', 'search3', () => ({ query: pick(words).slice(0, 2) }))
await R('search3 a 3-letter prefix (common)', 'search3', () => ({ query: pick(words).slice(0, 3) }))
await R('search3 a whole word, unaccented (rare)', 'search3', () => ({ query: unaccent(pick(words)) }))
await R('search3 two words', 'search3', () => ({ query: `${pick(words)} ${pick(words).slice(0, 3)}` }))
await R('search3 empty query: 500 songs at a random offset', 'search3', () => ({
  query: '',
  artistCount: '0',
  albumCount: '0',
  songCount: '500',
  songOffset: offset(counts.tracks),
}))
await R('search3 empty query: 500 albums at a random offset', 'search3', () => ({
  query: '',
  artistCount: '0',
  albumCount: '500',
  albumOffset: offset(counts.albums),
  songCount: '0',
}))
await R('getStarred2 (400 likes)', 'getStarred2')
await R('getStarred (400 likes)', 'getStarred')
await R('getPlaylists (10 folders)', 'getPlaylists')
await R('getPlayQueue (500 tracks)', 'getPlayQueue')
await R('getNowPlaying', 'getNowPlaying')
await R('getTopSongs a played artist', 'getTopSongs', () => ({ artist: pick(ids.playedArtists), count: '50' }), 100)
await R('getTopSongs any artist', 'getTopSongs', () => ({ artist: pick(ids.artists).name, count: '50' }), 100)
await R('getSimilarSongs2 a song', 'getSimilarSongs2', () => ({ id: pick(sampled).id, count: '50' }), 100)
await R('getSimilarSongs2 an artist', 'getSimilarSongs2', () => ({ id: pick(ids.artists).id, count: '50' }), 100)

console.log('\nthe web library (/api/library, the procedures the pages call):')
const W = (name: string, p: () => string) =>
  time('web', name, 50, () => {
    const rel = p()
    return { url: (t) => `${t.app.url}/api${rel}`, headers: auth }
  })
await W('search a 2-letter prefix', () => `/library/search?q=${encodeURIComponent(pick(words).slice(0, 2))}`)
await W('search a 3-letter prefix', () => `/library/search?q=${encodeURIComponent(pick(words).slice(0, 3))}`)
await W('search a whole word', () => `/library/search?q=${encodeURIComponent(unaccent(pick(words)))}`)
await W('albums by name, first page of 50', () => '/library/albums?sort=name')
await W('albums by name, a page deep in the list', () => {
  const r = pick(albumRows)
  return `/library/albums?sort=name&cursor=${encodeCursor([r.sortName, r.id])}`
})
await W('albums by year, a page deep in the list', () => {
  const r = pick(albumRows)
  return `/library/albums?sort=year&cursor=${encodeCursor([r.year, r.sortName, r.seq])}`
})
await W('albums recently added, a page deep in the list', () => {
  const r = pick(albumRows)
  return `/library/albums?sort=recent&cursor=${encodeCursor([r.addedAt, r.seq])}`
})
await W('albums of a genre', () => `/library/albums?genre=${encodeURIComponent(pick(genres))}`)
await W('artists, a page deep in the list', () => {
  const r = pick(artistRows)
  return `/library/artists?cursor=${encodeCursor([r.sortName, r.id])}`
})
await W('an album', () => `/library/albums/${pick(ids.albums).id}`)
await W('an artist', () => `/library/artists/${pick(ids.artists).id}`)
await W('genres', () => '/library/genres')
await W('songs by title, a page deep in the list', () => {
  const t = pick(sampled)
  return `/library/songs?sort=title&cursor=${encodeCursor([t.title, t.seq])}`
})
await W('songs recently added, a page deep in the list', () => {
  const t = pick(sampled)
  return `/library/songs?sort=recent&cursor=${encodeCursor([t.addedAt, t.seq])}`
})
await W('folders: the root (5,000 folders)', () => '/library/folders?path=/')
await W('folders: an artist', () => `/library/folders?path=${encodeURIComponent(`/${pick(artistFolders).path}`)}`)
await W('liked (400 likes)', () => '/library/liked')

for (const t of targets) await t.app.stop()
const over = rows.filter((r) => !r.holds)
console.log(`\n${rows.length - over.length} of ${rows.length} hold their goal${over.length ? `; over: ${over.map((r) => r.name).join(', ')}` : ''}`)
const out = path.join(root, 'bench/results/subsonic-at-scale.json')
writeFileSync(
  out,
  `${JSON.stringify(
    {
      at: new Date().toISOString(),
      note: 'shared, loaded machine (2 cores): wall p50/p95 include waiting for a core; cpuMsPerCall is the server process own CPU per request',
      loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
      index: counts,
      runsPerRow: RUNS,
      baseline: baselineTree ? 'rows[].before: the BENCH_BASELINE tree, run alternately with this one' : undefined,
      rows,
    },
    null,
    2,
  )}\n`,
)
console.log(`→ ${path.relative(root, out)}`)
if (!process.env.BENCH_DATA_DIR) rmSync(dataDir, { recursive: true, force: true })
