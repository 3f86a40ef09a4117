// liveness (src/server/services/health.ts), what monitors poll: it asks the connection rather than
// running a statement, and shares one ISO time text per millisecond, so check that it still says
// degraded once the database is closed and that its time is the current one.
import { expect, test } from 'bun:test'
import path from 'node:path'
import { openDb } from '~/db/client'
import { liveness } from '~/server/services/health'

test('ok with the current time while the database is open, degraded once it is closed', async () => {
  const db = openDb(':memory:', path.resolve('src/db/migrations'))
  const first = await liveness(db)
  expect(first).toMatchObject({ status: 'ok', db: { connected: true } })
  expect(Math.abs(Date.parse(first.timestamp) - Date.now())).toBeLessThan(1000)
  await Bun.sleep(5)
  expect(Date.parse((await liveness(db)).timestamp)).toBeGreaterThan(Date.parse(first.timestamp))
  db.$client.close()
  expect(await liveness(db)).toMatchObject({ status: 'degraded', db: { connected: false } })
})
