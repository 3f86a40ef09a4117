// Housekeeping: expired sessions and used or expired reset tokens are purged
// when the server starts (and daily after). Rows are seeded straight into the real database file
// while the server is stopped; the restarted server must have removed them, and only them.
import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { api, createMember } from '../helpers/api'
import { startServer } from '../helpers/server'

const dirs = { dataDir: mkdtempSync(path.join(tmpdir(), 'vibes-data-')), mediaRoot: mkdtempSync(path.join(tmpdir(), 'vibes-media-')) }
afterAll(() => {
  rmSync(dirs.dataDir, { recursive: true, force: true })
  rmSync(dirs.mediaRoot, { recursive: true, force: true })
})

const HOUR = 3_600_000

test('a restart purges expired sessions and spent reset tokens, and keeps live ones', async () => {
  let server = await startServer({}, dirs)
  const m = await createMember(server.url)
  await server.stop()

  const db = new Database(path.join(dirs.dataDir, 'vibes.db'))
  const now = Date.now()
  const session = db.query('INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
  session.run('session-expired', m.user.id, now - 40 * 24 * HOUR, now - HOUR)
  session.run('session-live', m.user.id, now, now + 24 * HOUR)
  const token = db.query('INSERT INTO password_reset_tokens (id, user_id, expires_at, used_at) VALUES (?, ?, ?, ?)')
  token.run('token-expired', m.user.id, now - HOUR, null)
  token.run('token-used', m.user.id, now + HOUR, now - 60_000)
  token.run('token-live', m.user.id, now + HOUR, null)
  db.close()

  server = await startServer({}, dirs)
  try {
    const after = new Database(path.join(dirs.dataDir, 'vibes.db'), { readonly: true })
    const ids = (table: string) => (after.query(`SELECT id FROM ${table} ORDER BY id`).all() as { id: string }[]).map((r) => r.id)
    const sessions = ids('sessions')
    expect(sessions).toContain('session-live')
    expect(sessions).not.toContain('session-expired')
    expect(ids('password_reset_tokens')).toEqual(['token-live'])
    after.close()
    // The member's own login session from before the restart is live and still works.
    expect((await api(server.url, 'GET', '/auth/session', { token: m.token })).status).toBe(200)
  } finally {
    await server.stop()
  }
})
