// OpenSubsonic's lists must stay quick on a large library (bench/subsonic-at-scale.ts times them
// at 100,000 tracks): the statements behind getAlbumList2 frequent/recent and getRandomSongs with
// a year range are recorded as they run on the real migrated schema, and SQLite's plan for each
// must read an index, never every row of the library or every play of the member.
import { beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { type Db, openDb } from '~/db/client'
import { albumList, randomSongs } from '~/server/subsonic/library'

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

/** The query plans of the statements `run` prepares, one string per statement. */
function plansOf(run: () => unknown): string[] {
  const c = db.$client
  const seen: string[] = []
  const query = c.query.bind(c)
  c.query = ((sql: string) => {
    seen.push(sql)
    return query(sql)
  }) as typeof c.query
  try {
    run()
  } finally {
    c.query = query
  }
  return seen.map((sql) =>
    (query(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null)) as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join('; '),
  )
}

describe('OpenSubsonic lists read an index', () => {
  test.each(['frequent', 'recent'] as const)("getAlbumList2 %s reads the member's plays from an index alone, not each play's row", (type) => {
    const plans = plansOf(() => albumList(db, USER, { type, size: 10, offset: 0 }))
    const plays = plans.filter((p) => p.includes('play_events'))
    expect(plays.length).toBe(1)
    expect(plays[0]).toMatch(/SEARCH play_events USING COVERING INDEX/)
  })

  test('getAlbumList2 frequent still answers with the most played albums first', () => {
    expect(albumList(db, USER, { type: 'frequent', size: 10, offset: 0 }).map((a) => a.name)).toEqual(['Album 0', 'Album 3', 'Album 2', 'Album 1'])
  })

  test('getRandomSongs with a year range does not read every track', () => {
    const plans = plansOf(() => randomSongs(db, { size: 5, fromYear: 1980, toYear: 1985 }, noStars))
    expect(plans.length).toBeGreaterThan(0)
    for (const plan of plans) expect(plan).not.toMatch(/SCAN (library_tracks|t)\b/)
  })

  test('getRandomSongs with a year range answers songs of those years only', () => {
    const songs = randomSongs(db, { size: 50, fromYear: 1980, toYear: 1985 }, noStars)
    expect(songs.map((s) => s.year as number).sort()).toEqual([1980, 1981, 1982, 1983, 1984, 1985])
  })
})
