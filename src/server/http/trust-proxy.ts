// TRUST_PROXY (CONTRACT §6): which X-Forwarded-For entries were written by proxies we trust.
// `false`: none (the socket address is the client). `true`: one proxy, so the client is the
// rightmost entry. A number N: N proxy hops. A comma list of addresses/CIDRs: walk from the right,
// skipping entries (and the socket) that are trusted proxies; the first untrusted one is the client.
// Entries left of that are written by the client itself and never decide who it is.
import ipaddr from 'ipaddr.js'

export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'cidrs'; ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][]; source: string }

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
  for (const part of v.split(',').map((p) => p.trim()).filter(Boolean)) {
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
