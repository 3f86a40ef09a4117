// GET /api/hits/page-hits over real HTTP: exact counts under concurrency, visitors as salted hashes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { api } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

const total = async () => (await sqlOn<{ n: number }>(server, 'SELECT count(*) AS n FROM page_hits'))[0].n
const hit = (page: string, ua = 'test-agent/1.0') =>
  api(server.url, 'GET', `/hits/page-hits?page=${encodeURIComponent(page)}`, { headers: { 'user-agent': ua } })

describe('page hits', () => {
  test('records one hit and answers hitCount, uniqueHitCount and totalHitCount', async () => {
    const first = await hit('home')
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ success: true, data: { hitCount: 1, uniqueHitCount: 1, totalHitCount: 1 } })
    const second = await hit('home')
    expect(second.body.data).toEqual({ hitCount: 2, uniqueHitCount: 1, totalHitCount: 2 })
    const other = await hit('about', 'another-browser/2.0')
    expect(other.body.data).toEqual({ hitCount: 1, uniqueHitCount: 1, totalHitCount: 3 })
    expect(await total()).toBe(3)
  })

  test('100 concurrent requests are counted exactly; different User-Agents are different visitors', async () => {
    const before = await total()
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => hit('charts', `agent-${i % 25}`)))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    // Every request saw its own running count: 1..100 each exactly once.
    const counts = answers.map((a) => a.body.data.hitCount as number).sort((a, b) => a - b)
    expect(counts).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    const totals = answers.map((a) => a.body.data.totalHitCount as number).sort((a, b) => a - b)
    expect(totals).toEqual(Array.from({ length: 100 }, (_, i) => before + i + 1))
    expect(Math.max(...answers.map((a) => a.body.data.uniqueHitCount as number))).toBe(25)

    const last = await hit('charts', 'agent-0')
    expect(last.body.data).toEqual({ hitCount: 101, uniqueHitCount: 25, totalHitCount: before + 101 })
    expect(await total()).toBe(before + 101)
  })

  test('no raw IP or User-Agent is stored, only a hash', async () => {
    await hit('contact', 'Mozilla/5.0 (X11; Linux x86_64) UniqueMarker')
    const rows = await sqlOn(server, "SELECT * FROM page_hits WHERE page = 'contact'")
    expect(rows).toHaveLength(1)
    expect(Object.keys(rows[0]).sort()).toEqual(['created_at', 'id', 'page', 'visitor_hash'])
    const stored = JSON.stringify(rows)
    expect(stored).not.toContain('127.0.0.1')
    expect(stored).not.toContain('UniqueMarker')
    expect(String(rows[0].visitor_hash)).toMatch(/^[\w-]{32}$/)
  })

  test('page keys with a path are fine; case folds to one key; extra query parameters are ignored', async () => {
    const res = await api(server.url, 'GET', '/hits/page-hits?page=admin/listening-analytics&t=123')
    expect(res.status).toBe(200)
    expect(res.body.data.hitCount).toBe(1)
    const upper = await api(server.url, 'GET', '/hits/page-hits?page=Admin/Listening-Analytics')
    expect(upper.body.data.hitCount).toBe(2)
    expect(await sqlOn(server, "SELECT page FROM page_hit_counts WHERE page LIKE '%nalytics'")).toEqual([{ page: 'admin/listening-analytics' }])
  })

  test('HEAD and browser prefetches answer the counts without recording a hit', async () => {
    await hit('faq')
    const before = await total()
    const head = await fetch(`${server.url}/api/hits/page-hits?page=faq`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    for (const headers of [{ 'sec-purpose': 'prefetch' }, { 'sec-purpose': 'prefetch;prerender' }, { purpose: 'prefetch' }] as Array<Record<string, string>>) {
      const res = await api(server.url, 'GET', '/hits/page-hits?page=faq', { headers })
      expect(res.body).toEqual({ success: true, data: { hitCount: 1, uniqueHitCount: 1, totalHitCount: before } })
    }
    const unseen = await api(server.url, 'GET', '/hits/page-hits?page=never-visited', { headers: { 'sec-purpose': 'prefetch' } })
    expect(unseen.body.data).toEqual({ hitCount: 0, uniqueHitCount: 0, totalHitCount: before })
    expect(await total()).toBe(before)
    expect((await hit('faq')).body.data.hitCount).toBe(2)
  })

  test('a missing, empty, odd or 10 KB page key is a 400 and stores nothing', async () => {
    const before = await total()
    const cases: Array<[string, string]> = [
      ['', 'Page is required'],
      ['?page=', 'Page is required'],
      [`?page=${'a'.repeat(10 * 1024)}`, 'Page must be at most 100 characters'],
      [`?page=${'a'.repeat(101)}`, 'Page must be at most 100 characters'],
      ['?page=%3Cscript%3E', 'Page may only use letters, digits, "/", "_", "-" and "."'],
      ['?page=a%20b', 'Page may only use letters, digits, "/", "_", "-" and "."'],
      ['?page=%F0%9F%8E%B5', 'Page may only use letters, digits, "/", "_", "-" and "."'],
      ['?page=a&page=b', 'Page must be given once'],
      ...['..', '../x', 'a/../b', 'a/.', '.', '/about', 'about/', 'a//b', '%2e%2e', '%2E%2E/etc'].map((key): [string, string] => [
        `?page=${key}`,
        'Page must be a path of names joined by single "/", without "." or ".." parts',
      ]),
    ]
    for (const [query, error] of cases) {
      const res = await api(server.url, 'GET', `/hits/page-hits${query}`)
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, error } })
    }
    expect(await total()).toBe(before)
    const trpc = await fetch(`${server.url}/api/trpc/hits.record`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { page: ['a', 'b'] } }),
    })
    expect(trpc.status).toBe(400)
    expect(await total()).toBe(before)
  })
})
