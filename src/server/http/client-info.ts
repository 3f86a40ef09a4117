// Who is calling: IP, User-Agent and (with TRUST_PROXY) country/region/city from proxy headers.
// The server entry writes the socket address into CLIENT_IP_HEADER after deleting any copy the
// client sent, so the header can be trusted here.
import { config } from '../config'

export const CLIENT_IP_HEADER = 'x-vibes-client-ip'

export type ClientInfo = { ip: string; userAgent: string; country: string | null; region: string | null; city: string | null }

export function clientInfo(headers: Headers): ClientInfo {
  let ip = headers.get(CLIENT_IP_HEADER) ?? '127.0.0.1'
  let country: string | null = null
  let region: string | null = null
  let city: string | null = null
  if (config.TRUST_PROXY.kind !== 'none') {
    const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) ip = forwarded
    country = headers.get('cf-ipcountry') ?? headers.get('x-country') ?? null
    region = headers.get('cf-region') ?? headers.get('x-region') ?? null
    city = headers.get('cf-ipcity') ?? headers.get('x-city') ?? null
    if (country && !/^[A-Za-z]{2}$/.test(country)) country = null
    country = country?.toUpperCase() ?? null
    region = region?.slice(0, 100) ?? null
    city = city?.slice(0, 100) ?? null
  }
  return { ip, userAgent: (headers.get('user-agent') ?? '').slice(0, 512), country, region, city }
}
