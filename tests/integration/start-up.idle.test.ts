// What an idle server keeps running (issue 12 "memory and start-up"): the analytics worker is a
// second JavaScript runtime on its own thread (about 10 MB), so it starts with the first report an
// admin asks for, not at start-up; a server nobody asks for reports never runs it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { api } from '../helpers/api'
import { startServer, type TestServer } from '../helpers/server'

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

describe('the analytics worker', () => {
  test('is not running while nobody asks for a report; the first report starts it and is answered', async () => {
    expect((await api(server.url, 'GET', '/health')).status).toBe(200)
    await Bun.sleep(300)
    expect(threads(server.pid)).not.toContain('Worker')

    const admin = await api(server.url, 'POST', '/auth/login', { body: { email: 'root@example.com', password: 'root-password' } })
    const report = await api(server.url, 'GET', '/analytics/listening-overview?days=7', { token: admin.body.data.token })
    expect(report.status).toBe(200)
    expect(report.body.success).toBe(true)
    expect(threads(server.pid)).toContain('Worker')
  })
})
