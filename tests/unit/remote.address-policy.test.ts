// The remote address policy on every kind of address (no network: literals only).
import { describe, expect, test } from 'bun:test'
import { judgeAddress } from '~/server/remote/address-policy'

const strict = { allowHosts: [], allowPrivate: false }

describe('address policy', () => {
  test('public unicast passes', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])
      expect(judgeAddress(ip, strict)).toEqual({ ok: true })
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
  test('the local-use NAT64 prefix 64:ff9b:1::/48 is judged by its embedded IPv4, even with REMOTE_ALLOW_PRIVATE', () => {
    const lan = { allowHosts: [], allowPrivate: true }
    // The /96 layout (IPv4 in the last 32 bits), as NAT64 gateways use it by default.
    for (const [ip, label] of [
      ['64:ff9b:1::7f00:1', 'loopback'],
      ['64:ff9b:1::127.0.0.1', 'loopback'],
      ['64:ff9b:1::a9fe:a9fe', 'link-local'],
      ['64:ff9b:1::', 'unspecified'],
      ['64:ff9b:1::e000:1', 'multicast'],
    ]) {
      expect(judgeAddress(ip, lan)).toMatchObject({ ok: false, label })
      expect(judgeAddress(ip, strict)).toMatchObject({ ok: false, label })
    }
    // RFC 6052's /48, /56 and /64 layouts put 127.0.0.1 elsewhere in the address; each is refused.
    for (const ip of ['64:ff9b:1:7f00:0:100::', '64:ff9b:1:7f:0:1::', '64:ff9b:1:0:7f:0:100:0'])
      expect(judgeAddress(ip, lan)).toMatchObject({ ok: false, label: 'loopback' })
    // A private IPv4 behind it follows REMOTE_ALLOW_PRIVATE; a public one passes like 64:ff9b::/96.
    expect(judgeAddress('64:ff9b:1::a00:1', strict)).toMatchObject({ ok: false, label: 'private', privateRange: true })
    expect(judgeAddress('64:ff9b:1::a00:1', lan)).toEqual({ ok: true })
    expect(judgeAddress('64:ff9b:1::808:808', strict)).toEqual({ ok: true })
    expect(judgeAddress('64:ff9b:1::7f00:1', { allowHosts: ['127.0.0.1'], allowPrivate: false })).toEqual({ ok: true })
  })
})
