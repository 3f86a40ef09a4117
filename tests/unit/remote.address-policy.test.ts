// The remote address policy on every kind of address (no network: literals only).
import { describe, expect, test } from 'bun:test'
import { judgeAddress } from '~/server/remote/address-policy'

const strict = { allowHosts: [], allowPrivate: false }

describe('address policy', () => {
  test('public unicast passes', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) expect(judgeAddress(ip, strict)).toEqual({ ok: true })
  })
  test('loopback, link-local, unspecified, multicast, broadcast, reserved are refused', () => {
    const cases: Array<[string, string]> = [
      ['127.0.0.1', 'loopback'],
      ['127.8.9.10', 'loopback'],
      ['::1', 'loopback'],
      ['169.254.169.254', 'link-local'],
      ['fe80::1', 'link-local'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['2002:7f00:1::', 'loopback'],
      ['::ffff:169.254.1.1', 'link-local'],
      ['2001::1', 'Teredo tunnel'],
      // IPv4-compatible ::a.b.c.d carries the IPv4 address too.
      ['::7f00:1', 'loopback'],
      ['::a00:1', 'private'],
      // Outside global unicast 2000::/3.
      ['4000::1', 'reserved (not global unicast)'],
      ['100::1', 'reserved (discard)'],
      ['fec0::1', 'reserved (deprecatedSiteLocal)'],
    ]
    for (const [ip, label] of cases) expect(judgeAddress(ip, strict)).toMatchObject({ ok: false, label })
  })
  test('private and unique-local are refused unless REMOTE_ALLOW_PRIVATE', () => {
    for (const ip of ['10.0.0.1', '172.16.5.4', '192.168.1.10', '100.64.0.1', 'fc00::1', 'fd12:3456::1', '::ffff:192.168.0.1']) {
      expect(judgeAddress(ip, strict)).toMatchObject({ ok: false, privateRange: true })
      expect(judgeAddress(ip, { allowHosts: [], allowPrivate: true })).toEqual({ ok: true })
    }
    expect(judgeAddress('127.0.0.1', { allowHosts: [], allowPrivate: true })).toMatchObject({ ok: false, label: 'loopback' })
  })
  test('REMOTE_ALLOW_HOSTS lets a listed address through in any spelling', () => {
    const policy = { allowHosts: ['127.0.0.2', '::1'], allowPrivate: false }
    expect(judgeAddress('127.0.0.2', policy)).toEqual({ ok: true })
    expect(judgeAddress('::ffff:127.0.0.2', policy)).toEqual({ ok: true })
    expect(judgeAddress('0:0:0:0:0:0:0:1', policy)).toEqual({ ok: true })
    expect(judgeAddress('127.0.0.1', policy)).toMatchObject({ ok: false })
  })
})
