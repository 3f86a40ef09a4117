// Places without a proxy: the offline GeoIP database (DB-IP's city database,
// installed as a dependency) names the country, region and city of a public address, private and
// loopback addresses never open it and get DEFAULT_COUNTRY, and a trusted proxy's header still wins.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseTrustProxy, type TrustProxy } from '~/server/http/trust-proxy'

// client-info reads the config module, which creates DATA_DIR: keep it out of the tree.
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'vibes-unit-'))
const { placeOfAddress, geoipLoaded } = await import('~/server/http/geoip')
const { clientInfo, CLIENT_IP_HEADER } = await import('~/server/http/client-info')

const noProxy = parseTrustProxy('false') as TrustProxy
const from = (socket: string, extra: Record<string, string> = {}) => new Headers({ [CLIENT_IP_HEADER]: socket, ...extra })

describe('GeoIP', () => {
  const countryOf = (ip: string) => placeOfAddress(ip)?.country ?? null

  test('private, loopback and documentation addresses have no place and do not load the database', () => {
    for (const ip of ['127.0.0.1', '::1', '192.168.1.20', '10.0.0.5', '172.16.3.4', 'fd00::1', '169.254.1.1', '198.51.100.1', '2001:db8::1', 'not an ip']) {
      expect(placeOfAddress(ip)).toBeNull()
    }
    expect(geoipLoaded()).toBe(false)
  })

  test('known public addresses: Google DNS, Quad9 (US), Deutsche Telekom (DE, IPv4 and IPv6), IPv4-mapped', () => {
    expect(countryOf('8.8.8.8')).toBe('US')
    expect(countryOf('9.9.9.9')).toBe('US')
    expect(countryOf('::ffff:8.8.8.8')).toBe('US')
    expect(countryOf('194.25.2.129')).toBe('DE')
    expect(countryOf('2003::1')).toBe('DE')
    expect(geoipLoaded()).toBe(true)
  })

  test('known public addresses have a region and a city: IPv4, IPv6 and IPv4-mapped', () => {
    expect(placeOfAddress('8.8.8.8')).toEqual({ country: 'US', region: 'California', city: 'Mountain View' })
    expect(placeOfAddress('::ffff:8.8.8.8')).toEqual({ country: 'US', region: 'California', city: 'Mountain View' })
    expect(placeOfAddress('1.1.1.1')).toEqual({ country: 'AU', region: 'New South Wales', city: 'Sydney' })
    expect(placeOfAddress('81.2.69.142')).toEqual({ country: 'GB', region: 'England', city: 'London' })
    expect(placeOfAddress('2a00:1450:4001::1')).toEqual({ country: 'DE', region: 'Hesse', city: 'Frankfurt am Main' })
  })

  test('a play from a public address is placed without a proxy; a LAN play gets DEFAULT_COUNTRY', () => {
    const settings = { trust: noProxy, defaultCountry: 'NL' }
    expect(clientInfo(from('8.8.8.8'), settings)).toMatchObject({ country: 'US', region: 'California', city: 'Mountain View' })
    expect(clientInfo(from('192.168.1.20'), settings)).toMatchObject({ country: 'NL', region: null, city: null })
    expect(clientInfo(from('192.168.1.20'), settings).country).toBe('NL')
    expect(clientInfo(from('127.0.0.1'), settings).country).toBe('NL')
    expect(clientInfo(from('127.0.0.1'), { trust: noProxy, defaultCountry: undefined }).country).toBeNull()
    // The client's own header never counts without a trusted proxy; the database does.
    expect(clientInfo(from('8.8.8.8', { 'cf-ipcountry': 'JP' }), settings).country).toBe('US')
  })

  test("a trusted proxy's header wins over the database; the forwarded address is the one located", () => {
    const proxy = { trust: parseTrustProxy('10.0.0.0/8') as TrustProxy, defaultCountry: 'NL' }
    expect(clientInfo(from('10.1.1.1', { 'x-forwarded-for': '8.8.8.8', 'cf-ipcountry': 'fr' }), proxy)).toMatchObject({ country: 'FR', city: null })
    expect(clientInfo(from('10.1.1.1', { 'x-forwarded-for': '194.25.2.129' }), proxy).country).toBe('DE')
  })

  test('the single binary (VIBES_GEOIP_DB: its embedded country database) places the country only', () => {
    const country = Bun.resolveSync('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb', import.meta.dir)
    const run = Bun.spawnSync(
      [
        'bun',
        '-e',
        "const { placeOfAddress } = await import('~/server/http/geoip'); console.log(JSON.stringify([placeOfAddress('8.8.8.8'), placeOfAddress('2003::1')]))",
      ],
      { cwd: path.resolve(import.meta.dir, '../..'), env: { ...process.env, VIBES_GEOIP_DB: country } },
    )
    expect(JSON.parse(run.stdout.toString())).toEqual([
      { country: 'US', region: null, city: null },
      { country: 'DE', region: null, city: null },
    ])
  })
})
