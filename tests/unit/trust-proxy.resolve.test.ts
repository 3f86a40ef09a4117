// Who the client is behind proxies (TRUST_PROXY): every mode, IPv6, IPv4-mapped
// sockets, garbage entries, and the rule that entries a client writes itself (left of what the
// trusted proxies appended) never change the answer.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { parseAddress, parseTrustProxy, resolveClientAddress, type TrustProxy } from '~/server/http/trust-proxy'

const trust = (raw: string) => parseTrustProxy(raw) as TrustProxy
const none = trust('false')
const one = trust('true')
const two = trust('2')
const cidrs = trust('10.0.0.0/8, 192.0.2.10, fd00::/8')

describe('parseAddress', () => {
  test('reads the forms proxies write and canonicalises them', () => {
    const cases: Array<[string, string]> = [
      ['203.0.113.7', '203.0.113.7'],
      [' 203.0.113.7 ', '203.0.113.7'],
      ['203.0.113.7:51234', '203.0.113.7'],
      ['2001:DB8:0:0::1', '2001:db8::1'],
      ['[2001:db8::1]:443', '2001:db8::1'],
      ['[2001:db8::1]', '2001:db8::1'],
      ['::ffff:198.51.100.4', '198.51.100.4'],
      ['fe80::1%eth0', 'fe80::1'],
    ]
    for (const [raw, canonical] of cases) expect(parseAddress(raw)?.toString()).toBe(canonical)
  })

  test('refuses garbage and the ambiguous inet_aton forms', () => {
    for (const raw of [
      '',
      'unknown',
      '_hidden',
      'proxy.example.com',
      '127.1',
      '0x7f.0.0.1',
      '3232235777',
      '01.02.03.04',
      '1.2.3.4.5',
      '256.1.1.1',
      '2001:db8::g',
      '[1.2.3.4]x',
      '1.2.3.4:port',
    ])
      expect(parseAddress(raw)).toBeNull()
  })
})

describe('resolveClientAddress', () => {
  test('false: the socket is the client, whatever X-Forwarded-For says', () => {
    expect(resolveClientAddress(none, '127.0.0.1', '1.2.3.4')).toBe('127.0.0.1')
    expect(resolveClientAddress(none, '::ffff:127.0.0.1', null)).toBe('127.0.0.1')
  })

  test('true: the rightmost entry (the one our proxy appended) is the client', () => {
    expect(resolveClientAddress(one, '127.0.0.1', '203.0.113.7')).toBe('203.0.113.7')
    expect(resolveClientAddress(one, '127.0.0.1', '6.6.6.6, 1.1.1.1,203.0.113.7')).toBe('203.0.113.7')
    expect(resolveClientAddress(one, '127.0.0.1', '6.6.6.6, 2001:db8::7')).toBe('2001:db8::7')
    // No header: the request came straight to us.
    expect(resolveClientAddress(one, '::1', null)).toBe('::1')
  })

  test('a number of hops: that many entries from the right; a shorter chain gives its leftmost', () => {
    expect(resolveClientAddress(two, '127.0.0.1', '6.6.6.6, 203.0.113.7, 10.0.0.2')).toBe('203.0.113.7')
    expect(resolveClientAddress(two, '127.0.0.1', '203.0.113.7')).toBe('203.0.113.7')
    expect(resolveClientAddress(trust('3'), '127.0.0.1', '9.9.9.9, 8.8.8.8, 7.7.7.7, 6.6.6.6')).toBe('8.8.8.8')
  })

  test('proxy CIDRs: walk from the right past trusted proxies (the socket first); the first other address is the client', () => {
    // The socket is not a trusted proxy: the header is the caller's own word.
    expect(resolveClientAddress(cidrs, '198.51.100.9', '203.0.113.7')).toBe('198.51.100.9')
    expect(resolveClientAddress(cidrs, '10.1.2.3', '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7')
    expect(resolveClientAddress(cidrs, '10.1.2.3', '6.6.6.6, 203.0.113.7, 192.0.2.10, 10.9.9.9')).toBe('203.0.113.7')
    // An IPv4-mapped socket matches the IPv4 range; IPv6 proxies match IPv6 ranges.
    expect(resolveClientAddress(cidrs, '::ffff:10.1.2.3', '203.0.113.7')).toBe('203.0.113.7')
    expect(resolveClientAddress(cidrs, 'fd00::5', '2001:db8::1, fd12::1')).toBe('2001:db8::1')
    // Every hop trusted: the furthest one is the best we know.
    expect(resolveClientAddress(cidrs, '10.1.2.3', '10.7.7.7, 10.8.8.8')).toBe('10.7.7.7')
  })

  test('garbage where a trusted proxy should have written an address stops at the last readable hop', () => {
    expect(resolveClientAddress(one, '127.0.0.1', '203.0.113.7, unknown')).toBe('127.0.0.1')
    expect(resolveClientAddress(one, '127.0.0.1', '')).toBe('127.0.0.1')
    expect(resolveClientAddress(two, '127.0.0.1', 'nonsense, 10.0.0.2')).toBe('10.0.0.2')
    expect(resolveClientAddress(cidrs, '10.1.2.3', '203.0.113.7, <script>, 10.2.2.2')).toBe('10.2.2.2')
    // Garbage left of the client is the client's own and changes nothing.
    expect(resolveClientAddress(one, '127.0.0.1', 'x,,y, 203.0.113.7')).toBe('203.0.113.7')
  })
})

const ipv4 = fc.ipV4()
const ipv6 = fc.ipV6()
const anyEntry = fc.oneof(
  ipv4,
  ipv6,
  fc.string({ maxLength: 20 }).filter((s) => !s.includes(',')),
)
const proxyAddress = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`)
// The form the resolver answers in (IPv6 per RFC 5952).
const canonical = (ip: string) => resolveClientAddress(none, ip, null)
const publicAddress = fc.oneof(
  ipv4.filter((ip) => !ip.startsWith('10.') && ip !== '192.0.2.10'),
  fc.constant('2001:db8::42'),
)

describe('properties', () => {
  test('with N hops, entries left of the N rightmost never change who the client is', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(anyEntry, { maxLength: 6 }),
        fc.array(anyEntry, { maxLength: 6 }),
        fc.array(fc.oneof(ipv4, ipv6), { minLength: 5, maxLength: 5 }),
        (hops, spoofA, spoofB, appended) => {
          const t: TrustProxy = { kind: 'hops', hops }
          const tail = appended.slice(5 - hops)
          const a = resolveClientAddress(t, '127.0.0.1', [...spoofA, ...tail].join(', '))
          const b = resolveClientAddress(t, '127.0.0.1', [...spoofB, ...tail].join(', '))
          expect(a).toBe(b)
          // The client is the leftmost of the entries our proxies appended.
          expect(a).toBe(canonical(tail[0]))
        },
      ),
    )
  })

  test('with proxy CIDRs, entries left of the first untrusted address from the right never matter', () => {
    fc.assert(
      fc.property(
        fc.array(anyEntry, { maxLength: 6 }),
        fc.array(anyEntry, { maxLength: 6 }),
        publicAddress,
        fc.array(proxyAddress, { maxLength: 4 }),
        (spoofA, spoofB, client, proxies) => {
          const tail = [client, ...proxies]
          const a = resolveClientAddress(cidrs, '10.0.0.1', [...spoofA, ...tail].join(','))
          expect(a).toBe(resolveClientAddress(cidrs, '10.0.0.1', [...spoofB, ...tail].join(',')))
          expect(a).toBe(canonical(client))
        },
      ),
    )
  })

  test('any header at all gives a readable address, and without a trusted proxy always the socket', () => {
    fc.assert(
      fc.property(fc.oneof(ipv4, ipv6), fc.string({ maxLength: 200 }), (socket, header) => {
        for (const t of [none, one, two, cidrs]) expect(parseAddress(resolveClientAddress(t, socket, header))).not.toBeNull()
        expect(resolveClientAddress(none, socket, header)).toBe(canonical(socket))
      }),
    )
  })
})
