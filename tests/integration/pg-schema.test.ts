// The PostgreSQL schema against the SQLite one, on a real PostgreSQL 15 (tests/helpers/postgres.ts):
// the committed migrations apply to a fresh database; two processes starting together apply them
// once (the advisory lock); and every table, column (type class, nullability, generated or not),
// primary key, index and foreign key the app's SQLite database has exists the same on PostgreSQL,
// and nothing more. The intended differences, listed below: search (SQLite's FTS5 tables are replaced
// on PostgreSQL by expression indexes on the tables themselves, decision 071) and the roll-ups only
// PostgreSQL has (decision 104).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SQL } from 'bun'
import { eq, inArray } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/bun-sql'
import { openDb } from '../../src/db/client'
import { PG_DERIVED_ROLLUP_TABLES } from '../../src/db/pg/derived-rollups'
import { MIGRATION_LOCK_KEY, migratePostgres, PG_MIGRATIONS_FOLDER } from '../../src/db/pg/migrate'
import { pgTables } from '../../src/db/pg/schema'
import * as sqliteTables from '../../src/db/schema'
import { startPostgres, type TestPostgres } from '../helpers/postgres'

const ROOT = path.resolve(import.meta.dir, '../..')
const SQLITE_MIGRATIONS = path.join(ROOT, 'src/db/migrations')
const journalEntries = (JSON.parse(readFileSync(path.join(PG_MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')).entries as unknown[]).length

/** SQLite's FTS5 search tables and the PostgreSQL index that answers the same searches. */
const SEARCH_REPLACED: Record<string, { table: string; index: string }> = {
  library_tracks_fts: { table: 'library_tracks', index: 'library_tracks_search_idx' },
  library_albums_fts: { table: 'library_albums', index: 'library_albums_search_idx' },
  library_artists_fts: { table: 'library_artists', index: 'library_artists_search_idx' },
}
const PG_SEARCH_INDEXES = new Set(Object.values(SEARCH_REPLACED).map((s) => `${s.table}.${s.index}`))
/** Tables only PostgreSQL has: the roll-ups derived from the shared ones (src/db/pg/derived-rollups.ts, decision 104). */
const PG_ONLY_TABLES = [...PG_DERIVED_ROLLUP_TABLES] as string[]

type Shape = {
  columns: Record<string, { type: string; notNull: boolean; generated: boolean }>
  primaryKey: string[]
  indexes: Record<string, { unique: boolean; columns: string[] }>
  foreignKeys: string[]
}

/** The storage class a declared type falls in, the same words for both engines. */
function typeClass(declared: string) {
  const t = declared.toLowerCase()
  if (['integer', 'bigint', 'smallint', 'boolean'].includes(t)) return 'integer'
  if (['real', 'double precision', 'numeric'].includes(t)) return 'real'
  if (['text', 'jsonb', 'json', 'character varying'].includes(t)) return 'text'
  if (['blob', 'bytea'].includes(t)) return 'blob'
  return `unknown:${t}`
}

function sqliteShapes(file: string) {
  const db = openDb(file, SQLITE_MIGRATIONS).$client
  const all = db.query("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'").all() as {
    name: string
    sql: string
  }[]
  const virtual = all.filter((t) => t.sql.startsWith('CREATE VIRTUAL TABLE')).map((t) => t.name)
  // An FTS5 table keeps its index in shadow tables named after it.
  const isShadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`))
  const shapes: Record<string, Shape> = {}
  for (const { name } of all.filter((t) => !virtual.includes(t.name) && !isShadow(t.name))) {
    const cols = db.query(`PRAGMA table_xinfo("${name}")`).all() as { name: string; type: string; notnull: number; pk: number; hidden: number }[]
    const shape: Shape = { columns: {}, primaryKey: [], indexes: {}, foreignKeys: [] }
    for (const c of cols) {
      // A PRIMARY KEY column is NOT NULL on PostgreSQL; SQLite only enforces it for INTEGER ones.
      shape.columns[c.name] = { type: typeClass(c.type), notNull: c.notnull === 1 || c.pk > 0, generated: c.hidden === 2 || c.hidden === 3 }
    }
    shape.primaryKey = cols
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name)
    for (const idx of db.query(`PRAGMA index_list("${name}")`).all() as { name: string; unique: number; origin: string }[]) {
      if (idx.origin === 'pk') continue
      const parts = db.query(`PRAGMA index_xinfo("${idx.name}")`).all() as { name: string | null; desc: number; key: number }[]
      const columns = parts.filter((p) => p.key === 1).map((p) => `${p.name ?? '(expression)'}${p.desc ? ' DESC' : ''}`)
      shape.indexes[idx.name] = { unique: idx.unique === 1, columns }
    }
    const fks = db.query(`PRAGMA foreign_key_list("${name}")`).all() as {
      id: number
      table: string
      from: string
      to: string
      on_delete: string
      on_update: string
    }[]
    const byId = new Map<number, typeof fks>()
    for (const fk of fks) byId.set(fk.id, [...(byId.get(fk.id) ?? []), fk])
    shape.foreignKeys = [...byId.values()]
      .map((parts) => {
        const [first] = parts
        return `(${parts.map((p) => p.from).join(',')}) → ${first.table}(${parts.map((p) => p.to).join(',')}) ON DELETE ${first.on_delete} ON UPDATE ${first.on_update}`
      })
      .sort()
    shapes[name] = shape
  }
  db.close()
  return { shapes, virtual }
}

const FK_ACTION: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' }

async function postgresShapes(client: SQL) {
  const shapes: Record<string, Shape> = {}
  const tables = (await client`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`) as { tablename: string }[]
  for (const { tablename: name } of tables) {
    const shape: Shape = { columns: {}, primaryKey: [], indexes: {}, foreignKeys: [] }
    const cols = (await client`SELECT column_name, data_type, is_nullable, is_generated FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = ${name}`) as { column_name: string; data_type: string; is_nullable: string; is_generated: string }[]
    for (const c of cols) {
      shape.columns[c.column_name] = { type: typeClass(c.data_type), notNull: c.is_nullable === 'NO', generated: c.is_generated === 'ALWAYS' }
    }
    const indexes = (await client`SELECT i.relname AS name, x.indisunique AS unique, x.indisprimary AS primary, x.indnkeyatts AS n,
        array_to_string(x.indkey, ' ') AS keys, array_to_string(x.indoption, ' ') AS options, x.indexrelid::int AS oid
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = ${`public.${name}`}::regclass`) as {
      name: string
      unique: boolean
      primary: boolean
      n: number
      keys: string
      options: string
      oid: number
    }[]
    for (const idx of indexes) {
      const keys = idx.keys.split(' ').map(Number)
      const options = idx.options.split(' ').map(Number)
      const columns: string[] = []
      for (let k = 0; k < idx.n; k++) {
        const [{ def }] = (await client`SELECT pg_get_indexdef(${idx.oid}::oid, ${k + 1}::int, true) AS def`) as { def: string }[]
        // indoption bit 0: DESC.
        columns.push(`${keys[k] === 0 ? '(expression)' : def.replaceAll('"', '')}${options[k] & 1 ? ' DESC' : ''}`)
      }
      if (idx.primary) shape.primaryKey = columns
      else shape.indexes[idx.name] = { unique: idx.unique, columns }
    }
    const fks = (await client`SELECT c.confrelid::regclass::text AS target, c.confdeltype AS del, c.confupdtype AS upd,
        (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(c.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n) AS cols,
        (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(c.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n) AS refs
      FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid = ${`public.${name}`}::regclass`) as {
      target: string
      del: string
      upd: string
      cols: string
      refs: string
    }[]
    shape.foreignKeys = fks.map((f) => `(${f.cols}) → ${f.target}(${f.refs}) ON DELETE ${FK_ACTION[f.del]} ON UPDATE ${FK_ACTION[f.upd]}`).sort()
    shapes[name] = shape
  }
  return shapes
}

/** Runs the app's PostgreSQL migrator in a separate process, as a starting node would. */
function migratorProcess(url: string) {
  return Bun.spawn(['bun', '-e', `import { migratePostgres } from './src/db/pg/migrate.ts'; await migratePostgres(process.env.PG_URL)`], {
    cwd: ROOT,
    env: { ...process.env, PG_URL: url },
    stdout: 'pipe',
    stderr: 'pipe',
  })
}

async function finished(proc: ReturnType<typeof migratorProcess>) {
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  return { code, err }
}

let pg: TestPostgres
let sqliteDir: string

beforeAll(async () => {
  pg = await startPostgres()
  sqliteDir = mkdtempSync(path.join(tmpdir(), 'vibes-pg-schema-'))
})

afterAll(async () => {
  await pg?.stop()
  rmSync(sqliteDir, { recursive: true, force: true })
})

describe('PostgreSQL migrations', () => {
  test('two nodes starting together on a fresh database: both succeed, the migrations are applied once', async () => {
    await pg.createDatabase('together')
    const url = pg.url('together')
    const client = new SQL({ url, max: 1 })
    try {
      // Hold the lock as a third node would while migrating, so both starters are seen waiting on it.
      await client`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`
      const starters = [migratorProcess(url), migratorProcess(url)]
      for (;;) {
        const [{ waiting }] = (await client`SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`) as { waiting: number }[]
        if (waiting === 2) break
        await Bun.sleep(50)
      }
      const [{ tables }] = (await client`SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname = 'public'`) as { tables: number }[]
      expect(tables).toBe(0)
      await client`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`
      const results = await Promise.all(starters.map(finished))
      expect(results).toEqual([
        { code: 0, err: '' },
        { code: 0, err: '' },
      ])
      const applied = (await client`SELECT hash FROM drizzle.__drizzle_migrations`) as { hash: string }[]
      expect(applied.length).toBe(journalEntries)
      expect(new Set(applied.map((a) => a.hash)).size).toBe(journalEntries)
    } finally {
      await client.close()
    }
  })

  test('every SQLite table, column, key, index and foreign key exists the same on PostgreSQL', async () => {
    await pg.createDatabase('compare')
    const url = pg.url('compare')
    const first = await finished(migratorProcess(url))
    expect(first).toEqual({ code: 0, err: '' })
    const { shapes: sqlite, virtual } = sqliteShapes(path.join(sqliteDir, 'vibes.db'))
    expect(virtual.sort()).toEqual(Object.keys(SEARCH_REPLACED).sort())

    const client = new SQL({ url, max: 1 })
    try {
      const postgres = await postgresShapes(client)
      for (const shape of Object.values(SEARCH_REPLACED)) {
        expect(Object.keys(postgres[shape.table]?.indexes ?? {})).toContain(shape.index)
      }
      for (const [table, shape] of Object.entries(postgres)) {
        for (const name of Object.keys(shape.indexes)) if (PG_SEARCH_INDEXES.has(`${table}.${name}`)) delete shape.indexes[name]
      }
      for (const table of PG_ONLY_TABLES) {
        expect(Object.keys(postgres)).toContain(table)
        delete postgres[table]
      }
      expect(Object.keys(postgres).sort()).toEqual(Object.keys(sqlite).sort())
      for (const table of Object.keys(sqlite)) expect({ table, ...postgres[table] }).toEqual({ table, ...sqlite[table] })
    } finally {
      await client.close()
    }
  })

  test('the same plays and hits leave the same roll-ups on both engines (the triggers)', async () => {
    await pg.createDatabase('rollups')
    const url = pg.url('rollups')
    await migratePostgres(url)
    const client = new SQL({ url, max: 1 })
    const sqliteDb = openDb(path.join(sqliteDir, 'rollups.db'), SQLITE_MIGRATIONS)
    const engines = [
      { name: 'sqlite', db: sqliteDb, t: sqliteTables },
      { name: 'postgres', db: drizzle({ client }), t: pgTables },
    ]
    const DAY = 86_400_000
    const t0 = Date.UTC(2026, 0, 5, 10)
    const play = (id: string, userId: string | null, at: number, extra: Record<string, unknown> = {}) => ({
      id,
      userId,
      trackUrl: '/media/a.mp3',
      title: 'A',
      artist: 'X',
      genre: 'Rock',
      duration: 200,
      startedAt: new Date(at),
      updatedAt: new Date(at),
      ...extra,
    })
    try {
      // The same code against either engine: what the services will run.
      for (const { db, t } of engines) {
        // One body for both engines' Drizzle databases, whose types differ.
        const d = db as any
        await d.insert(t.users).values(['u1', 'u2'].map((id) => ({ id, username: id, email: `${id}@x.test`, passwordHash: 'h' })))
        await d.insert(t.playEvents).values(play('p1', 'u1', t0, { country: 'SE', region: 'Stockholm', city: 'Stockholm', playlistId: 'pl1', sessionId: 's1' }))
        await d.insert(t.playEvents).values(play('p2', 'u1', t0 + DAY, { trackUrl: '/media/a.mp3?sig=abc', country: 'SE', liked: true }))
        await d
          .insert(t.playEvents)
          .values([
            play('p3', 'u2', t0 + 3_600_000, { genre: null, trackUrl: '/media/b.mp3', title: 'B', artist: null }),
            play('p4', null, t0 + 2 * DAY, { country: 'NO', source: 'radio' }),
            play('p5', 'u2', t0 + DAY, { country: 'NO', region: 'Oslo', city: 'Oslo', playlistId: 'pl1', completed: true, listenDuration: 200 }),
          ])
        await d.update(t.playEvents).set({ listenDuration: 180, completed: true, liked: true }).where(eq(t.playEvents.id, 'p1'))
        await d.update(t.playEvents).set({ bufferCount: 2, qualityDrops: 1, skipped: true, skipTime: 12 }).where(eq(t.playEvents.id, 'p3'))
        await d
          .update(t.playEvents)
          .set({ startedAt: new Date(t0 + 3 * DAY), country: 'DK' })
          .where(eq(t.playEvents.id, 'p2'))
        await d.delete(t.playEvents).where(inArray(t.playEvents.id, ['p4', 'p5']))
        await d.update(t.playEvents).set({ liked: false }).where(eq(t.playEvents.id, 'p1'))
        await d.insert(t.pageHits).values([
          { page: '/', visitorHash: 'v1', createdAt: new Date(t0) },
          { page: '/', visitorHash: 'v1', createdAt: new Date(t0 + 60_000) },
          { page: '/about', visitorHash: 'v1', createdAt: new Date(t0 + 120_000) },
          { page: '/', visitorHash: 'v2', createdAt: new Date(t0 + DAY) },
        ])
        await d.insert(t.playEvents).values(play('p6', 'u2', t0 + 4 * DAY, { country: 'SE', region: 'Skåne', city: 'Malmö' }))
        // A second play of the track that day: its day row grows rather than appears.
        await d.insert(t.playEvents).values(play('p7', 'u1', t0 + 4 * DAY + 60_000))
        // A track's only play of a week, gone again: its week has no plays left.
        await d.insert(t.playEvents).values(play('p8', 'u1', t0 - 7 * DAY, { trackUrl: '/media/c.mp3', title: 'C' }))
        await d.delete(t.playEvents).where(eq(t.playEvents.id, 'p8'))
        await d.delete(t.users).where(eq(t.users.id, 'u2'))
      }
      const rollupTables = (
        sqliteDb.$client.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rollup_%' ORDER BY name").all() as { name: string }[]
      ).map((r) => r.name)
      expect(rollupTables.length).toBe(20)
      // Rows as sorted JSON, numbers as numbers (PostgreSQL's bigint arrives as a string).
      const normal = (rows: Record<string, unknown>[]) =>
        rows.map((row) => JSON.stringify(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v]))).sort()
      let nonEmpty = 0
      for (const table of rollupTables) {
        const fromSqlite = normal(sqliteDb.$client.query(`SELECT * FROM ${table}`).all() as Record<string, unknown>[])
        const fromPostgres = normal((await client.unsafe(`SELECT * FROM ${table}`)) as Record<string, unknown>[])
        expect({ table, rows: fromPostgres }).toEqual({ table, rows: fromSqlite })
        if (fromSqlite.length > 0) nonEmpty++
      }
      // The sequence above reaches every roll-up, so an empty pair proves nothing was missed.
      expect(nonEmpty).toBe(rollupTables.length)
      // PostgreSQL's track weeks (decision 104) stay the sums of the day rows through every insert,
      // update, move and delete above (the plays span a week boundary: 5 January 2026 is day 4 of
      // its week, `day % 7`), with no row for a week whose plays are gone.
      const weeks = async (query: string) => normal((await client.unsafe(query)) as Record<string, unknown>[])
      const kept = await weeks('SELECT * FROM rollup_week_tracks')
      expect(kept).toEqual(
        await weeks(`SELECT day / 7 AS week, track_key, ${[0, 1, 2, 3, 4, 5, 6].map((i) => `coalesce(sum(plays) FILTER (WHERE day % 7 = ${i}), 0) AS plays_${i}`).join(', ')}
          FROM rollup_day_tracks GROUP BY 1, 2`),
      )
      expect(new Set(kept.map((row) => JSON.parse(row)[0][1])).size).toBe(2)
    } finally {
      sqliteDb.$client.close()
      await client.close()
    }
  })

  test('search on PostgreSQL finds word prefixes blind to case and accents, through the search index', async () => {
    await pg.createDatabase('search')
    const url = pg.url('search')
    await migratePostgres(url)
    const client = new SQL({ url, max: 1 })
    const db = drizzle({ client })
    const track = (n: number, title: string, artist: string, album: string, genre: string | null) => ({
      id: `t${n}`,
      path: `${n}.mp3`,
      folder: '',
      title,
      artist,
      artistId: `a${n}`,
      albumArtist: artist,
      albumArtistId: `a${n}`,
      album,
      albumId: `al${n}`,
      genre,
      duration: 60,
      mime: 'audio/mpeg',
      size: 5_000_000_000,
      mtimeMs: Date.UTC(2026, 0, 1),
      embeddedCover: false,
      addedAt: new Date(Date.UTC(2026, 0, 1)),
    })
    try {
      await db
        .insert(pgTables.libraryTracks)
        .values([
          track(1, 'Jóga', 'Björk', 'Homogenic', 'Electronic'),
          track(2, 'Hyperballad', 'Björk', 'Post', null),
          track(3, 'AC/DC Tribute', 'Ådne', 'Æther', 'Rock'),
          track(4, 'Bachelorette', 'Other', 'Homogenic', 'Electronic'),
        ])
      const search = async (typed: string) =>
        (
          (await client`SELECT id FROM library_tracks WHERE library_search_document(title, artist, album, genre) @@ library_search_query(${typed}) ORDER BY id`) as {
            id: string
          }[]
        ).map((r) => r.id)
      expect(await search('bjo')).toEqual(['t1', 't2'])
      expect(await search('BJÖRK homo')).toEqual(['t1'])
      expect(await search('joga')).toEqual(['t1'])
      expect(await search('adne dc')).toEqual(['t3'])
      expect(await search('electro')).toEqual(['t1', 't4'])
      expect(await search("it's (")).toEqual([])
      expect(await search('')).toEqual([])
      // A 5 GB file's size and a millisecond time fit (bigint), and come back as the same values.
      const [row] = await db.select().from(pgTables.libraryTracks).where(eq(pgTables.libraryTracks.id, 't1'))
      expect({ size: row.size, addedAt: row.addedAt, embeddedCover: row.embeddedCover }).toEqual({
        size: 5_000_000_000,
        addedAt: new Date(Date.UTC(2026, 0, 1)),
        embeddedCover: false,
      })
      // SQLite's `title COLLATE NOCASE` reads the same here (the nocase collation).
      const byTitle = (await client`SELECT title FROM library_tracks ORDER BY title COLLATE NOCASE, seq`) as { title: string }[]
      expect(byTitle.map((r) => r.title)).toEqual(['AC/DC Tribute', 'Bachelorette', 'Hyperballad', 'Jóga'])
      const [{ n }] = (await client`SELECT count(*)::int AS n FROM library_tracks WHERE title COLLATE NOCASE IN ('hyperBALLAD', 'JÓGA')`) as { n: number }[]
      expect(n).toBe(2)
      // The planner can answer a search from the index (sequential scans priced out, as on a large table).
      await client`SET enable_seqscan = off`
      const plan =
        (await client`EXPLAIN SELECT id FROM library_tracks WHERE library_search_document(title, artist, album, genre) @@ library_search_query('bjo')`) as {
          'QUERY PLAN': string
        }[]
      expect(plan.map((p) => p['QUERY PLAN']).join('\n')).toContain('library_tracks_search_idx')
    } finally {
      await client.close()
    }
  })

  test('two nodes writing at once keep the roll-ups exact: one row per place, a visitor new once', async () => {
    await pg.createDatabase('concurrent')
    const url = pg.url('concurrent')
    await migratePostgres(url)
    const nodeA = new SQL({ url, max: 1 })
    const nodeB = new SQL({ url, max: 1 })
    const observer = new SQL({ url, max: 1 })
    const at = Date.UTC(2026, 0, 5, 10)
    try {
      const a = await nodeA.reserve()
      const b = await nodeB.reserve()
      await a`BEGIN`
      await b`BEGIN`
      await a`INSERT INTO page_hits (page, visitor_hash, created_at) VALUES ('/', 'v9', ${at})`
      await a`INSERT INTO play_events (id, track_url, title, country, started_at, updated_at) VALUES ('pa', '/m/a.mp3', 'A', 'SE', ${at}, ${at})`
      // Node B's writes of the same place and visitor, while node A's are not yet committed. Its play
      // has another source, hour and genre: no roll-up key shared with node A's before the place's,
      // so nothing but the roll-up lock makes it wait for A.
      const later = at + 3_600_000
      const bWrites = (async () => {
        await b`INSERT INTO play_events (id, track_url, title, genre, source, country, started_at, updated_at)
          VALUES ('pb', '/m/b.mp3', 'B', 'Jazz', 'radio', 'SE', ${later}, ${later})`
        await b`INSERT INTO page_hits (page, visitor_hash, created_at) VALUES ('/', 'v9', ${at + 1000})`
        await b`COMMIT`
      })()
      // Node A commits only once node B is under way and waiting on a lock A holds.
      for (;;) {
        const [{ waiting }] = (await observer`SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted`) as { waiting: number }[]
        if (waiting > 0) break
        await Bun.sleep(20)
      }
      await a`COMMIT`
      await bWrites
      a.release()
      b.release()
      const places = (await nodeA`SELECT country, plays::int FROM rollup_day_places`) as { country: string; plays: number }[]
      expect(places).toEqual([{ country: 'SE', plays: 2 }])
      const [hits] = (await nodeA`SELECT hits::int, visitors::int FROM rollup_hit_day_totals`) as { hits: number; visitors: number }[]
      expect(hits).toEqual({ hits: 2, visitors: 1 })
      const [pageHits] = (await nodeA`SELECT hits::int, visitors::int FROM rollup_hit_days`) as { hits: number; visitors: number }[]
      expect(pageHits).toEqual({ hits: 2, visitors: 1 })
    } finally {
      await nodeA.close()
      await nodeB.close()
      await observer.close()
    }
  })
})
