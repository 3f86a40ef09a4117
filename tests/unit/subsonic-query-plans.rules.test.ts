// OpenSubsonic's lists must stay quick on a large library (bench/subsonic-at-scale.ts times them
// at 100,000 tracks): the statements behind getAlbumList2 frequent/recent and getRandomSongs with
// a year range, the folder levels of getIndexes and getMusicDirectory and the play counts of
// getTopSongs are recorded as they run on the real migrated schema, and SQLite's plan for each
// must read an index, never every row of the library or every play of the member.
import { beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { type Db, openDb } from '~/db/client'
import { ratingsOf } from '~/server/services/ratings'
import { topSongs } from '~/server/subsonic/info'
import { albumList, directory, folderIndex, randomSongs } from '~/server/subsonic/library'

let db: Db
const USER = 'u1'
const noStars = { byPath: new Map(), byTitle: new Map(), ratings: new Map() }

beforeAll(() => {
  db = openDb(':memory:', path.resolve('src/db/migrations'))
  const c = db.$client
  c.run("INSERT INTO users (id, username, email, password_hash, is_admin, created_at) VALUES (?, 'u1', 'u1@x.test', 'x', 0, 0)", [USER])
  for (let i = 1; i <= 20; i++) {
    c.run(
      `INSERT INTO library_tracks (id, path, folder, title, artist, artist_id, album_artist, album_artist_id, album, album_id, year,
         duration, mime, size, mtime_ms, embedded_cover, added_at) VALUES (?, ?, 'A', ?, 'Ar', 'ar', 'Ar', 'ar', ?, ?, ?, 60, 'audio/mpeg', 1, 0, 0, ?)`,
      [`t${i}`, `A/${i}.mp3`, `Song ${i}`, `Album ${i % 4}`, `al${i % 4}`, 1970 + i, i],
    )
    c.run('INSERT INTO play_events (id, user_id, track_url, title, album, started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      `p${i}`,
      USER,
      `/media/A/${i}.mp3`,
      `Song ${i}`,
      `Album ${i % 4}`,
      i,
      i,
    ])
  }
  for (let a = 0; a < 4; a++) {
    c.run(
      'INSERT INTO library_albums (id, name, sort_name, artist, artist_id, year, song_count, duration, added_at) VALUES (?, ?, lower(?), ?, ?, ?, 5, 300, 0)',
      [`al${a}`, `Album ${a}`, `Album ${a}`, 'Ar', 'ar', 1970 + a],
    )
  }
})

/** The query plans of the statements `run` prepares (cached or not), one string per statement. */
async function plansOf(run: () => unknown): Promise<string[]> {
  const c = db.$client
  const seen: string[] = []
  const query = c.query.bind(c)
  const prepare = c.prepare.bind(c)
  c.query = ((sql: string) => {
    seen.push(sql)
    return query(sql)
  }) as typeof c.query
  // Statements written for both engines (src/db/engine.ts rows()) are prepared by Drizzle.
  c.prepare = ((sql: string) => {
    seen.push(sql)
    return prepare(sql)
  }) as typeof c.prepare
  try {
    await run()
  } finally {
    c.query = query
    c.prepare = prepare
  }
  return seen.map((sql) =>
    (query(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({ length: query(sql).paramsCount }, () => null)) as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join('; '),
  )
}

describe('OpenSubsonic lists read an index', () => {
  test.each(['frequent', 'recent'] as const)("getAlbumList2 %s reads the member's plays from an index alone, not each play's row", async (type) => {
    const plans = await plansOf(() => albumList(db, USER, { type, size: 10, offset: 0 }))
    const plays = plans.filter((p) => p.includes('play_events'))
    expect(plays.length).toBe(1)
    expect(plays[0]).toMatch(/SEARCH play_events USING COVERING INDEX/)
  })

  test('getAlbumList2 frequent still answers with the most played albums first', async () => {
    expect((await albumList(db, USER, { type: 'frequent', size: 10, offset: 0 })).map((a) => a.name)).toEqual(['Album 0', 'Album 3', 'Album 2', 'Album 1'])
  })

  test('getRandomSongs with a year range does not read every track', async () => {
    const plans = await plansOf(() => randomSongs(db, { size: 5, fromYear: 1980, toYear: 1985 }, noStars))
    expect(plans.length).toBeGreaterThan(0)
    for (const plan of plans) expect(plan).not.toMatch(/SCAN (library_tracks|t)\b/)
  })

  test('getRandomSongs with a year range answers songs of those years only', async () => {
    const songs = await randomSongs(db, { size: 50, fromYear: 1980, toYear: 1985 }, noStars)
    expect(songs.map((s) => s.year as number).sort()).toEqual([1980, 1981, 1982, 1983, 1984, 1985])
  })
})

describe('folder levels and play counts', () => {
  beforeAll(() => {
    const c = db.$client
    for (const [p, parent, name] of [
      ['', null, ''],
      ['A', '', 'A'],
      ['B', '', 'B'],
      ['B/Live', 'B', 'Live'],
    ] as const)
      c.run('INSERT INTO library_folders (path, parent, name) VALUES (?, ?, ?)', [p, parent, name])
    // A song in B with a cover beside it: B shows art, A (no track with a cover) does not.
    c.run(
      `INSERT INTO library_tracks (id, path, folder, title, artist, artist_id, album_artist, album_artist_id, album, album_id,
         duration, mime, size, mtime_ms, embedded_cover, cover_path, added_at) VALUES ('tb', 'B/1.mp3', 'B', 'B song', 'Bee', 'bee', 'Bee', 'bee', 'B', 'alb', 60, 'audio/mpeg', 1, 0, 0, 'B/cover.jpg', 0)`,
    )
    // A song directly in the music folder.
    c.run(
      `INSERT INTO library_tracks (id, path, folder, title, artist, artist_id, album_artist, album_artist_id, album, album_id,
         duration, mime, size, mtime_ms, embedded_cover, added_at) VALUES ('top', 'top.mp3', '', 'Top song', 'Bee', 'bee', 'Bee', 'bee', 'B', 'alb', 60, 'audio/mpeg', 1, 0, 0, 0)`,
    )
    c.run("INSERT INTO library_artists (id, name, sort_name, album_count, song_count) VALUES ('ar', 'Ar', 'ar', 4, 20)")
    c.run("INSERT INTO users (id, username, email, password_hash, is_admin, created_at) VALUES ('u2', 'u2', 'u2@x.test', 'x', 0, 0)")
    const play = (url: string, i: number) =>
      c.run("INSERT INTO play_events (id, user_id, track_url, title, started_at, updated_at) VALUES (?, 'u2', ?, 'x', ?, ?)", [`q${i}`, url, i, i])
    // Song 2: one bare play (above) and two signed by the web player; song 5: two bare; song 3: one
    // bare and five of other files whose URLs merely start with its own.
    const urls = ['/media/A/2.mp3?exp=1&sig=a', '/media/A/2.mp3?exp=2&sig=b', '/media/A/5.mp3']
    urls.push('/media/A/3.mp3.bak', '/media/A/3.mp30', '/media/A/3.mp3/x', '/media/A/3.mp3 (2)', '/media/A/3.mp3;1')
    urls.forEach(play)
  })

  test('a level of the folder tree and its covers come from indexes, never a scan of the library', async () => {
    const plans = await plansOf(async () => {
      await directory(db, '', noStars)
      await folderIndex(db, noStars)
    })
    const folders = plans.filter((p) => p.includes('library_folders'))
    expect(folders.length).toBeGreaterThan(0)
    for (const plan of folders) expect(plan).toMatch(/COVERING INDEX library_folders_parent_idx|library_folders USING INDEX sqlite_autoindex/)
    const covers = plans.filter((p) => p.includes('CORRELATED'))
    expect(covers.length).toBe(1)
    expect(covers[0]).toMatch(/SEARCH t USING INDEX library_tracks_folder_cover_idx/)
    for (const plan of plans) expect(plan).not.toMatch(/SCAN (library_tracks|t|f|library_folders)\b/)
  })

  test('one root id, 1, everywhere: the root, the songs in it; its folders have no parent (the root is not shown twice)', async () => {
    const root = await directory(db, '', noStars)
    if (!root) throw new Error('no root')
    expect([root.id, root.parent]).toEqual(['1', undefined])
    // Folders first, each with art only where a track in it has a cover; then the root's own songs.
    const children = root.child as Array<{ title: string; coverArt?: string; id: string; parent?: string; isDir: boolean }>
    expect(children.map((f) => [f.title, f.isDir, f.coverArt !== undefined && f.coverArt === f.id, f.parent])).toEqual([
      ['A', true, false, undefined],
      ['B', true, true, undefined],
      ['Top song', false, false, '1'],
    ])
    const indexes = await folderIndex(db, noStars)
    expect((indexes.child as Array<{ title: string; parent: string }>).map((s) => [s.title, s.parent])).toEqual([['Top song', '1']])
    // An artist folder opened has no parent either; what is in it names it.
    const a = await directory(db, 'A', noStars)
    expect(a?.parent).toBeUndefined()
    const b = await directory(db, 'B', noStars)
    if (!b) throw new Error('no folder B')
    expect((b.child as Array<{ title: string; parent?: string }>).map((c) => [c.title, c.parent])).toEqual([
      ['Live', b.id as string],
      ['B song', b.id as string],
    ])
  })

  test("getTopSongs counts a song's bare and signed plays, not those of files whose URLs start alike", async () => {
    expect((await topSongs(db, 'Ar', 2, noStars)).map((s) => s.title)).toEqual(['Song 2', 'Song 5'])
  })

  test("a member's ratings (every answer's userRating) and highest-rated albums come from an index alone", async () => {
    const plans = [...(await plansOf(() => ratingsOf(db, USER))), ...(await plansOf(() => albumList(db, USER, { type: 'highest', size: 10, offset: 0 })))]
    const ratings = plans.filter((p) => /\bratings\b| r USING/.test(p))
    expect(ratings.length).toBe(3)
    for (const plan of ratings) expect(plan).toMatch(/USING COVERING INDEX ratings_user_kind_rating_idx/)
  })

  test("play counts are one range seek per song in play_events' track index", async () => {
    const plans = (await plansOf(() => topSongs(db, 'Ar', 2, noStars))).filter((p) => p.includes('play_events'))
    expect(plans.length).toBe(1)
    expect(plans[0]).toMatch(/SEARCH p USING COVERING INDEX play_events_track_started_idx \(track_url>\? AND track_url<\?\)/)
    expect(plans[0]).not.toMatch(/MULTI-INDEX OR/)
  })
})
