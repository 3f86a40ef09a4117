// Places without a proxy's country header (decision 036): a play recorded through
// the real server from a public address gets its country, region and city from the offline DB-IP
// database, and the admin's Geographic report names that city; a LAN play gets DEFAULT_COUNTRY only.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { copyFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
beforeAll(async () => {
  // The test client connects over loopback, so a trusted loopback proxy lets it name the address.
  server = await startServer({ ...adminEnv, TRUST_PROXY: 'true', DEFAULT_COUNTRY: 'CY' })
}, 60_000)
afterAll(() => server?.stop())

test("a play from a public address is placed in its city; the Geographic report lists it, a LAN play is DEFAULT_COUNTRY's", async () => {
  const member = await createMember(server.url)
  const play = (from: string, title: string) =>
    api(server.url, 'POST', '/playlist/plays', {
      token: member.token,
      headers: { 'x-forwarded-for': from },
      body: { trackUrl: `https://music.example/${title}.mp3`, title, artist: 'Someone', duration: 180 },
    })
  expect((await play('81.2.69.142', 'From London')).status).toBe(201)
  expect((await play('192.168.1.20', 'From the LAN')).status).toBe(201)

  const admin = await loginAdmin(server.url)
  const geo = await api(server.url, 'GET', '/analytics/geographic-listening?days=7', { token: admin })
  expect(geo.status).toBe(200)
  expect(geo.body.data.cities).toEqual([expect.objectContaining({ city: 'London', region: 'England', country: 'GB', plays: 1, uniqueUsers: 1 })])
  expect(geo.body.data.countries).toEqual(
    expect.arrayContaining([expect.objectContaining({ country: 'GB', plays: 1 }), expect.objectContaining({ country: 'CY', plays: 1 })]),
  )
})

test('a database file truncated or rewritten in place while the server runs: the server survives and keeps placing plays', async () => {
  // A copy of the country database (the installed one is hard-linked into the package cache).
  const dir = mkdtempSync(path.join(tmpdir(), 'vibes-geoip-'))
  const file = path.join(dir, 'countries.mmdb')
  copyFileSync(createRequire(import.meta.url).resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb'), file)
  const geo = await startServer({ ...adminEnv, TRUST_PROXY: 'true', DEFAULT_COUNTRY: 'CY', VIBES_GEOIP_DB: file })
  try {
    const member = await createMember(geo.url)
    const play = (from: string) =>
      api(geo.url, 'POST', '/playlist/plays', {
        token: member.token,
        headers: { 'x-forwarded-for': from },
        body: { trackUrl: `https://music.example/${from}.mp3`, title: from, artist: 'Someone', duration: 180 },
      })
    expect((await play('81.2.69.142')).status).toBe(201)
    // Truncated (as `cp` or `curl -o` over the file does first), then rewritten with other bytes.
    truncateSync(file, 0)
    expect((await play('8.8.8.8')).status).toBe(201)
    writeFileSync(file, new Uint8Array(1024 * 1024).fill(0x5a))
    expect((await play('1.1.1.1')).status).toBe(201)
    expect((await api(geo.url, 'GET', '/health')).status).toBe(200)
    const report = await api(geo.url, 'GET', '/analytics/geographic-listening?days=7', { token: await loginAdmin(geo.url) })
    const countries = report.body.data.countries.map((c: { country: string }) => c.country).sort()
    expect(countries).toEqual(['AU', 'GB', 'US'])
  } finally {
    await geo.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
