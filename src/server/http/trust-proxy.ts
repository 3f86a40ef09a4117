// TRUST_PROXY: which X-Forwarded-For entries were written by proxies we trust.
// `false`: none (the socket address is the client). `true`: one proxy, so the client is the
// rightmost entry. A number N: N proxy hops. A comma list of addresses/CIDRs: walk from the right,
// skipping entries (and the socket) that are trusted proxies; the first untrusted one is the client.
// Entries left of that are written by the client itself and never decide who it is.
import ipaddr from 'ipaddr.js'

export type TrustProxy = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'cidrs'; ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][]; source: string }

/** The parsed setting, or a message saying what is wrong with it. */
export function parseTrustProxy(raw: string): TrustProxy | string {
  const v = raw.trim().toLowerCase()
  if (['false', '0', 'off', 'no'].includes(v)) return { kind: 'none' }
  if (['true', 'on', 'yes'].includes(v)) return { kind: 'hops', hops: 1 }
  if (/^\d+$/.test(v)) {
    const hops = Number(v)
    return hops >= 1 && hops <= 32 ? { kind: 'hops', hops } : 'must be false, true, a number of hops from 1 to 32, or a list of proxy addresses/CIDRs'
  }
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = []
  for (const part of v
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const written = part.split('/')[0]
    // ipaddr.parse also reads inet_aton shorthands ('010.1.1.1' is 8.1.1.1): only plain forms here.
    if (!ipaddr.IPv4.isValidFourPartDecimal(written) && !ipaddr.IPv6.isValid(written)) return `has "${part}", which is not an IP address or CIDR`
    try {
      if (part.includes('/')) ranges.push(ipaddr.parseCIDR(part))
      else {
        const addr = ipaddr.parse(part)
        ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128])
      }
    } catch {
      return `has "${part}", which is not an IP address or CIDR`
    }
  }
  if (ranges.length === 0) return 'must be false, true, a number of hops, or a list of proxy addresses/CIDRs'
  return { kind: 'cidrs', ranges, source: v }
}

type Address = ipaddr.IPv4 | ipaddr.IPv6

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

/**
 * One address as a proxy or socket writes it: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`,
 * `[2001:db8::1]:443`. IPv4-mapped IPv6 becomes IPv4; the IPv6 zone is dropped. Anything else
 * (names, `unknown`, inet_aton forms such as `127.1`) is null.
 */
export function parseAddress(raw: string): Address | null {
  // Every request parses one or more addresses, so the common forms take the short way: plain
  // string checks before any regex, IPv4 by hand (ipaddr's validators cost µs each).
  let s = raw.trim()
  if (s.startsWith('[')) {
    const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(s)
    if (!bracketed) return null
    s = bracketed[1]
  }
  const colon = s.indexOf(':')
  if (colon >= 0 && colon === s.lastIndexOf(':') && /^[\d.]+:\d{1,5}$/.test(s)) s = s.slice(0, colon)
  if (!s.includes(':')) {
    const v4 = IPV4.exec(s)
    if (!v4) return null
    const parts = v4.slice(1)
    return parts.every((p) => Number(p) <= 255 && (p.length === 1 || p[0] !== '0')) ? new ipaddr.IPv4(parts.map(Number)) : null
  }
  try {
    const v6 = ipaddr.IPv6.parse(s.includes('%') ? s.slice(0, s.indexOf('%')) : s)
    return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6
  } catch {
    return null
  }
}

function isTrustedAddress(trust: TrustProxy, address: Address): boolean {
  if (trust.kind !== 'cidrs') return trust.kind === 'hops'
  return trust.ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits))
}

/** A parsed address with its canonical text (IPv6 per RFC 5952) and its rate-limit key. */
export type ReadAddress = { address: Address; text: string; key: string }

// The same strings come back request after request (the proxy's own address, each client's), and
// parsing IPv6 costs several µs: results are remembered in two generations of at most MEMO_SIZE
// entries (O(1) per lookup, bounded memory; an address flood only means misses).
const MEMO_SIZE = 5000
let memo = new Map<string, ReadAddress | null>()
let olderMemo = new Map<string, ReadAddress | null>()

/** parseAddress, remembered, with the canonical text and the rate-limit key (IPv6: its /64). */
export function readAddress(raw: string): ReadAddress | null {
  let read = memo.get(raw)
  if (read !== undefined) return read
  read = olderMemo.get(raw)
  if (read === undefined) {
    const address = parseAddress(raw)
    read = address && (address.kind() === 'ipv4' ? { address, text: address.toString(), key: address.toString() } : readIPv6(address as ipaddr.IPv6))
  }
  if (memo.size >= MEMO_SIZE) {
    olderMemo = memo
    memo = new Map()
  }
  memo.set(raw, read)
  return read
}

function readIPv6(address: ipaddr.IPv6): ReadAddress {
  // One subscriber usually holds a whole /64, so per-address keys would let it rotate freely.
  return {
    address,
    text: address.toRFC5952String(),
    key: `${address.parts
      .slice(0, 4)
      .map((p) => p.toString(16))
      .join(':')}::/64`,
  }
}

/** Whether the peer on the socket is a proxy we trust, so its forwarding headers count. */
export function isTrustedProxy(trust: TrustProxy, socket: string): boolean {
  const read = readAddress(socket)
  return read !== null && isTrustedAddress(trust, read.address)
}

/**
 * The client's address from the socket address and the X-Forwarded-For header, walking the hops
 * from the right: the socket first, then each entry a trusted proxy appended. The walk stops at
 * the first hop that is not trusted (hops: after N entries; CIDRs: an address outside the list)
 * and that hop is the client. An unreadable entry where a trusted proxy should have written an
 * address stops the walk at the last readable hop, so garbage never becomes a client identity.
 */
export function resolveClientAddress(trust: TrustProxy, socket: string, forwardedFor: string | null): string {
  let client = readAddress(socket)
  if (!client) return socket
  if (trust.kind === 'none' || !forwardedFor) return client.text
  const entries = forwardedFor.split(',')
  for (let hop = 1, i = entries.length - 1; i >= 0; hop++, i--) {
    const trusted = trust.kind === 'hops' ? hop <= trust.hops : isTrustedAddress(trust, client.address)
    if (!trusted) break
    const next = readAddress(entries[i])
    if (!next) break
    client = next
  }
  return client.text
}
