// A server built in process by the start-up's own function (createServer in start-up.ts, what
// `bun run start`, the binary and the test helper's server run): without listening, it answers
// the API, tRPC and the metrics as the listening server does, and labels requests by the routes
// its API transports know.
import { expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

// The configuration is read on import and creates DATA_DIR: keep it out of the tree.
process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vibes-unit-'))
process.env.LOG_LEVEL ??= 'warn'
const { createServer } = await import('~/server/start-up')

const server = createServer({
  loadPages: async () => ({ default: { fetch: () => new Response('<!doctype html><title>page</title>', { headers: { 'content-type': 'text/html' } }) } }),
  findStatic: () => null,
})
const ask = (pathname: string) => server.fetch(new Request(`http://127.0.0.1${pathname}`))

test('the API, tRPC and pages answer in process', async () => {
  const health = await ask('/api/health')
  expect(health.status).toBe(200)
  expect(((await health.json()) as { success: boolean; data: { status: string } }).data.status).toBe('ok')

  const check = await ask('/api/trpc/health.check')
  expect(check.status).toBe(200)
  expect(((await check.json()) as { result: { data: { json: { status: string } } } }).result.data.json.status).toBe('ok')

  const unknown = await ask('/api/no-such-route')
  expect(unknown.status).toBe(404)
  expect(await unknown.json()).toEqual({ success: false, error: 'Not found: /api/no-such-route' })

  const page = await ask('/no-such-page')
  expect(await page.text()).toContain('<title>page</title>')

  expect((await ask('/metrics')).status).toBe(401)
})

test('requests are counted under the labels the API transports give, and made-up paths under one', async () => {
  await ask('/api/health')
  await ask('/api/trpc/health.check')
  await ask('/api/trpc/made.up')
  await ask('/api/no-such-route')
  const text = await server.metrics.text()
  // Each sample starts with this node's instance label (INSTANCE_NAME, else hostname:port).
  const requests = [...text.matchAll(/^vibes_http_requests_total\{instance="[^"]+",(.*)\} \d+$/gm)].map((m) => m[1])
  expect(requests).toContain('route="/api/health",method="GET",status="200"')
  expect(requests).toContain('route="/api/trpc/health.check",method="GET",status="200"')
  expect(requests).toContain('route="unknown",method="GET",status="404"')
  expect(text).not.toContain('made.up')
  expect(text).not.toContain('no-such-route')
})
