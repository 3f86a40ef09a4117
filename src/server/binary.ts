// Entry of the single binary (scripts/build-binary.ts): everything it serves is embedded.
// Migrations are unpacked to a temporary folder for Drizzle's migrator (removed once migrated);
// the command line (--help, --version, backup) answers before either.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
// biome-ignore lint/suspicious/noTsIgnore: the module exists only after build:binary, so expect-error would fail the other way
// @ts-ignore generated at build time
import { clientFiles, geoipFile, migrationFiles } from '../../dist/binary/embedded'
import { runCommandLine } from './cli'

await runCommandLine(process.argv.slice(2), 'vibes')

const migrationsDir = mkdtempSync(path.join(tmpdir(), 'vibes-migrations-'))
for (const [name, file] of Object.entries(migrationFiles as Record<string, string>)) {
  const target = path.join(migrationsDir, name)
  mkdirSync(path.dirname(target), { recursive: true })
  writeFileSync(target, new Uint8Array(await Bun.file(file).arrayBuffer()))
}
process.env.VIBES_MIGRATIONS = migrationsDir
process.env.VIBES_GEOIP_DB = geoipFile

const { serve } = await import('./serve')
const { deferredApp } = await import('./deferred-app')
// biome-ignore lint/suspicious/noTsIgnore: exists only after a build, as above
// @ts-ignore built by vite before the binary is compiled
const pages = deferredApp(() => import('../../dist/server/server.js'))

const embedded = clientFiles as Record<string, string>
await serve(pages.app, (pathname) => {
  const file = embedded[pathname]
  return file ? Bun.file(file) : null
})
// Migrated before listening: the unpacked copy is not needed again.
rmSync(migrationsDir, { recursive: true, force: true })
// The listening analytics on their own thread, as in serve-from-disk.ts (the worker is an entry point of the binary).
const { registerAnalyticsWorker } = await import('./analytics-worker-host')
const analyticsWorker = registerAnalyticsWorker((await import('./config')).config.dbFile)
// Listening: now the rest of the server, then the page bundle, then the worker, as in serve-from-disk.ts.
await (await import('./deferred')).loadDeferredModules()
await pages.ready()
analyticsWorker.start()
