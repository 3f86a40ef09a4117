// The request edge over real HTTP against the built server: who the client is behind a trusted
// proxy (TRUST_PROXY), login throttling per address (IPv6 by /64) and per account, the 1 MB body
// limit on REST and tRPC, and reset tokens kept out of the request log.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import http from 'node:http'
import net from 'node:net'
import { api, createMember } from '../helpers/api'
import { waitForOutboxMail } from '../helpers/outbox'
import { startServer, type TestServer } from '../helpers/server'

const LIMITED = { success: false, error: 'Rate limit exceeded. Please try again later.' }
const TOO_LARGE = { success: false, error: 'Request body too large' }

// Behind one trusted proxy (the test client plays it): the socket is 127.0.0.1 and the proxy
// appends the real client's address to X-Forwarded-For.
let proxied: TestServer
// No proxy configured: forwarding headers are the client's own words.
let direct: TestServer

beforeAll(async () => {
  ;[proxied, direct] = await Promise.all([startServer({ RATE_LIMIT: 'on', TRUST_PROXY: 'true' }), startServer()])
})
afterAll(async () => {
  await Promise.all([proxied.stop(), direct.stop()])
})

const login = (base: string, email: string, forwardedFor?: string) =>
  api(base, 'POST', '/auth/login', { body: { email, password: 'wrong-password' }, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} })

describe('client address behind a trusted proxy', () => {
  test('a client writing its own leftmost X-Forwarded-For entries stays the same client: the rightmost entry decides', async () => {
    const statuses: number[] = []
    // A different account each time, so only the per-address limit is in play.
    for (let i = 0; i < 40; i++) statuses.push((await login(proxied.url, `leftmost${i}@example.com`, `10.${i}.${i}.1, 203.0.113.7`)).status)
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true)
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true)
    // Another client behind the same proxy is not locked out by that one.
    expect((await login(proxied.url, 'someone-else@example.com', '10.0.0.1, 203.0.113.8')).status).toBe(401)
  })

  test('IPv6 clients are one client per /64', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 35; i++) statuses.push((await login(proxied.url, `six${i}@example.com`, `2001:db8:5:6:${(i + 1).toString(16)}::${i + 1}`)).status)
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true)
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true)
    expect((await login(proxied.url, 'six-other@example.com', '2001:db8:5:7::1')).status).toBe(401)
  })

  test('X-Forwarded-Proto marks the session cookie Secure only when a proxy is trusted', async () => {
    const m = await createMember(direct.url)
    const spoofed = await api(direct.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password }, headers: { 'x-forwarded-proto': 'https' } })
    expect(spoofed.status).toBe(200)
    expect(spoofed.headers.get('set-cookie')).not.toContain('Secure')
    const p = await createMember(proxied.url)
    const viaProxy = await api(proxied.url, 'POST', '/auth/login', {
      body: { email: p.email, password: p.password },
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.18.0.1' },
    })
    expect(viaProxy.status).toBe(200)
    expect(viaProxy.headers.get('set-cookie')).toContain('Secure')
  })
})

describe('login throttling per account', () => {
  // Guesses from many addresses are throttled; the owner, at an address that has not failed, is
  // not (docs/decisions/046).
  test('many addresses grinding one account: each failed address waits, with Retry-After; a fresh address is still checked; other accounts go on', async () => {
    const first = []
    for (let i = 0; i < 10; i++) first.push(await login(proxied.url, 'Victim@Example.com', `198.51.100.${i + 1}`))
    expect(first.map((a) => a.status)).toEqual(Array(10).fill(401))
    // The account's budget is spent: every address that failed for it now waits.
    for (let i = 0; i < 3; i++) {
      const refused = await login(proxied.url, 'Victim@Example.com', `198.51.100.${i + 1}`)
      expect(refused.status).toBe(429)
      expect(refused.body).toEqual(LIMITED)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    }
    // The same account spelled differently is the same account.
    expect((await login(proxied.url, ' victim@example.COM ', '198.51.100.1')).status).toBe(429)
    // An address that has not failed for it still has its password checked (the owner's phone)…
    expect((await login(proxied.url, 'Victim@Example.com', '198.51.100.99')).status).toBe(401)
    // …and, having failed once, waits like the others.
    expect((await login(proxied.url, 'Victim@Example.com', '198.51.100.99')).status).toBe(429)
    // Those addresses may still try other accounts.
    expect((await login(proxied.url, 'bystander@example.com', '198.51.100.1')).status).toBe(401)
  })
})

describe('request bodies: one 1 MB limit', () => {
  const big = () => new Uint8Array(20 * 1024 * 1024).fill(0x20)
  const chunked = (bytes: number) =>
    new ReadableStream({
      start(c) {
        for (let sent = 0; sent < bytes; sent += 64 * 1024) c.enqueue(new Uint8Array(64 * 1024).fill(0x20))
        c.close()
      },
    })

  test('a 20 MB Content-Length body gets the 413 envelope on REST and on tRPC', async () => {
    for (const target of ['/api/auth/login', '/api/trpc/auth.login']) {
      const res = await fetch(direct.url + target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big() })
      expect(res.status).toBe(413)
      expect(await res.json()).toEqual(TOO_LARGE)
    }
    expect((await api(direct.url, 'GET', '/health')).status).toBe(200)
  })

  /**
   * A script's upload (node:http): the whole body is written, 64 KB at a time, and the answer
   * read when it comes. Settles once the answer has ended and the body was all taken, or with the
   * error that cut the connection.
   */
  function uploadWhole(path: string, bytes: number, headers: Record<string, string>) {
    return new Promise<{ status?: number; body?: string; error?: string }>((resolve) => {
      // An agent of its own: a fresh connection, never one an earlier upload left behind.
      const agent = new http.Agent({ keepAlive: true })
      const req = http.request(`${direct.url}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } })
      let answer: { status: number; body: string } | undefined
      let written = false
      const settle = () => {
        if (!answer || !written) return
        agent.destroy()
        resolve(answer)
      }
      req.on('response', (res) => {
        let body = ''
        res.on('data', (d) => (body += d))
        res.on('end', () => {
          answer = { status: res.statusCode!, body }
          settle()
        })
      })
      req.on('error', (error: NodeJS.ErrnoException) => {
        agent.destroy()
        resolve({ error: error.code ?? error.message })
      })
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      let sent = 0
      const pump = () => {
        while (sent < bytes) {
          sent += chunk.length
          if (!req.write(chunk)) return void req.once('drain', pump)
        }
        req.end(() => {
          written = true
          settle()
        })
      }
      pump()
    })
  }

  test('a script that writes its whole 20 MB body before reading gets the 413 envelope, whether it keeps the connection or not', async () => {
    const twenty = 20 * 1024 * 1024
    const envelope = { status: 413, body: JSON.stringify(TOO_LARGE) }
    for (let i = 0; i < 4; i++) {
      for (const target of ['/api/auth/login', '/api/trpc/auth.login']) {
        expect(await uploadWhole(target, twenty, { 'content-length': String(twenty), connection: 'close' })).toEqual(envelope)
        expect(await uploadWhole(target, twenty, { 'content-length': String(twenty) })).toEqual(envelope)
        expect(await uploadWhole(target, twenty, { connection: 'close' })).toEqual(envelope)
      }
    }
    expect((await api(direct.url, 'GET', '/health')).status).toBe(200)
  }, 60_000)

  test('an over-limit body that never ends is not read for ever: the server closes the connection while the client still sends', async () => {
    const socket = net.connect(direct.port, '127.0.0.1')
    socket.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n')
    // 1 KB every 50 ms: 50 MB would take 40 minutes.
    const trickle = setInterval(() => void socket.write(' '.repeat(1024)), 50)
    let answer = ''
    socket.on('data', (d) => (answer += d))
    socket.on('error', () => {})
    await new Promise((resolve) => socket.on('close', resolve))
    clearInterval(trickle)
    expect(answer === '' || answer.startsWith('HTTP/1.1 413')).toBe(true)
    expect((await api(direct.url, 'GET', '/health')).status).toBe(200)
  }, 60_000)

  test('a chunked body is cut at the limit: 2 MB without Content-Length gets the 413 envelope', async () => {
    for (const target of ['/api/auth/login', '/api/trpc/auth.login']) {
      const res = await fetch(direct.url + target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chunked(2 * 1024 * 1024) })
      expect(res.status).toBe(413)
      expect(await res.json()).toEqual(TOO_LARGE)
    }
  })

  test('a small chunked body is still read whole', async () => {
    const json = new TextEncoder().encode(JSON.stringify({ email: 'chunked@example.com', password: 'wrong-password' }))
    const inPieces = () =>
      new ReadableStream({
        start(c) {
          for (let i = 0; i < json.length; i += 7) c.enqueue(json.slice(i, i + 7))
          c.close()
        },
      })
    const rest = await fetch(`${direct.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: inPieces() })
    expect(rest.status).toBe(401)
    expect(await rest.json()).toEqual({ success: false, error: 'Invalid email or password' })
  })

  test('a 900 KB body is read and validated as usual', async () => {
    const body = JSON.stringify({ email: 'x@example.com', password: 'p'.repeat(900 * 1024) })
    const rest = await api(direct.url, 'POST', '/auth/login', { raw: body })
    expect(rest).toMatchObject({ status: 400, body: { success: false, error: 'Password must be at most 128 characters' } })
    const trpc = await fetch(`${direct.url}/api/trpc/auth.login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"json":${body}}` })
    expect(trpc.status).toBe(400)
    expect(JSON.stringify(await trpc.json())).toContain('Password must be at most 128 characters')
  })
})

describe('reset tokens stay out of the logs', () => {
  test('the reset page and the reset call are logged with the token redacted', async () => {
    const m = await createMember(direct.url)
    expect((await api(direct.url, 'POST', '/auth/forgot-password', { body: { email: m.email } })).status).toBe(200)
    const mail = await waitForOutboxMail(direct.dataDir)
    const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail)![1]
    expect((await fetch(`${direct.url}/reset-password/${token}`)).status).toBe(200)
    expect((await api(direct.url, 'POST', `/auth/reset-password/${token}`, { body: { password: 'new-password' } })).status).toBe(200)
    // A second, now-spent use is logged too (a 400), still without the token.
    expect((await api(direct.url, 'POST', `/auth/reset-password/${token}`, { body: { password: 'new-password' } })).status).toBe(400)
    await Bun.sleep(200)
    const log = direct.logs.join('\n')
    expect(log).not.toContain(token)
    expect(log).toContain('"path":"/reset-password/[redacted]"')
    expect(log).toContain('"path":"/api/auth/reset-password/[redacted]"')
  })
})
