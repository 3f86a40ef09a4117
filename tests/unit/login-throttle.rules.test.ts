// The guessing limits (docs/decisions/046) on a real limiter with the server's numbers, without a
// server: guesses from many addresses do not lock the owner out, one address grinding is stopped,
// the doors count apart, and a right password clears the address's failures.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

// rate-limit reads the config module, which creates DATA_DIR: keep it out of the tree.
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'vibes-unit-'))
const { createLimiter } = await import('~/server/http/rate-limit')
const { createLoginThrottle } = await import('~/server/auth/login-throttle')

const WINDOW = { max: 10, windowMs: 15 * 60_000 }
const limits = { 'login-pair': WINDOW, 'login-account': WINDOW, 'rest-pair': WINDOW, 'rest-account': WINDOW, 'rest-address': { max: 30, windowMs: 60_000 } }
const t0 = 1_800_000_000_000
const fresh = () => createLoginThrottle(createLimiter(limits))
const web = (address: string, account: string | null = 'alice@example.com') => ({ door: 'web' as const, account, address })
const rest = (address: string, account: string | null = 'alice@example.com') => ({ door: 'rest' as const, account, address })

describe('login throttle', () => {
  test('failures from many addresses: those addresses wait, an address that has not failed may still try', () => {
    const throttle = fresh()
    for (let i = 0; i < 20; i++) throttle.failed(web(`198.51.100.${i}`), t0)
    expect(throttle.wait(web('198.51.100.3'), t0)).toBeGreaterThan(0)
    expect(throttle.wait(web('203.0.113.9'), t0)).toBe(0)
    expect(throttle.wait(rest('203.0.113.9'), t0)).toBe(0)
  })

  test('ten failures from one address: it waits, whatever the password, for the window; other addresses do not', () => {
    const throttle = fresh()
    for (let i = 0; i < 9; i++) throttle.failed(web('198.51.100.7'), t0)
    expect(throttle.wait(web('198.51.100.7'), t0)).toBe(0)
    throttle.failed(web('198.51.100.7'), t0)
    expect(throttle.wait(web('198.51.100.7'), t0)).toBe(15 * 60)
    expect(throttle.wait(web('203.0.113.9'), t0)).toBe(0)
    expect(throttle.wait(web('198.51.100.7'), t0 + 15 * 60_000)).toBe(0)
  })

  test('the doors count apart', () => {
    const throttle = fresh()
    for (let i = 0; i < 10; i++) throttle.failed(rest('198.51.100.7'), t0)
    expect(throttle.wait(rest('198.51.100.7'), t0)).toBeGreaterThan(0)
    expect(throttle.wait(web('198.51.100.7'), t0)).toBe(0)
  })

  test("a right password clears the address's failures, so the owner who mistyped is not held back", () => {
    const throttle = fresh()
    for (let i = 0; i < 10; i++) throttle.failed(web(`198.51.100.${i}`), t0)
    throttle.failed(web('203.0.113.9'), t0)
    expect(throttle.wait(web('203.0.113.9'), t0)).toBeGreaterThan(0)
    throttle.succeeded(web('203.0.113.9'))
    expect(throttle.wait(web('203.0.113.9'), t0)).toBe(0)
  })

  test('/rest: bad app keys (no account) and sprayed passwords count per address', () => {
    const throttle = fresh()
    for (let i = 0; i < 30; i++) throttle.failed(rest('198.51.100.8', i % 2 ? null : `user${i}@example.com`), t0)
    expect(throttle.wait(rest('198.51.100.8', null), t0)).toBeGreaterThan(0)
    expect(throttle.wait(rest('198.51.100.8', 'someone@example.com'), t0)).toBeGreaterThan(0)
    expect(throttle.wait(rest('203.0.113.9', null), t0)).toBe(0)
  })
})
