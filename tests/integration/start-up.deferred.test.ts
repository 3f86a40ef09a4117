// What the server loads before it listens (decision 040): the app router (every
// tRPC procedure and its zod schemas) and the OpenSubsonic API load after listening, so a restart
// answers sooner; the requests that need them meanwhile wait for them and get their usual answers.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ADMIN, adminEnv, api } from '../helpers/api'
import { startServer, type TestServer } from '../helpers/server'

const root = path.resolve(import.meta.dir, '../..')

/** The source modules loaded by importing `specifier` (as serve-from-disk.ts and binary.ts import start-up.ts before listening). */
function modulesLoadedBy(specifier: string): string[] {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-modules-'))
  try {
    const script = `await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(require.cache)))`
    const r = Bun.spawnSync(['bun', '-e', script], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, MEDIA_ROOT: dataDir, AUTH_SECRET: 'modules-secret-'.repeat(3) },
    })
    expect(r.exitCode).toBe(0)
    return (JSON.parse(r.stdout.toString()) as string[]).map((file) => path.relative(root, file))
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

describe('before listening', () => {
  test('the server loads neither the app router, nor OpenSubsonic, nor every validator, nor the remote reader, nor the analytics reports, nor the sign-in providers, nor PostgreSQL on SQLite', () => {
    const loaded = modulesLoadedBy('./src/server/start-up.ts')
    expect(loaded).toContain('src/server/rest/routes/health.ts') // the check is looking at the right list
    for (const deferred of [
      'src/server/trpc/root.ts',
      'src/server/routers/admin.ts',
      'src/server/subsonic/handler.ts',
      'src/shared/validators/index.ts',
      'src/server/remote/index.ts',
      // The analytics worker's host is registered at start-up; the reports load on the first one.
      'src/server/services/analytics.ts',
      // Outside sign-in loads on the first sign-in; PostgreSQL's tables and migrator only with DATABASE_URL.
      'src/server/rest/sign-in.ts',
      'src/server/auth/sign-in-providers.ts',
      'node_modules/arctic/dist/index.js',
      'node_modules/jose/dist/webapi/index.js',
      'src/db/pg/schema.ts',
      'src/db/pg/migrate.ts',
      'node_modules/drizzle-orm/pg-core/index.js',
    ])
      expect(loaded).not.toContain(deferred)
  })
})

describe('right after listening', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer(adminEnv)
  })
  afterAll(() => server.stop())

  test('the first requests through the app router and OpenSubsonic wait for them and get their answers', async () => {
    // startServer returns on the "listening" line: these race the loading that follows it.
    const [login, trpc, ping] = await Promise.all([
      api(server.url, 'POST', '/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } }),
      fetch(`${server.url}/api/trpc/health.check`),
      fetch(`${server.url}/rest/ping.view?f=json`),
    ])
    expect(login.status).toBe(200)
    expect(login.body.data.token).toBeString()
    expect(trpc.status).toBe(200)
    expect(((await trpc.json()) as { result: { data: { json: { status: string } } } }).result.data.json.status).toBe('ok')
    expect(ping.status).toBe(200)
    expect(((await ping.json()) as { 'subsonic-response': { status: string } })['subsonic-response'].status).toBe('failed') // no credentials: an answer, not a hang
  })
})
