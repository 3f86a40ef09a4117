// Which addresses a remote folder URL may reach (CONTRACT §3): public unicast only. Loopback,
// link-local, unspecified, multicast, broadcast and reserved ranges are refused; private,
// carrier-grade NAT and unique-local ranges only with REMOTE_ALLOW_PRIVATE; any host or IP listed
// in REMOTE_ALLOW_HOSTS passes. IPv6 forms that carry an IPv4 address (IPv4-mapped, NAT64,
// 6to4, the deprecated IPv4-compatible ::a.b.c.d) are judged by that IPv4 address; Teredo is
// refused, and so is any other IPv6 address outside global unicast 2000::/3. Odd IPv4 literals
// (2130706433, 0x7f.1, 017700000001) are already normalised to dotted form by the WHATWG URL parser.
import ipaddr from 'ipaddr.js'

export type Verdict = { ok: true } | { ok: false; label: string; privateRange: boolean }

export type AddressPolicy = { allowHosts: readonly string[]; allowPrivate: boolean }

const PRIVATE_V4 = new Set(['private', 'carrierGradeNat'])
const LABELS: Record<string, string> = {
  loopback: 'loopback',
  linkLocal: 'link-local',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
  private: 'private',
  carrierGradeNat: 'private (carrier-grade NAT)',
  uniqueLocal: 'unique-local',
  teredo: 'Teredo tunnel',
}
const label = (range: string) => LABELS[range] ?? `reserved (${range})`

function embeddedV4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = addr.range()
  const b = addr.toByteArray()
  if (range === 'ipv4Mapped' || range === 'rfc6145') return new ipaddr.IPv4(b.slice(12, 16))
  // NAT64: the well-known prefix 64:ff9b::/96 carries the IPv4 address in its last 32 bits.
  if (range === 'rfc6052' && addr.match(ipaddr.IPv6.parse('64:ff9b::'), 96)) return new ipaddr.IPv4(b.slice(12, 16))
  if (range === '6to4') return new ipaddr.IPv4(b.slice(2, 6))
  // IPv4-compatible (::/96, deprecated but still routed by some stacks): '::7f00:1' is 127.0.0.1.
  if (range === 'unicast' && b.slice(0, 12).every((x) => x === 0)) return new ipaddr.IPv4(b.slice(12, 16))
  return null
}

function judgeV4(addr: ipaddr.IPv4, policy: AddressPolicy): Verdict {
  const range = addr.range()
  if (range === 'unicast') return { ok: true }
  const privateRange = PRIVATE_V4.has(range)
  if (privateRange && policy.allowPrivate) return { ok: true }
  return { ok: false, label: label(range), privateRange }
}

/** Whether a literal IP address may be contacted. */
export function judgeAddress(ip: string, policy: AddressPolicy): Verdict {
  let addr: ipaddr.IPv4 | ipaddr.IPv6
  try {
    addr = ipaddr.parse(ip.replace(/^\[|\]$/g, ''))
  } catch {
    return { ok: false, label: 'unparseable', privateRange: false }
  }
  if (isAllowedHost(addr.toNormalizedString(), policy) || isAllowedHost(addr.toString(), policy)) return { ok: true }
  if (addr.kind() === 'ipv4') return judgeV4(addr as ipaddr.IPv4, policy)
  const v6 = addr as ipaddr.IPv6
  const v4 = embeddedV4(v6)
  if (v4) {
    if (isAllowedHost(v4.toString(), policy)) return { ok: true }
    return judgeV4(v4, policy)
  }
  const range = v6.range()
  // Only global unicast (2000::/3) is public; ipaddr.js calls the unassigned rest 'unicast' too.
  if (range === 'unicast') return (v6.parts[0] & 0xe000) === 0x2000 ? { ok: true } : { ok: false, label: 'reserved (not global unicast)', privateRange: false }
  if (range === 'uniqueLocal' || range === 'rfc6052') return policy.allowPrivate ? { ok: true } : { ok: false, label: label(range), privateRange: true }
  return { ok: false, label: label(range), privateRange: false }
}

/** Host names are compared lower-case, without brackets or a trailing dot. */
export const canonicalHost = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '')

export function isAllowedHost(host: string, policy: AddressPolicy): boolean {
  if (!policy.allowHosts.length) return false
  const h = canonicalHost(host)
  return policy.allowHosts.some((allowed) => {
    const a = canonicalHost(allowed)
    if (a === h) return true
    // The same IP written differently ('::1' vs '0:0:0:0:0:0:0:1').
    try {
      return ipaddr.parse(a).toNormalizedString() === ipaddr.parse(h).toNormalizedString()
    } catch {
      return false
    }
  })
}
