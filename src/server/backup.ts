// `vibes backup <file>` / `bun run backup -- <file>`: a consistent copy of the live database while
// the server runs and writes. SQLite's `VACUUM INTO` reads inside one transaction, so under WAL
// it copies one committed snapshot without blocking the server's writer (a plain file copy of
// vibes.db could miss pages still in the -wal file or catch a checkpoint half done). The copy
// is compact (no free pages) and a complete database on its own: restoring is replacing
// DATA_DIR/vibes.db with it while the server is stopped (README "Command line").
//
// With DATABASE_URL=postgres://… the database is PostgreSQL's, and the copy is pg_dump's (custom
// format, one consistent snapshot while the nodes keep writing; restored with pg_restore). pg_dump
// is found on PATH, else the newest under /usr/lib/postgresql/*/bin (Debian's server packages). It
// is spawned with an argument array, never a shell; the password goes in PGPASSWORD, not in the
// arguments, where other users of the machine could read it.
import { Database } from 'bun:sqlite'
import { closeSync, existsSync, openSync, readdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'

/** A failure an operator can act on: printed as one line, exit 1. */
export class BackupError extends Error {}

/**
 * Copies the database `dbFile` to `target`, which must not exist yet (a backup never replaces
 * a file), created owner-only (0600: it holds password hashes and sessions). Returns its size.
 */
export function backupDatabase(dbFile: string, target: string): number {
  if (!existsSync(dbFile)) throw new BackupError(`No database at ${dbFile} (set DATA_DIR to the server's data folder)`)
  // VACUUM INTO accepts an empty file as its target.
  createTarget(target)
  const db = new Database(dbFile, { readwrite: true, create: false })
  try {
    // Under WAL a reader waits only in rare moments (the log being reset, recovery); wait them out.
    db.exec('PRAGMA busy_timeout = 10000')
    db.query('VACUUM INTO ?').run(target)
  } catch (error) {
    rmSync(target, { force: true })
    throw new BackupError(`Backup failed: ${(error as Error).message}`)
  } finally {
    db.close()
  }
  return statSync(target).size
}

/**
 * Creates `target` empty, exclusively and owner-only: the refusal to overwrite cannot race, and
 * the mode is ours whoever writes into it next.
 */
function createTarget(target: string) {
  try {
    closeSync(openSync(target, 'wx', 0o600))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') throw new BackupError(`${target} already exists; a backup never overwrites a file (choose a new name)`)
    if (code === 'ENOENT') throw new BackupError(`Cannot write ${target}: the folder ${path.dirname(target)} does not exist`)
    throw new BackupError(`Cannot write ${target}: ${(error as Error).message}`)
  }
}

/** pg_dump on `searchPath`, else the newest of `versionsDir`/<major>/bin/pg_dump; null when neither has one. */
export function findPgDump(searchPath = process.env.PATH ?? '', versionsDir = '/usr/lib/postgresql'): string | null {
  const onPath = Bun.which('pg_dump', { PATH: searchPath })
  if (onPath) return onPath
  const majors = existsSync(versionsDir) ? readdirSync(versionsDir).filter((v) => /^\d+$/.test(v)) : []
  for (const major of majors.sort((a, b) => Number(b) - Number(a))) {
    const candidate = path.join(versionsDir, major, 'bin', 'pg_dump')
    if (existsSync(candidate)) return candidate
  }
  return null
}

/** `user@host:port/database` of a postgres:// URL: what the command may print (never the password). */
export const describePostgres = (url: URL) => `${decodeURIComponent(url.username) || '(default user)'}@${url.host}${url.pathname}`

/**
 * pg_dump of the database at `databaseUrl` to `target` (custom format), which must not exist yet;
 * created owner-only. Returns its size. `pgDump`: the program (findPgDump by default).
 */
export async function backupPostgres(databaseUrl: string, target: string, pgDump = findPgDump()): Promise<number> {
  if (!pgDump)
    throw new BackupError(
      'DATABASE_URL is PostgreSQL, so backup runs pg_dump, which is not on PATH nor in /usr/lib/postgresql/*/bin (install postgresql-client)',
    )
  const url = new URL(databaseUrl)
  const password = decodeURIComponent(url.password)
  url.password = ''
  createTarget(target)
  const proc = Bun.spawn([pgDump, '--format=custom', '--no-password', `--file=${target}`, `--dbname=${url.href}`], {
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'pipe',
  })
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  if (code !== 0) {
    rmSync(target, { force: true })
    const reason =
      stderr
        .trim()
        .split('\n')[0]
        ?.replace(/^pg_dump: (error: )?/, '') || `exit code ${code}`
    throw new BackupError(`Backup failed: pg_dump could not dump ${describePostgres(url)}: ${reason}`)
  }
  return statSync(target).size
}

const formatSize = (bytes: number) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1048576).toFixed(1)} MB`)

/** The command: one line saying where the copy went and how big it is; returns the exit code. */
export async function runBackup(file: string): Promise<number> {
  // The same environment as the server, so the copy is of the database the server uses; parsed
  // without the server's start-up effects, so a wrong DATA_DIR creates nothing.
  const { parseProcessEnv } = await import('./config-env')
  const parsed = parseProcessEnv()
  if ('error' in parsed) {
    console.error(parsed.error)
    return 1
  }
  const target = path.resolve(file)
  try {
    const databaseUrl = parsed.env.DATABASE_URL
    if (databaseUrl) {
      const bytes = await backupPostgres(databaseUrl, target)
      console.log(`Backed up PostgreSQL ${describePostgres(new URL(databaseUrl))} to ${target} with pg_dump (${formatSize(bytes)}, ${bytes} bytes)`)
      return 0
    }
    const dbFile = path.join(path.resolve(parsed.env.DATA_DIR), 'vibes.db')
    const bytes = backupDatabase(dbFile, target)
    console.log(`Backed up ${dbFile} to ${target} (${formatSize(bytes)}, ${bytes} bytes)`)
    return 0
  } catch (error) {
    if (!(error instanceof BackupError)) throw error
    console.error(error.message)
    return 1
  }
}
