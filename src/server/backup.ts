// `vibes backup <file>` / `bun run backup -- <file>`: a consistent copy of the live database while
// the server runs and writes. SQLite's `VACUUM INTO` reads inside one transaction, so under WAL
// it copies one committed snapshot without blocking the server's writer (a plain file copy of
// vibes.db could miss pages still in the -wal file or catch a checkpoint half done). The copy
// is compact (no free pages) and a complete database on its own: restoring is replacing
// DATA_DIR/vibes.db with it while the server is stopped (README "Command line").
import { Database } from 'bun:sqlite'
import { closeSync, existsSync, openSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'

/** A failure an operator can act on: printed as one line, exit 1. */
export class BackupError extends Error {}

/**
 * Copies the database `dbFile` to `target`, which must not exist yet (a backup never replaces
 * a file), created owner-only (0600: it holds password hashes and sessions). Returns its size.
 */
export function backupDatabase(dbFile: string, target: string): number {
  if (!existsSync(dbFile)) throw new BackupError(`No database at ${dbFile} (set DATA_DIR to the server's data folder)`)
  // Created empty first, exclusively: the refusal to overwrite cannot race, and the mode is ours.
  // VACUUM INTO accepts an empty file as its target.
  let fd: number
  try {
    fd = openSync(target, 'wx', 0o600)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') throw new BackupError(`${target} already exists; a backup never overwrites a file (choose a new name)`)
    if (code === 'ENOENT') throw new BackupError(`Cannot write ${target}: the folder ${path.dirname(target)} does not exist`)
    throw new BackupError(`Cannot write ${target}: ${(error as Error).message}`)
  }
  closeSync(fd)
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
  const dbFile = path.join(path.resolve(parsed.env.DATA_DIR), 'vibes.db')
  const target = path.resolve(file)
  try {
    const bytes = backupDatabase(dbFile, target)
    console.log(`Backed up ${dbFile} to ${target} (${formatSize(bytes)}, ${bytes} bytes)`)
    return 0
  } catch (error) {
    if (!(error instanceof BackupError)) throw error
    console.error(error.message)
    return 1
  }
}
