// The chart regions of spec §3 (code, name). Codes are lowercase storefront codes; play events
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

export const DEFAULT_REGION: RegionCode = 'us'

const CODES = new Set<string>(REGIONS.map((r) => r.code))

export function isRegionCode(code: string): code is RegionCode {
  return CODES.has(code)
}

export function regionName(code: string): string | undefined {
  return REGIONS.find((r) => r.code === code)?.name
}
