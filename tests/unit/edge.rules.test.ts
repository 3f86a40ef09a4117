// The per-request rules of the server edge, without a server: what a client's headers may claim
// (country, https) depending on the proxy, the rate-limit keys (IPv6 by /64), the limiter's
// windows and bounded memory, the API metrics ring, and reset tokens redacted from logged paths.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { apiMetrics, recordRequest } from '~/server/http/metrics'
import { redactPath } from '~/server/http/redact'
import { parseTrustProxy, type TrustProxy } from '~/server/http/trust-proxy'

// client-info and rate-limit read the config module, which creates DATA_DIR: keep it out of the tree.
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'vibes-unit-'))
const { addressKey, clientInfo, CLIENT_IP_HEADER, forwardedHttps } = await import('~/server/http/client-info')
const { createLimiter } = await import('~/server/http/rate-limit')

const proxies = parseTrustProxy('10.0.0.0/8') as TrustProxy
const headers = (socket: string, extra: Record<string, string> = {}) => new Headers({ [CLIENT_IP_HEADER]: socket, ...extra })
const CF = { 'cf-ipcountry': 'gb', 'cf-region': 'England', 'cf-ipcity': 'London', 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' }

describe('client info', () => {
  test('place and https come from a trusted proxy only', () => {
    const viaProxy = clientInfo(headers('10.1.1.1', CF), { trust: proxies, defaultCountry: undefined })
    expect(viaProxy).toMatchObject({ ip: '203.0.113.7', country: 'GB', region: 'England', city: 'London' })
    const direct = clientInfo(headers('198.51.100.1', CF), { trust: proxies, defaultCountry: undefined })
    expect(direct).toMatchObject({ ip: '198.51.100.1', country: null, region: null, city: null })
    expect(forwardedHttps(headers('10.1.1.1', CF), proxies)).toBe(true)
    expect(forwardedHttps(headers('198.51.100.1', CF), proxies)).toBe(false)
    expect(forwardedHttps(headers('10.1.1.1', CF), { kind: 'none' })).toBe(false)
  })

  test('DEFAULT_COUNTRY stands in when no trusted header names a country (Cloudflare XX is none)', () => {
    const settings = { trust: proxies, defaultCountry: 'DE' }
    expect(clientInfo(headers('192.168.1.20'), settings).country).toBe('DE')
    expect(clientInfo(headers('198.51.100.1', { 'cf-ipcountry': 'JP' }), settings).country).toBe('DE')
    expect(clientInfo(headers('10.1.1.1', { 'cf-ipcountry': 'XX' }), settings).country).toBe('DE')
    expect(clientInfo(headers('10.1.1.1', { 'cf-ipcountry': 'jp' }), settings).country).toBe('JP')
    expect(clientInfo(headers('10.1.1.1'), { trust: proxies, defaultCountry: undefined }).country).toBeNull()
  })

  test('rate-limit keys: IPv4 as is, IPv6 by its /64, IPv4-mapped as IPv4', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7')
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(addressKey('2001:db8:5:6:aaaa::1')).toBe(addressKey('2001:db8:5:6:ffff:1:2:3'))
    expect(addressKey('2001:db8:5:6::1')).not.toBe(addressKey('2001:db8:5:7::1'))
  })
})

describe('limiter', () => {
  const limits = { login: { max: 3, windowMs: 60_000 } }

  test('a fixed window: max calls, then the seconds left; a new window starts afresh', () => {
    const limiter = createLimiter(limits)
    const t0 = 1_000_000
    expect([0, 1, 2].map((i) => limiter.take('login', 'a', t0 + i))).toEqual([0, 0, 0])
    expect(limiter.take('login', 'a', t0 + 10_000)).toBe(50)
    expect(limiter.take('login', 'b', t0 + 10_000)).toBe(0)
    expect(limiter.take('login', 'a', t0 + 60_000)).toBe(0)
  })

  test('memory stays bounded under a flood of new keys, and a limited client stays limited while it keeps trying', () => {
    const limiter = createLimiter(limits, { generationMs: 60_000, maxKeys: 1000 })
    const t0 = 5_000_000
    for (let i = 0; i < 3; i++) limiter.take('login', 'grinder', t0)
    for (let i = 0; i < 50_000; i++) {
      limiter.take('login', `flood-${i}`, t0 + 1)
      if (i % 500 === 0) expect(limiter.take('login', 'grinder', t0 + 1)).toBeGreaterThan(0)
    }
    expect(limiter.size()).toBeLessThanOrEqual(2000)
  })

  test('keys idle for a whole generation are forgotten', () => {
    const limiter = createLimiter(limits, { generationMs: 60_000, maxKeys: 1000 })
    const t0 = 9_000_000
    for (let i = 0; i < 100; i++) limiter.take('login', `k${i}`, t0)
    limiter.take('login', 'other', t0 + 60_000)
    limiter.take('login', 'other', t0 + 120_000)
    // Only "other" is left (held by both generations, having been touched in each).
    expect(limiter.size()).toBe(2)
  })
})

describe('API metrics', () => {
  test('average, p95, error rate and requests per minute over the last 15 minutes, older samples ignored', () => {
    const now = 50_000_000_000
    for (let i = 0; i < 10; i++) recordRequest(1000, 500, now - 20 * 60_000)
    for (let i = 1; i <= 100; i++) recordRequest(i, i <= 5 ? 500 : 200, now - (i <= 50 ? 10_000 : 5 * 60_000))
    const m = apiMetrics(now)
    expect(m.apiLatency).toEqual({ avg: 50.5, p95: 96 })
    expect(m.errorRate).toBe(0.05)
    expect(m.requestsPerMinute).toBe(50)
  })
})

describe('log redaction', () => {
  test('reset tokens in the page and API paths are replaced; other paths are untouched', () => {
    expect(redactPath('/reset-password/abc123')).toBe('/reset-password/[redacted]')
    expect(redactPath('/api/auth/reset-password/abc123')).toBe('/api/auth/reset-password/[redacted]')
    expect(redactPath('/api/auth/reset-password/abc123/')).toBe('/api/auth/reset-password/[redacted]/')
    expect(redactPath('/RESET-PASSWORD/abc123')).toBe('/RESET-PASSWORD/[redacted]')
    expect(redactPath('/api/health')).toBe('/api/health')
    expect(redactPath('/reset-password')).toBe('/reset-password')
  })

  test('a share link id (a bearer secret for its tracks) is replaced on the public page /s/<id>', () => {
    expect(redactPath('/s/AbC_123-xyzAbC_123-xyz12')).toBe('/s/[redacted]')
    expect(redactPath('/S/AbC_123-xyzAbC_123-xyz12/')).toBe('/S/[redacted]/')
    expect(redactPath('/songs/abc')).toBe('/songs/abc')
    expect(redactPath('/library/s/abc')).toBe('/library/s/abc')
  })
})
