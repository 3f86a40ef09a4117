// When the analytics worker starts: it is a second JavaScript runtime on its own thread, and its
// start (loading its modules, opening its connections) costs 100 ms or more of CPU. Started by the
// first report, that report waited for it and every request meanwhile was slower; so the server
// starts it itself once start-up is done, and no report an admin asks for waits for it.
// On PostgreSQL there is no such thread (docs/decisions/091): the query runs in the database's own
// process and the server only awaits it on its pool, so the report is answered without one.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { api } from '../helpers/api'
import { startServer, TEST_ENGINE, type TestServer } from '../helpers/server'

let server: TestServer
beforeAll(async () => {
  server = await startServer({ ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'root-password' })
})
afterAll(() => server.stop())

/** The names of the server's threads (Bun names a Worker's thread "Worker"). */
function threads(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).map((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim()
    } catch {
      return '' // ended meanwhile
    }
  })
}

async function firstReport() {
  const admin = await api(server.url, 'POST', '/auth/login', { body: { email: 'root@example.com', password: 'root-password' } })
  const report = await api(server.url, 'GET', '/analytics/listening-overview?days=7', { token: admin.body.data.token })
  expect(report.status).toBe(200)
  expect(report.body.success).toBe(true)
  expect(report.body.data.overview.totalPlays).toBe(0)
}

describe('the analytics worker', () => {
  test('SQLite: starts on its own once the server has started, before any report; PostgreSQL: none; the first report is answered', async () => {
    expect((await api(server.url, 'GET', '/health')).status).toBe(200)
    if (TEST_ENGINE === 'sqlite') {
      // Nobody asks for a report: the server starts the worker itself.
      for (let waited = 0; !threads(server.pid).includes('Worker') && waited < 20_000; waited += 100) await Bun.sleep(100)
      expect(threads(server.pid)).toContain('Worker')
      await firstReport()
    } else {
      // The page bundle is the last thing start-up waits for before it would start the worker.
      expect((await fetch(`${server.url}/login`)).status).toBe(200)
      await Bun.sleep(1000)
      await firstReport()
      expect(threads(server.pid)).not.toContain('Worker')
    }
  })
})
