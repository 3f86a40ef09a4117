// `vibes db copy --to postgres://…`: moves a stopped SQLite instance into an empty PostgreSQL
// database (decision 074). The target is migrated first, then every table is copied in
// foreign-key order, in batches streamed from SQLite (memory stays bounded however many plays),
// keeping ids; identity sequences are moved past the copied ids; and before anything is committed
// each table's row count and an order-independent checksum of its rows are compared between the
// two engines, and the copied tables are analyzed for the planner. The copy is one PostgreSQL transaction: a failure or a mismatch rolls it back and
// leaves the target as empty as it was, so the command can simply be run again.
//
// Roll-up tables are copied as they are, with the tables' own triggers disabled for the copy
// (inside the transaction): the target's roll-ups then equal the SQLite ones exactly, and the
// copy does not run the per-play triggers a million times. The roll-ups only PostgreSQL has
// (src/db/pg/derived-rollups.ts) are then filled from the copied ones.
import { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import { SQL } from 'bun'
import { PG_DERIVED_ROLLUP_TABLES, REFILL_DERIVED_ROLLUPS } from './derived-rollups'
import { migratePostgres } from './migrate'

/** A failure an operator can act on: printed as one line, exit 1. */
export class CopyError extends Error {}

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table. */
const MAX_PARAMETERS = 30_000
const MAX_BATCH_ROWS = 2_000
/** Rows fetched at a time when reading the target back to verify it. */
const FETCH_ROWS = 5_000

type Column = { name: string; type: string; generated: boolean; identity: boolean }
type Table = { name: string; columns: Column[] }
export type TableReport = { table: string; rows: number; checksum: string }
export type CopyOptions = {
  /** 'copy' (the default): roll-up tables copied, triggers off. 'rebuild': roll-ups left to the triggers (measured in bench/db-copy.ts). */
  rollups?: 'copy' | 'rebuild'
  migrationsFolder?: string
  log?: (line: string) => void
  /** Called after each table is written; the tests use it to break the copy part-way. */
  afterTable?: (table: string) => Promise<void> | void
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/** The target URL without its password, for messages. */
export function redactUrl(url: string) {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return '(unparsable URL)'
  }
}

/**
 * Opens the SQLite file holding SQLite's exclusive lock for as long as the copy runs. A running
 * server keeps a shared lock on its database for as long as it has it open (WAL mode), so taking
 * the exclusive lock fails at once while it runs; and once taken, a server starting mid-copy
 * cannot write to the source.
 */
export function openStoppedSqlite(file: string): Database {
  if (!existsSync(file)) throw new CopyError(`No database at ${file} (set DATA_DIR to the server's data folder)`)
  const db = new Database(file, { readwrite: true, create: false, strict: true })
  try {
    db.exec('PRAGMA busy_timeout = 0')
    db.exec('PRAGMA locking_mode = EXCLUSIVE')
    db.exec('BEGIN EXCLUSIVE')
    db.exec('COMMIT')
  } catch (error) {
    db.close()
    if (/locked|busy/i.test((error as Error).message))
      throw new CopyError(`The server is running on ${file}: stop it first, then copy (the copy must see a database nobody writes)`)
    throw new CopyError(`Cannot open ${file}: ${(error as Error).message}`)
  }
  return db
}

/** The tables SQLite holds data in: not its own, not Drizzle's journal, not the FTS5 search tables or their shadow tables (PostgreSQL indexes search itself). */
function sqliteTableNames(db: Database): string[] {
  const all = db.query("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'").all() as {
    name: string
    sql: string
  }[]
  const virtual = all.filter((t) => t.sql.startsWith('CREATE VIRTUAL TABLE')).map((t) => t.name)
  return all.map((t) => t.name).filter((name) => !virtual.includes(name) && !virtual.some((v) => name.startsWith(`${v}_`)))
}

async function publicTables(client: SQL): Promise<string[]> {
  const rows = (await client`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`) as { tablename: string }[]
  return rows.map((r) => r.tablename)
}

/** Refuses a target holding any rows: the copy never mixes two instances' data. Nothing is written. */
async function refuseNonEmpty(client: SQL, target: string) {
  for (const table of await publicTables(client)) {
    const [row] = (await client.unsafe(`SELECT EXISTS (SELECT 1 FROM ${quote(table)}) AS taken`)) as { taken: boolean }[]
    if (row.taken) throw new CopyError(`The target database ${target} is not empty (table ${table} has rows): copy only into an empty database`)
  }
}

/** The target's tables with their columns, parents before children (foreign keys). */
async function targetTables(client: SQL, names: string[]): Promise<Table[]> {
  const columns = (await client`SELECT table_name, column_name, data_type, is_generated, is_identity FROM information_schema.columns
    WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`) as {
    table_name: string
    column_name: string
    data_type: string
    is_generated: string
    is_identity: string
  }[]
  const edges = (await client`SELECT DISTINCT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE c.contype = 'f' AND n.nspname = 'public'`) as { child: string; parent: string }[]
  const unquote = (name: string) => name.replace(/^"(.*)"$/, '$1').replaceAll('""', '"')
  const tables = new Map<string, Table>()
  for (const name of names) {
    const cols = columns.filter((c) => c.table_name === name)
    if (cols.length === 0)
      throw new CopyError(`Table ${name} is in the SQLite database but not in PostgreSQL after migrating (is this binary older than the database?)`)
    tables.set(name, {
      name,
      columns: cols.map((c) => ({ name: c.column_name, type: c.data_type, generated: c.is_generated === 'ALWAYS', identity: c.is_identity === 'YES' })),
    })
  }
  const ordered: Table[] = []
  const visiting = new Set<string>()
  const visit = (name: string) => {
    if (ordered.some((t) => t.name === name) || visiting.has(name)) return
    visiting.add(name)
    for (const e of edges) if (unquote(e.child) === name && unquote(e.parent) !== name) visit(unquote(e.parent))
    const table = tables.get(name)
    if (table) ordered.push(table)
  }
  for (const name of [...tables.keys()].sort()) visit(name)
  return ordered
}

const NUMERIC = new Set(['bigint', 'integer', 'smallint', 'double precision', 'real', 'numeric'])

/** One value as the same string on both engines (SQLite's 0/1 booleans, PostgreSQL's int8 strings). */
function normalise(value: unknown, type: string): string {
  if (value === null || value === undefined) return '\u0000'
  if (type === 'boolean') return value === true || value === 1 ? '1' : '0'
  if (NUMERIC.has(type)) return String(Number(value))
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex')
  return String(value)
}

/** An order-independent checksum: the sum (mod 2^64) of a 64-bit hash of each row's normalised values. */
class Checksum {
  sum = 0n
  rows = 0
  add(row: Record<string, unknown>, columns: Column[]) {
    const text = columns.map((c) => normalise(row[c.name], c.type)).join('\u0001')
    this.sum = BigInt.asUintN(64, this.sum + BigInt(Bun.hash.wyhash(text)))
    this.rows++
  }
  get hex() {
    return this.sum.toString(16).padStart(16, '0')
  }
}

/** Converts SQLite's stored value to what the PostgreSQL column takes. */
function toPg(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null
  if (type === 'boolean') return value === 1 || value === true
  return value
}

async function copyTable(tx: SQL, source: Database, table: Table, checksum: Checksum) {
  const writable = table.columns.filter((c) => !c.generated)
  const names = writable.map((c) => quote(c.name)).join(', ')
  const batchRows = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / writable.length)))
  const selectList = table.columns.map((c) => quote(c.name)).join(', ')
  let batch: unknown[][] = []
  const flush = async () => {
    if (batch.length === 0) return
    const params: unknown[] = []
    const tuples = batch.map((row) => {
      const start = params.push(...row) - row.length
      return `(${row.map((_, i) => `$${start + i + 1}`).join(', ')})`
    })
    await tx.unsafe(`INSERT INTO ${quote(table.name)} (${names}) VALUES ${tuples.join(', ')}`, params)
    batch = []
  }
  // iterate() steps the statement row by row: only one batch is in memory at a time.
  for (const row of source.query(`SELECT ${selectList} FROM ${quote(table.name)}`).iterate() as IterableIterator<Record<string, unknown>>) {
    checksum.add(row, table.columns)
    batch.push(writable.map((c) => toPg(row[c.name], c.type)))
    if (batch.length >= batchRows) await flush()
  }
  await flush()
}

/** Reads the copied table back through a cursor (bounded memory) and checksums it the same way. */
async function checksumTarget(tx: SQL, table: Table): Promise<Checksum> {
  const checksum = new Checksum()
  const selectList = table.columns.map((c) => quote(c.name)).join(', ')
  await tx.unsafe(`DECLARE verify_rows NO SCROLL CURSOR FOR SELECT ${selectList} FROM ${quote(table.name)}`)
  for (;;) {
    const rows = (await tx.unsafe(`FETCH ${FETCH_ROWS} FROM verify_rows`)) as Record<string, unknown>[]
    for (const row of rows) checksum.add(row, table.columns)
    if (rows.length < FETCH_ROWS) break
  }
  await tx.unsafe('CLOSE verify_rows')
  return checksum
}

/**
 * Copies SQLite `sqliteFile` (stopped) into the empty PostgreSQL database at `targetUrl` and
 * verifies it; throws CopyError (nothing committed) on refusal, failure or mismatch.
 */
export async function copyDatabase(sqliteFile: string, targetUrl: string, options: CopyOptions = {}): Promise<{ tables: TableReport[]; rows: number }> {
  const log = options.log ?? (() => {})
  const rollups = options.rollups ?? 'copy'
  const target = redactUrl(targetUrl)
  const source = openStoppedSqlite(sqliteFile)
  const client = new SQL({ url: targetUrl, max: 1 })
  try {
    try {
      await client`SELECT 1`
    } catch (error) {
      throw new CopyError(`Cannot connect to ${target}: ${(error as Error).message}`)
    }
    await refuseNonEmpty(client, target)
    await migratePostgres(targetUrl, options.migrationsFolder)
    // Migrating may itself write rows (none today): the copy still starts from empty tables.
    await refuseNonEmpty(client, target)
    const tables = await targetTables(client, sqliteTableNames(source))
    const copied = rollups === 'copy' ? tables : tables.filter((t) => !t.name.startsWith('rollup_'))
    const reports: TableReport[] = []
    let current = ''
    try {
      await client.begin(async (tx) => {
        if (rollups === 'copy') for (const t of tables) await tx.unsafe(`ALTER TABLE ${quote(t.name)} DISABLE TRIGGER USER`)
        const sourceSums = new Map<string, Checksum>()
        for (const table of copied) {
          current = table.name
          const checksum = new Checksum()
          await copyTable(tx, source, table, checksum)
          sourceSums.set(table.name, checksum)
          await options.afterTable?.(table.name)
        }
        current = ''
        if (rollups === 'copy') for (const t of tables) await tx.unsafe(`ALTER TABLE ${quote(t.name)} ENABLE TRIGGER USER`)
        // The roll-ups only PostgreSQL has (nothing in SQLite to copy) are derived from the copied ones.
        for (const statement of REFILL_DERIVED_ROLLUPS) await tx.unsafe(statement)
        for (const table of tables) {
          for (const c of table.columns.filter((col) => col.identity)) {
            await tx.unsafe(
              `SELECT setval(pg_get_serial_sequence('${quote(table.name).replaceAll("'", "''")}', '${c.name.replaceAll("'", "''")}'), (SELECT max(${quote(c.name)}) FROM ${quote(table.name)}))`,
            )
          }
        }
        // Verified inside the transaction: a mismatch rolls everything back.
        for (const table of tables) {
          let expected = sourceSums.get(table.name)
          if (!expected) {
            // Rebuilt by the triggers, not copied: checksum the SQLite table to compare.
            expected = new Checksum()
            for (const row of source
              .query(`SELECT ${table.columns.map((c) => quote(c.name)).join(', ')} FROM ${quote(table.name)}`)
              .iterate() as IterableIterator<Record<string, unknown>>)
              expected.add(row, table.columns)
          }
          const actual = await checksumTarget(tx, table)
          if (actual.rows !== expected.rows)
            throw new CopyError(
              `Verification failed: table ${table.name} has ${expected.rows} rows in SQLite but ${actual.rows} in PostgreSQL; nothing was committed`,
            )
          if (actual.hex !== expected.hex)
            throw new CopyError(
              `Verification failed: table ${table.name} has ${expected.rows} rows on both but their contents differ (checksum ${expected.hex} in SQLite, ${actual.hex} in PostgreSQL); nothing was committed`,
            )
          log(`  ${table.name.padEnd(28)} ${String(expected.rows).padStart(9)} rows  checksum ${expected.hex}  ok`)
          reports.push({ table: table.name, rows: expected.rows, checksum: expected.hex })
        }
        // The planner has no statistics for freshly written tables until autovacuum gets round to
        // them (a minute or more), and plans the first queries blind. ANALYZE runs inside the
        // transaction, seeing its rows, so statistics and rows are committed together.
        const analyzed = [...tables.map((t) => t.name), ...PG_DERIVED_ROLLUP_TABLES]
        await tx.unsafe(`ANALYZE ${analyzed.map(quote).join(', ')}`)
        log(`Analyzed ${analyzed.length} tables (planner statistics)`)
      })
    } catch (error) {
      if (error instanceof CopyError) throw error
      const where = current ? ` while copying ${current}` : ''
      throw new CopyError(`Copy failed${where}: ${(error as Error).message}; nothing was committed (the target is still empty)`)
    }
    return { tables: reports, rows: reports.reduce((n, r) => n + r.rows, 0) }
  } finally {
    await client.close().catch(() => {})
    source.close()
  }
}

/** The command: per-table lines and a final summary; returns the exit code. */
export async function runDbCopy(targetUrl: string): Promise<number> {
  const { parseProcessEnv } = await import('../../server/config-env')
  const parsed = parseProcessEnv()
  if ('error' in parsed) {
    console.error(parsed.error)
    return 1
  }
  const path = await import('node:path')
  const dbFile = path.join(path.resolve(parsed.env.DATA_DIR), 'vibes.db')
  console.log(`Copying ${dbFile} to ${redactUrl(targetUrl)}`)
  try {
    const { tables, rows } = await copyDatabase(dbFile, targetUrl, { log: (line) => console.log(line) })
    console.log(`Copied ${tables.length} tables, ${rows} rows; verified`)
    return 0
  } catch (error) {
    if (!(error instanceof CopyError)) {
      console.error(`Copy failed: ${(error as Error).message}`)
      return 1
    }
    console.error(error.message)
    return 1
  }
}
