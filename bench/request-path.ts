// Where a cheap API request's CPU goes, part by part, in one process (no sockets, no wrk): the
// REST handler for GET /api/health and GET /api/user/folders (Bearer) on a real SQLite file, and
// each piece serve.ts adds around it. Under load the wrk rows swing; these per-call figures,
// taken side by side in one run, say which part to cut (decision 038).
//   bun bench/request-path.ts
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-request-path-'))
Object.assign(process.env, { DATA_DIR: dataDir, MEDIA_ROOT: dataDir, AUTH_SECRET: 'bench-secret-'.repeat(4), NODE_ENV: 'production', LOG_LEVEL: 'info' })

const { config } = await import('~/server/config')
const { getDb, closeDb } = await import('~/server/db')
const { handleRest } = await import('~/server/rest/handler')
const { signup, login } = await import('~/server/services/auth')
const { validateToken } = await import('~/server/auth/sessions')
const { verifyJwt } = await import('~/server/auth/jwt')
const { listFolders } = await import('~/server/services/folders')
const { createContext } = await import('~/server/trpc/context')
const { createServer } = await import('~/server/start-up')
const { securityHeaders } = await import('~/server/http/security-headers')
const { CLIENT_IP_HEADER } = await import('~/server/http/client-info')

const db = getDb()
// The server's own metrics recorder, with its route labels (no pages: nothing here renders one).
const { metrics } = createServer({ loadPages: async () => ({ default: { fetch: () => new Response() } }), findStatic: () => null })
await signup(db, { username: 'bench', email: 'bench@example.com', password: 'tune-in-2-vibes' })
const { token } = await login(db, { email: 'bench@example.com', password: 'tune-in-2-vibes' }, config.AUTH_SECRET)
const { withSecurityHeaders } = securityHeaders({ appUrl: config.APP_URL })

// The best of ROUNDS rounds: other work on a shared machine only ever adds time.
const N = Number(process.env.N ?? 4000)
const ROUNDS = 7
const line = (name: string, best: number) => console.log(`${name.padEnd(44)} ${((best * 1000) / N).toFixed(2).padStart(7)} µs`)
function time(name: string, run: () => unknown) {
  let best = Number.POSITIVE_INFINITY
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now()
    for (let i = 0; i < N; i++) run()
    best = Math.min(best, performance.now() - started)
  }
  line(name, best)
}
async function timeAsync(name: string, run: () => Promise<unknown>) {
  let best = Number.POSITIVE_INFINITY
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now()
    for (let i = 0; i < N; i++) await run()
    best = Math.min(best, performance.now() - started)
  }
  line(name, best)
}

const request = (pathname: string, headers: Record<string, string> = {}) => {
  const r = new Request(`http://127.0.0.1${pathname}`, { headers })
  r.headers.set(CLIENT_IP_HEADER, '127.0.0.1')
  return r
}
const bearer = { authorization: `Bearer ${token}` }
const claims = verifyJwt(token, config.AUTH_SECRET)
if (!claims) throw new Error('token does not verify')
const user = validateToken(db, token, config.AUTH_SECRET)
if (!user) throw new Error('token does not validate')

if (process.env.ONLY) {
  // For bun --cpu-prof: the one handler, nothing else.
  for (let i = 0; i < 100_000; i++) await (await handleRest(request(process.env.ONLY, bearer))).text()
  process.exit(0)
}
await timeAsync('handleRest GET /api/health', async () => (await handleRest(request('/api/health'))).text())
await timeAsync('handleRest GET /api/user/folders (Bearer)', async () => (await handleRest(request('/api/user/folders', bearer))).text())
time('createContext (Bearer)', () => createContext(request('/api/user/folders', bearer)))
time('createContext (anonymous)', () => createContext(request('/api/health')))
time('validateToken', () => validateToken(db, token, config.AUTH_SECRET))
time('verifyJwt', () => verifyJwt(token, config.AUTH_SECRET))
time('listFolders', () => listFolders(db, user.id))
const SELECT_ONE = db.$client.prepare('SELECT 1')
time('SELECT 1 (no table, no lock)', () => SELECT_ONE.get())
const FOLDERS_SQL = 'SELECT id FROM folders WHERE user_id = ?'
time('one-table SELECT, app connection', () => db.$client.query(FOLDERS_SQL).all(user.id))
const SESSION_SQL = `SELECT u.id AS id, u.username AS username, u.email AS email, u.is_admin AS isAdmin, u.created_at AS createdAt, s.last_seen_at AS lastSeenAt
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id = ? AND s.expires_at > ?`
const sessionId = user.sessionId
time('session JOIN query alone', () => db.$client.query(SESSION_SQL).get(sessionId, Date.now()))
time('sessions row by id alone', () =>
  db.$client.query('SELECT user_id, last_seen_at FROM sessions WHERE id = ? AND expires_at > ?').get(sessionId, Date.now()),
)
time('users row by id alone', () =>
  db.$client.query('SELECT id, username, email, is_admin AS isAdmin, created_at AS createdAt FROM users WHERE id = ?').get(user.id),
)
time('JOIN, one column', () =>
  db.$client.query('SELECT u.id FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ? AND s.expires_at > ?').get(sessionId, Date.now()),
)
time('JOIN, no expiry test', () =>
  db.$client
    .query(
      'SELECT u.id AS id, u.username AS username, u.email AS email, u.is_admin AS isAdmin, u.created_at AS createdAt, s.last_seen_at AS lastSeenAt FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?',
    )
    .get(sessionId),
)
const sessionById = db.$client.prepare('SELECT user_id AS userId, last_seen_at AS lastSeenAt FROM sessions WHERE id = ? AND expires_at > ?')
const userById = db.$client.prepare('SELECT id, username, email, is_admin AS isAdmin, created_at AS createdAt FROM users WHERE id = ?')
const twoLookups = () => {
  const s = sessionById.get(sessionId, Date.now()) as { userId: string } | null
  return s && userById.get(s.userId)
}
time('two lookups (session, then user)', twoLookups)
const inOne = db.$client.transaction(twoLookups)
time('two lookups in one transaction', () => inOne())
time('createHash sha256 hex', () => new Bun.CryptoHasher('sha256').update(claims.sid).digest('hex'))
time('new Request + header', () => request('/api/health'))
time('new URL', () => new URL('http://127.0.0.1/api/user/folders'))
time('crypto.randomUUID', () => crypto.randomUUID())
time('metrics.observe', () => metrics.observe('GET', '/api/user/folders', 200, 0.3))
time('withSecurityHeaders(Response.json)', () => withSecurityHeaders(Response.json({ success: true })))
time('Response.json', () => Response.json({ success: true }))

closeDb()
rmSync(dataDir, { recursive: true, force: true })
