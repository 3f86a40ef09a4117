// Two nodes on one PostgreSQL behind nginx's round-robin upstream, configured as the README's
// "Growing past one box" shows: a member uses the one address and never learns which node answered.
// What they rely on: a sign-up, a login and a logout made through whichever node count on every
// node; and a stream cut by a node dying (`kill -9`) resumes, same signed URL, with a Range that
// nginx hands to the node still up. Always on PostgreSQL, whatever VIBES_TEST_ENGINE says.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { signMediaUrl } from '~/server/media/sign'
import { api } from '../helpers/api'
import { type ListingServer, startNginx } from '../helpers/listing-servers'
import { startTwoNodes, type TwoNodes } from '../helpers/nodes'
import { TEST_AUTH_SECRET, type TestServer } from '../helpers/server'

const MIB = 1024 * 1024
const TRACK = 'Mix/long mix.mp3'
// Bytes that differ at every offset, so a resumed Range that started in the wrong place shows; more
// than loopback's socket buffers hold, so A cannot have handed the whole file to the kernel.
const bytes = new Uint8Array(32 * MIB).map((_, i) => (i * 2654435761) >>> 24)
const sameBytes = (x: Uint8Array, y: Uint8Array) => x.length === y.length && x.every((v, i) => v === y[i])

let nodes: TwoNodes
let a: TestServer
let b: TestServer
let media: string
let nginx: ListingServer
const front = (route: string) => `${nginx.url}${route}`

beforeAll(async () => {
  // The README's variables every node shares: the database, the secret, the media, the proxy.
  nodes = await startTwoNodes({ TRUST_PROXY: 'true' }, { sharedMedia: true })
  ;({ a, b } = nodes)
  media = nodes.media!
  mkdirSync(path.join(media, 'Mix'), { recursive: true })
  writeFileSync(path.join(media, TRACK), bytes)
  nginx = await startNginx(
    media,
    '127.0.0.1',
    `location / {
       proxy_pass http://vibes;
       proxy_http_version 1.1;
       proxy_set_header Connection "";
       proxy_set_header Host $host;
       proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
     }`,
    `upstream vibes { server 127.0.0.1:${a.port}; server 127.0.0.1:${b.port}; keepalive 8; }`,
  )
}, 60_000)
afterAll(async () => {
  await nginx?.stop()
  await nodes?.stop()
})

describe('two nodes behind nginx round-robin', () => {
  test('sign up, log in, use and log out through the one address: each step holds on both nodes', async () => {
    const input = { username: `front${Date.now().toString(36)}`, email: `front-${Date.now()}@example.com`, password: 'tune-in-2-vibes' }
    expect((await api(nginx.url, 'POST', '/auth/signup', { body: input })).status).toBe(201)
    const login = await api(nginx.url, 'POST', '/auth/login', { body: { email: input.email, password: input.password } })
    expect(login.status).toBe(200)
    const token = login.body.data.token as string
    // Round-robin: consecutive requests go to alternate nodes, so four cover both twice.
    for (let i = 0; i < 4; i++) expect((await api(nginx.url, 'GET', '/auth/session', { token })).body.data.user.email).toBe(input.email)
    for (const node of [a, b]) expect((await api(node.url, 'GET', '/auth/session', { token })).status).toBe(200)

    expect((await api(nginx.url, 'POST', '/auth/logout', { token })).status).toBe(200)
    for (let i = 0; i < 4; i++) expect((await api(nginx.url, 'GET', '/auth/session', { token })).status).toBe(401)
    for (const node of [a, b]) expect((await api(node.url, 'GET', '/auth/session', { token })).status).toBe(401)
  })

  test('node A killed mid-stream: the same signed URL resumes its Range through nginx on B', async () => {
    const url = signMediaUrl(TEST_AUTH_SECRET, TRACK)
    // The listener's stream is on A (nginx picked it); read part of it, then A dies.
    const res = await fetch(a.url + url)
    expect(res.status).toBe(200)
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    const received: Uint8Array[] = []
    let got = 0
    while (got < MIB) {
      const { value, done } = await reader.read()
      if (done) break
      received.push(value)
      got += value.length
    }
    expect(got).toBeLessThan(bytes.length)
    await a.kill9()
    // What A had sent before it died may still be buffered; drain it, then the stream must fail or end short.
    let cut = false
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        received.push(value)
        got += value.length
      }
    } catch {
      cut = true
    }
    expect(cut || got < bytes.length).toBe(true)
    expect(sameBytes(new Uint8Array(Buffer.concat(received)), bytes.subarray(0, got))).toBe(true)

    // The player asks again from where it stopped; A refuses connections, nginx tries B.
    for (let i = 0; i < 2; i++) {
      const resumed = await fetch(front(url), { headers: { range: `bytes=${got}-` } })
      expect(resumed.status).toBe(206)
      expect(resumed.headers.get('content-range')).toBe(`bytes ${got}-${bytes.length - 1}/${bytes.length}`)
      const rest = new Uint8Array(await resumed.arrayBuffer())
      expect(sameBytes(rest, bytes.subarray(got))).toBe(true)
    }
  })
})
