// Entry of the single binary (scripts/build-binary.ts): everything it serves is embedded.
// Migrations are unpacked to a temporary folder for Drizzle's migrator (removed once migrated);
// the command line (--help, --version, backup) answers before either; `db copy` and a server on
// PostgreSQL have the PostgreSQL migrations unpacked first.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
// biome-ignore lint/suspicious/noTsIgnore: the module exists only after build:binary, so expect-error would fail the other way
// @ts-ignore generated at build time
import { clientFiles, geoipFile, migrationFiles, pgMigrationFiles } from '../../dist/binary/embedded'
import { runCommandLine } from './cli'

/** Writes embedded files to a new temporary folder, for a migrator that reads a folder. */
async function unpack(files: Record<string, string>, prefix: string) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix))
  for (const [name, file] of Object.entries(files)) {
    const target = path.join(dir, name)
    mkdirSync(path.dirname(target), { recursive: true })
    writeFileSync(target, new Uint8Array(await Bun.file(file).arrayBuffer()))
  }
  return dir
}

// The PostgreSQL migrations, for `db copy`'s target and for a server on DATABASE_URL (migrated
// before it listens); the folder goes when the process ends or, serving, once it listens.
let pgMigrationsDir: string | null = null
if (process.argv[2] === 'db' || process.env.DATABASE_URL) {
  const dir = await unpack(pgMigrationFiles, 'vibes-migrations-pg-')
  pgMigrationsDir = dir
  process.env.VIBES_PG_MIGRATIONS = dir
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }))
}
await runCommandLine(process.argv.slice(2), 'vibes')

const migrationsDir = await unpack(migrationFiles, 'vibes-migrations-')
process.env.VIBES_MIGRATIONS = migrationsDir
process.env.VIBES_GEOIP_DB = geoipFile

// Imported once the environment above is set: the configuration reads it on import.
const { startServer } = await import('./start-up')
const embedded = clientFiles as Record<string, string>
await startServer({
  // biome-ignore lint/suspicious/noTsIgnore: exists only after a build, as above
  // @ts-ignore built by vite before the binary is compiled
  loadPages: () => import('../../dist/server/server.js'),
  findStatic: (pathname) => {
    const file = embedded[pathname]
    return file ? Bun.file(file) : null
  },
  // Migrated before listening: the unpacked copy is not needed again.
  onListening: () => {
    rmSync(migrationsDir, { recursive: true, force: true })
    if (pgMigrationsDir) rmSync(pgMigrationsDir, { recursive: true, force: true })
  },
})
