// Who learns what from the health endpoints: anyone may ask whether
// the server and its database are up; the host's telemetry (memory, load, cores, uptime) is for
// admins only, on REST and on the tRPC procedure the REST path calls.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let memberToken: string
let adminToken: string

beforeAll(async () => {
  server = await startServer(adminEnv)
  memberToken = (await createMember(server.url)).token
  adminToken = await loginAdmin(server.url)
})
afterAll(() => server.stop())

/** health.check over tRPC's HTTP link, as the browser calls it. */
async function trpcHealth(token?: string) {
  const res = await fetch(`${server.url}/api/trpc/health.check`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  expect(res.status).toBe(200)
  return (await res.json()).result.data.json
}

function expectLiveness(data: Record<string, unknown>) {
  expect(Object.keys(data).sort()).toEqual(['db', 'status', 'timestamp'])
  expect(data.status).toBe('ok')
  expect(data.db).toEqual({ connected: true })
  expect(Number.isNaN(Date.parse(data.timestamp as string))).toBe(false)
}

function expectFullHealth(data: any) {
  expect(data).toMatchObject({ status: 'ok', db: { connected: true } })
  expect(typeof data.uptimeSec).toBe('number')
  expect(typeof data.memoryMB).toBe('number')
  expect(data.systemMemory).toEqual({ used: expect.any(Number), total: expect.any(Number), usagePercent: expect.any(Number) })
  expect(typeof data.cpu.loadAvg['1min']).toBe('number')
  expect(data.cpu.cores).toBeGreaterThan(0)
  expect(typeof data.db.latencyMs).toBe('number')
  expect(Number.isNaN(Date.parse(data.timestamp))).toBe(false)
}

describe('GET /api/health', () => {
  test('anonymous callers get only status, db connected and the time', async () => {
    const res = await api(server.url, 'GET', '/health')
    expect(res.status).toBe(200)
    expectLiveness(res.body.data)
    // The cache-busting query changes nothing.
    expectLiveness((await api(server.url, 'GET', '/health?t=123')).body.data)
  })

  test('a member gets the same three keys', async () => {
    expectLiveness((await api(server.url, 'GET', '/health', { token: memberToken })).body.data)
  })

  test('an admin gets the full Health entity', async () => {
    const res = await api(server.url, 'GET', '/health', { token: adminToken })
    expect(res.status).toBe(200)
    expectFullHealth(res.body.data)
  })

  test('the tRPC procedure behind it answers the same way', async () => {
    expectLiveness(await trpcHealth())
    expectLiveness(await trpcHealth(memberToken))
    expectFullHealth(await trpcHealth(adminToken))
  })
})

describe('GET /api/health/system', () => {
  test('401 anonymous, 403 member, the full entity for an admin', async () => {
    expect((await api(server.url, 'GET', '/health/system')).status).toBe(401)
    expect((await api(server.url, 'GET', '/health/system', { token: memberToken })).status).toBe(403)
    const res = await api(server.url, 'GET', '/health/system', { token: adminToken })
    expect(res.status).toBe(200)
    expectFullHealth(res.body.data)
  })
})
