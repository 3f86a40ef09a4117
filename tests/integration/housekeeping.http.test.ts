// Housekeeping: expired sessions and used or expired reset tokens are purged
// when the server starts (and daily after). Rows are seeded straight into the real database (SQLite
// or PostgreSQL) while the server is stopped; the restarted server must have removed them, and
// only them.
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
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

  const now = Date.now()
  const session = 'INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)'
  await sqlOn(server, session, ['session-expired', m.user.id, now - 40 * 24 * HOUR, now - HOUR])
  await sqlOn(server, session, ['session-live', m.user.id, now, now + 24 * HOUR])
  const token = 'INSERT INTO password_reset_tokens (id, user_id, expires_at, used_at) VALUES (?, ?, ?, ?)'
  await sqlOn(server, token, ['token-expired', m.user.id, now - HOUR, null])
  await sqlOn(server, token, ['token-used', m.user.id, now + HOUR, now - 60_000])
  await sqlOn(server, token, ['token-live', m.user.id, now + HOUR, null])

  server = await startServer({}, dirs)
  try {
    const ids = async (table: string) => (await sqlOn<{ id: string }>(server, `SELECT id FROM ${table} ORDER BY id`)).map((r) => r.id)
    const sessions = await ids('sessions')
    expect(sessions).toContain('session-live')
    expect(sessions).not.toContain('session-expired')
    expect(await ids('password_reset_tokens')).toEqual(['token-live'])
    // The member's own login session from before the restart is live and still works.
    expect((await api(server.url, 'GET', '/auth/session', { token: m.token })).status).toBe(200)
  } finally {
    await server.stop()
  }
})
