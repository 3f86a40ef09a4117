// One copy of the server's code per process (decision 043): the page bundle is
// built by Vite apart from the server, and its SSR tRPC link used to import the app router, so the
// router, its zod schemas and the services were loaded and compiled a second time beside the
// server's own. SSR now calls the server's router (src/server/trpc/shared-router.ts); the pages
// still get their data from it.
import { beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ensureBuilt } from '../helpers/build'
import { freshPostgresUrl, TEST_ENGINE } from '../helpers/server'

const root = path.resolve(import.meta.dir, '../..')

/** Runs the production server (serve-from-disk.ts, as `bun run start`) on the test's engine, renders a
 *  public page and a member's pages in it, and returns the files of dist/server it loaded and what
 *  the pages showed. */
function renderInServer(engine: Record<string, string>) {
  ensureBuilt()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-page-bundle-'))
  const script = `
    const { serveFromDisk } = await import('./src/server/serve-from-disk.ts')
    await serveFromDisk()
    const base = 'http://127.0.0.1:' + process.env.PORT
    const home = await (await fetch(base + '/')).text()
    const post = (path, body, headers = {}) => fetch(base + path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    await post('/api/auth/signup', { username: 'bundle-member', email: 'bundle@example.com', password: 'bundle-password' })
    const login = await (await post('/api/auth/login', { email: 'bundle@example.com', password: 'bundle-password' })).json()
    const headers = { authorization: 'Bearer ' + login.data.token }
    const profile = await (await fetch(base + '/profile', { headers })).text()
    console.log('RESULT ' + JSON.stringify({ loaded: Object.keys(require.cache), home, profile }))
    process.exit(0)`
  try {
    const port = 20000 + Math.floor(Math.random() * 20000)
    const r = Bun.spawnSync(['bun', '-e', script], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        MEDIA_ROOT: dataDir,
        AUTH_SECRET: 'bundle-secret-'.repeat(3),
        ...engine,
      },
    })
    const result =
      r.stdout
        .toString()
        .split('\n')
        .find((line) => line.startsWith('RESULT ')) ?? ''
    expect(r.exitCode, r.stderr.toString()).toBe(0)
    return JSON.parse(result.slice('RESULT '.length)) as { loaded: string[]; home: string; profile: string }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

describe('the page bundle', () => {
  // The member's page is rendered from the server's database: a fresh one on PostgreSQL (its
  // cluster starts here, outside the test's time), else SQLite in DATA_DIR.
  let engine: Record<string, string> = {}
  beforeAll(async () => {
    if (TEST_ENGINE === 'postgres') engine = { DATABASE_URL: await freshPostgresUrl() }
  }, 60_000)

  test("loads none of the server's modules of its own, and its pages show the server's data", () => {
    const { loaded, home, profile } = renderInServer(engine)
    const bundleFiles = loaded.filter((file) => file.startsWith(path.join(root, 'dist/server/')))
    expect(bundleFiles.length).toBeGreaterThan(3) // the check is looking at the loaded page bundle
    // Vite marks each module it bundled with a `// src/...` line: only the tiny lookup may be there.
    const serverModules = bundleFiles.flatMap((file) => readFileSync(file, 'utf8').match(/^\/\/ src\/server\/\S+/gm) ?? [])
    expect(serverModules).toEqual(['// src/server/trpc/shared-router.ts'])
    expect(home).toContain('<html')
    // The member's session as SSR's tRPC query (auth.status) answered it, dehydrated into the page.
    expect(profile).toMatch(/authenticated:!0,user:\$R\[\d+\]=\{id:"[^"]+",username:"bundle-member"/)
  }, 60_000)
})
