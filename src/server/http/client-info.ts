// Who is calling: IP, User-Agent and place. The server entry writes the socket address into
// CLIENT_IP_HEADER after deleting any copy the client sent, so that header can be trusted here.
// Everything else a proxy may add (X-Forwarded-For, X-Forwarded-Proto, CF-IPCountry…) is the
// client's own word unless the socket peer is a proxy TRUST_PROXY names (trust-proxy.ts).
// The place: a trusted proxy's header, else the offline GeoIP database (geoip.ts: country, and
// region and city where the city database is installed) for a public address, else DEFAULT_COUNTRY
// (private and unknown addresses: plays from the LAN).
import { config } from '../config'
import { placeOfAddress } from './geoip'
import { isTrustedProxy, readAddress, resolveClientAddress, type TrustProxy } from './trust-proxy'

export const CLIENT_IP_HEADER = 'x-vibes-client-ip'

export type ClientInfo = { ip: string; userAgent: string; country: string | null; region: string | null; city: string | null }

type EdgeSettings = { trust: TrustProxy; defaultCountry: string | undefined }

const socketAddress = (headers: Headers) => headers.get(CLIENT_IP_HEADER) ?? '127.0.0.1'

// Asking the socket is a system call (getpeername): a fifth of a health check's CPU beside the
// rest of it. So the front (serve.ts) asks it up front only where the request may be copied before a
// handler reads it (pages, bodies, media); for API reads it leaves the header empty and
// the request context fills it here the first time a handler needs the address (decision 042).
export type PeerSource = { requestIP(request: Request): { address: string } | null }
let peers: PeerSource | undefined

/** The start-up (start-up.ts), once listening: the server whose sockets withPeerAddress asks. */
export function askPeersOf(server: PeerSource) {
  peers = server
}

/** The request's headers, with CLIENT_IP_HEADER set from its socket if serve.ts left it for later. */
export function withPeerAddress(request: Request): Headers {
  const { headers } = request
  if (peers !== undefined && !headers.has(CLIENT_IP_HEADER)) headers.set(CLIENT_IP_HEADER, peers.requestIP(request)?.address ?? '127.0.0.1')
  return headers
}

export function clientInfo(headers: Headers, settings: EdgeSettings = { trust: config.TRUST_PROXY, defaultCountry: config.DEFAULT_COUNTRY }): ClientInfo {
  const socket = socketAddress(headers)
  const ip = resolveClientAddress(settings.trust, socket, headers.get('x-forwarded-for'))
  let country: string | null = null
  let region: string | null = null
  let city: string | null = null
  if (isTrustedProxy(settings.trust, socket)) {
    country = headers.get('cf-ipcountry') ?? headers.get('x-country') ?? null
    // Cloudflare says XX for "unknown" and T1 for Tor; neither is a place.
    if (country && (!/^[A-Za-z]{2}$/.test(country) || country.toUpperCase() === 'XX')) country = null
    country = country?.toUpperCase() ?? null
    region = headers.get('cf-region') ?? headers.get('x-region') ?? null
    city = headers.get('cf-ipcity') ?? headers.get('x-city') ?? null
    region = region?.slice(0, 100) ?? null
    city = city?.slice(0, 100) ?? null
  }
  if (!country) {
    // The database's region and city go with its country only, never beside a proxy's country.
    const place = placeOfAddress(ip)
    if (place) ({ country, region, city } = place)
    else country = settings.defaultCountry ?? null
  }
  return { ip, userAgent: (headers.get('user-agent') ?? '').slice(0, 512), country, region, city }
}

/** Whether the caller reached the trusted proxy over https (X-Forwarded-Proto, first entry). */
export function forwardedHttps(headers: Headers, trust: TrustProxy = config.TRUST_PROXY): boolean {
  if (trust.kind === 'none' || !isTrustedProxy(trust, socketAddress(headers))) return false
  return headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https'
}

/** The key rate limits count a client under: an IPv4 address, or an IPv6 address's /64. */
export function addressKey(ip: string): string {
  return readAddress(ip)?.key ?? ip
}
