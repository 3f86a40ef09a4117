// A throwaway PostgreSQL 15 cluster for one test file: Debian's binaries, initdb into a temp dir,
// listening on 127.0.0.1 and a free port (its socket in that dir, not /var/run), trust auth for the
// `postgres` role. PostgreSQL refuses to run as root, so when the tests are root it runs as the
// `postgres` OS user (which Debian's package creates). stop() ends it and deletes the dir.
// Tests run it with fsync off; a bench that compares engines asks for `durable` (PostgreSQL's defaults).
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** Debian's server binaries: version 15 (what production is tested against) when present, else the newest installed. */
export const PG_BIN = (() => {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').map(Number).filter(Number.isFinite) : []
  if (versions.length === 0) throw new Error('PostgreSQL is not installed (apt-get install postgresql; .ci/run does)')
  return `/usr/lib/postgresql/${versions.includes(15) ? 15 : Math.max(...versions)}/bin`
})()

export type TestPostgres = {
  port: number
  /** A URL for `database` (created by createDatabase, or 'postgres'). */
  url: (database?: string) => string
  createDatabase: (name: string) => Promise<void>
  stop: () => Promise<void>
  /** stop() for a process 'exit' handler, where nothing asynchronous runs any more. */
  stopNow: () => void
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined
  const out = Bun.spawnSync(['id', '-u', 'postgres']).stdout.toString().trim()
  const gid = Bun.spawnSync(['id', '-g', 'postgres']).stdout.toString().trim()
  if (!out) throw new Error('running as root but there is no `postgres` OS user (apt-get install postgresql creates it)')
  return { uid: Number(out), gid: Number(gid) }
}

async function run(cmd: string[], asPostgres: boolean) {
  const proc = Bun.spawn(asPostgres ? ['runuser', '-u', 'postgres', '--', ...cmd] : cmd, { stdout: 'pipe', stderr: 'pipe' })
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  if (code !== 0) throw new Error(`${cmd.join(' ')} exited ${code}\n${out}\n${err}`)
}

export type PostgresOptions = {
  /** fsync, synchronous_commit and full_page_writes on (PostgreSQL's defaults), so a commit waits for the disk. */
  durable?: boolean
}

export async function startPostgres(options: PostgresOptions = {}): Promise<TestPostgres> {
  const owner = postgresUser()
  const root = mkdtempSync(path.join(tmpdir(), 'vibes-pg-'))
  if (owner) chownSync(root, owner.uid, owner.gid)
  const dataDir = path.join(root, 'data')
  const asPostgres = owner !== undefined
  await run([`${PG_BIN}/initdb`, '-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8'], asPostgres)
  const port = await freePort()
  // fsync off unless asked: a test cluster is thrown away, durability buys nothing there.
  const durability = options.durable ? 'on' : 'off'
  const settings = ['fsync', 'synchronous_commit', 'full_page_writes'].map((name) => `-c ${name}=${durability}`).join(' ')
  const serverOptions = `-c listen_addresses=127.0.0.1 -p ${port} -k ${root} ${settings}`
  await run([`${PG_BIN}/pg_ctl`, '-D', dataDir, '-o', serverOptions, '-l', path.join(root, 'log'), '-w', '-t', '60', 'start'], asPostgres)
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`
  return {
    port,
    url,
    async createDatabase(name) {
      const admin = new Bun.SQL({ url: url(), max: 1 })
      try {
        await admin.unsafe(`CREATE DATABASE "${name.replaceAll('"', '""')}"`)
      } finally {
        await admin.close()
      }
    },
    async stop() {
      try {
        await run([`${PG_BIN}/pg_ctl`, '-D', dataDir, '-m', 'immediate', '-w', 'stop'], asPostgres)
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    },
    stopNow() {
      const cmd = [`${PG_BIN}/pg_ctl`, '-D', dataDir, '-m', 'immediate', '-w', 'stop']
      Bun.spawnSync(asPostgres ? ['runuser', '-u', 'postgres', '--', ...cmd] : cmd)
      rmSync(root, { recursive: true, force: true })
    },
  }
}
