// Country of a public IP address from an offline database (CONTRACT §3 "Analytics": never a
// network call). The database is @ip-location-db/geo-whois-asn-country-mmdb (RIR whois + ASN +
// geofeeds, CC BY 4.0 by the NRO, 7.8 MB for IPv4 and IPv6 together) read with mmdb-lib (MIT, no
// dependencies). It is read from disk on the first lookup of a public address, not at start-up:
// a LAN install, whose clients are all private addresses, never loads it. It names countries
// only; a city needs a proxy header (docs/decisions/030-console-places-audit-metrics.md). The
// single binary embeds the file and names it in VIBES_GEOIP_DB.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Reader, type Response } from 'mmdb-lib'
import { config } from '../config'
import { logger } from '../logger'
import { readAddress } from './trust-proxy'

const DATABASE = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb'

// The database's own record shape, not one of MaxMind's typed answers.
type CountryRecord = { country_code?: string }

// undefined: not tried yet; null: tried and not available (logged once, places stay unknown).
let reader: Reader<Response> | null | undefined

function openDatabase(): Reader<Response> | null {
  try {
    const file = config.VIBES_GEOIP_DB ?? createRequire(import.meta.url).resolve(DATABASE)
    return new Reader<Response>(readFileSync(file))
  } catch (error) {
    logger.warn(`GeoIP database not available (${(error as Error).message}): plays from public addresses get DEFAULT_COUNTRY`)
    return null
  }
}

/** The ISO 3166 code of a public address's country; null for private, loopback, reserved or unknown. */
export function countryOfAddress(ip: string): string | null {
  const read = readAddress(ip)
  // Private, loopback, link-local, documentation ranges…: no database knows a place for them.
  if (!read || read.address.range() !== 'unicast') return null
  if (reader === undefined) reader = openDatabase()
  const code = (reader?.get(read.text) as CountryRecord | null | undefined)?.country_code
  return code && /^[A-Z]{2}$/.test(code) ? code : null
}

/** Whether the database has been read (the tests check that a private address never reads it). */
export function geoipLoaded(): boolean {
  return reader !== undefined
}
