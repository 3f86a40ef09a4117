// Which addresses a remote folder URL may reach: public unicast only. Loopback,
// link-local, unspecified, multicast, broadcast and reserved ranges are refused; private,
// carrier-grade NAT and unique-local ranges only with REMOTE_ALLOW_PRIVATE; any host or IP listed
// in REMOTE_ALLOW_HOSTS passes. IPv6 forms that carry an IPv4 address (IPv4-mapped, NAT64 with
// the well-known 64:ff9b::/96 or the local-use 64:ff9b:1::/48, 6to4, the deprecated
// IPv4-compatible ::a.b.c.d) are judged by that IPv4 address, whatever the policy; Teredo is
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

const NAT64_WELL_KNOWN = ipaddr.IPv6.parse('64:ff9b::')
const NAT64_LOCAL_USE = ipaddr.IPv6.parse('64:ff9b:1::')
const v4At = (b: number[], ...at: number[]) => new ipaddr.IPv4(at.map((i) => b[i]))

/**
 * The IPv4 addresses an IPv6 address may stand for; empty when it carries none. The address is
 * judged by every one of them: for the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) we cannot
 * know which of RFC 6052's layouts the local gateway uses, so unless the bits between the /48 and
 * the last 32 are zero (the /96 layout, beyond doubt), each layout's reading must pass.
 */
function embeddedV4(addr: ipaddr.IPv6): ipaddr.IPv4[] {
  const range = addr.range()
  const b = addr.toByteArray()
  if (range === 'ipv4Mapped' || range === 'rfc6145') return [v4At(b, 12, 13, 14, 15)]
  // NAT64: the well-known prefix 64:ff9b::/96 carries the IPv4 address in its last 32 bits.
  if (range === 'rfc6052' && addr.match(NAT64_WELL_KNOWN, 96)) return [v4At(b, 12, 13, 14, 15)]
  if (range === 'rfc6052' && addr.match(NAT64_LOCAL_USE, 48)) {
    const last32 = v4At(b, 12, 13, 14, 15)
    if (b.slice(6, 12).every((x) => x === 0)) return [last32]
    // RFC 6052 §2.2: /48, /56 and /64 prefixes skip bits 64–71 (byte 8).
    return [v4At(b, 6, 7, 9, 10), v4At(b, 7, 9, 10, 11), v4At(b, 9, 10, 11, 12), last32]
  }
  if (range === '6to4') return [v4At(b, 2, 3, 4, 5)]
  // IPv4-compatible (::/96, deprecated but still routed by some stacks): '::7f00:1' is 127.0.0.1.
  if (range === 'unicast' && b.slice(0, 12).every((x) => x === 0)) return [v4At(b, 12, 13, 14, 15)]
  return []
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
  const carried = embeddedV4(v6)
  if (carried.length) {
    const refusals = carried.flatMap((v4) => {
      const verdict = isAllowedHost(v4.toString(), policy) ? ({ ok: true } as const) : judgeV4(v4, policy)
      return verdict.ok ? [] : [verdict]
    })
    // A reading in 0.0.0.0/8 is usually a layout that does not apply: name the other one.
    return refusals.find((r) => r.label !== 'unspecified') ?? refusals[0] ?? { ok: true }
  }
  const range = v6.range()
  // Only global unicast (2000::/3) is public; ipaddr.js calls the unassigned rest 'unicast' too.
  if (range === 'unicast') return (v6.parts[0] & 0xe000) === 0x2000 ? { ok: true } : { ok: false, label: 'reserved (not global unicast)', privateRange: false }
  if (range === 'uniqueLocal' || range === 'rfc6052') return policy.allowPrivate ? { ok: true } : { ok: false, label: label(range), privateRange: true }
  return { ok: false, label: label(range), privateRange: false }
}

/** Host names are compared lower-case, without brackets or a trailing dot. */
export const canonicalHost = (host: string) =>
  host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')

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
