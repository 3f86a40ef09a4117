// Starts the real production server (the built app) on a free port with a fresh DATA_DIR and
// MEDIA_ROOT, and stops it after the test file. With VIBES_TEST_ENGINE=postgres each server gets
// a fresh database on a throwaway PostgreSQL cluster (one per test file) instead of SQLite.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ensureBuilt } from './build'
import { startPostgres, type TestPostgres } from './postgres'

/** Which engine the test servers run on: `VIBES_TEST_ENGINE=postgres`, else SQLite. */
export const TEST_ENGINE: 'sqlite' | 'postgres' = process.env.VIBES_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite'

/** The same secret on every node of a test, as production requires on PostgreSQL. */
export const TEST_AUTH_SECRET = 'vibes-test-secret-shared-by-every-node-0123456789'

let cluster: Promise<TestPostgres> | undefined
let databases = 0
/** The file's PostgreSQL cluster, started on first use and stopped when the test process exits. */
export function testPostgres(): Promise<TestPostgres> {
  cluster ??= startPostgres().then((pg) => {
    process.once('exit', () => pg.stopNow())
    return pg
  })
  return cluster
}

/** A fresh, empty database on the file's cluster. */
export async function freshPostgresUrl(): Promise<string> {
  const pg = await testPostgres()
  const name = `vibes_${process.pid}_${++databases}`
  await pg.createDatabase(name)
  return pg.url(name)
}

// A server restarted on the same DATA_DIR finds its database again.
const databaseOfDataDir = new Map<string, string>()

async function engineEnv(dataDir: string, env: Record<string, string>): Promise<Record<string, string>> {
  if (TEST_ENGINE !== 'postgres' || env.DATABASE_URL) return {}
  let url = databaseOfDataDir.get(dataDir)
  if (!url) {
    url = await freshPostgresUrl()
    databaseOfDataDir.set(dataDir, url)
  }
  return { DATABASE_URL: url, AUTH_SECRET: TEST_AUTH_SECRET }
}

export type TestServer = {
  url: string
  port: number
  pid: number
  dataDir: string
  mediaRoot: string
  /** The PostgreSQL database it runs on, or null on SQLite (DATA_DIR/vibes.db). */
  databaseUrl: string | null
  logs: string[]
  stop: () => Promise<void>
  kill9: () => Promise<void>
}

export async function startServer(env: Record<string, string> = {}, reuse?: { dataDir: string; mediaRoot: string }): Promise<TestServer> {
  ensureBuilt()
  const dataDir = reuse?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'vibes-data-'))
  const mediaRoot = reuse?.mediaRoot ?? mkdtempSync(path.join(tmpdir(), 'vibes-media-'))
  const engine = await engineEnv(dataDir, env)
  const proc = Bun.spawn(['bun', 'src/server/entry.ts'], {
    cwd: path.resolve(import.meta.dir, '../..'),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MEDIA_ROOT: mediaRoot,
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'info',
      ...engine,
      ...env,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const logs: string[] = []
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join('\n')}`)), 20_000)
    void (async () => {
      const decoder = new TextDecoder()
      let buffer = ''
      for await (const chunk of proc.stdout) {
        buffer += decoder.decode(chunk)
        let nl: number
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl)
          buffer = buffer.slice(nl + 1)
          logs.push(line)
          const m = /"msg":"Vibes is listening".*?"port":(\d+)|"port":(\d+).*?"msg":"Vibes is listening"/.exec(line)
          if (m) {
            clearTimeout(timer)
            resolve(Number(m[1] ?? m[2]))
          }
        }
      }
    })()
    void proc.exited.then(async (code) => {
      clearTimeout(timer)
      const err = await new Response(proc.stderr).text()
      reject(new Error(`server exited with ${code}:\n${logs.join('\n')}\n${err}`))
    })
  })
  const cleanup = () => {
    if (!reuse && !process.env.KEEP_TEST_DATA) {
      rmSync(dataDir, { recursive: true, force: true })
      rmSync(mediaRoot, { recursive: true, force: true })
    }
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: proc.pid,
    dataDir,
    mediaRoot,
    databaseUrl: env.DATABASE_URL ?? engine.DATABASE_URL ?? null,
    logs,
    async stop() {
      proc.kill('SIGTERM')
      await proc.exited
      cleanup()
    },
    async kill9() {
      proc.kill('SIGKILL')
      await proc.exited
    },
  }
}
