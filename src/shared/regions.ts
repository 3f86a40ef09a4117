// The 11 chart regions the product offers (code, name). Codes are lowercase storefront codes; play events
// store the same country as an uppercase ISO code.
export const REGIONS = [
  { code: 'us', name: 'United States' },
  { code: 'gb', name: 'United Kingdom' },
  { code: 'ca', name: 'Canada' },
  { code: 'au', name: 'Australia' },
  { code: 'de', name: 'Germany' },
  { code: 'fr', name: 'France' },
  { code: 'jp', name: 'Japan' },
  { code: 'es', name: 'Spain' },
  { code: 'it', name: 'Italy' },
  { code: 'cy', name: 'Cyprus' },
  { code: 'gr', name: 'Greece' },
] as const

export type RegionCode = (typeof REGIONS)[number]['code']

/** Not a storefront: this server's own chart over every play, whatever its place (a LAN install's
 *  plays may have no country at all). Always ranked from local plays, with or without a feed. */
export const WORLDWIDE = 'ww'
export type ChartRegion = RegionCode | typeof WORLDWIDE

const CODES = new Set<string>(REGIONS.map((r) => r.code))

export function isRegionCode(code: string): code is RegionCode {
  return CODES.has(code)
}

export function isChartRegion(code: string): code is ChartRegion {
  return code === WORLDWIDE || CODES.has(code)
}

export function regionName(code: string): string | undefined {
  if (code === WORLDWIDE) return 'Worldwide (this server)'
  return REGIONS.find((r) => r.code === code)?.name
}
