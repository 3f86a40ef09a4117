// Device class from a User-Agent (smart-tv, speaker, mobile, tablet, desktop or unknown). Shared so
// the server fills play events with the same rule the client would use.
export type DeviceType = 'smart-tv' | 'speaker' | 'mobile' | 'tablet' | 'desktop' | 'unknown'
export const DEVICE_TYPES = ['smart-tv', 'speaker', 'mobile', 'tablet', 'desktop', 'unknown'] as const satisfies readonly DeviceType[]

// Voice assistants and smart speakers (checked first: some run a Cast or Android stack).
const SPEAKER =
  /\b(alexa|alexamediaplayer|amazon ?echo|echo (dot|show|studio)|sonos|google ?home|nest (audio|mini|hub)|homepod|audioos|bose|harman|jbl link|smart ?speaker|cast-audio)\b/i
// TV platforms and streaming sticks.
const TV =
  /\b(smart-?tv|smarttv|googletv|google tv|android ?tv|appletv|apple ?tv|tvos|hbbtv|netcast|viera|bravia|web0s|webos\.tv|roku|crkey|chromecast|aft[a-z]{1,3}|fire ?tv|tv safari|opera tv|philipstv|aquos|vidaa|tizen [\d.]+\) .* tv|tv bro|xbox|playstation|nintendo)\b|\btv\b.*\bsafari\b|\bappletv\d/i
const TABLET = /\b(ipad|tablet|playbook|kindle|silk)\b|android(?!.*\bmobile\b)/i
const MOBILE = /\b(mobi|mobile|iphone|ipod|windows phone|blackberry|bb10|opera mini|iemobile|webos)\b/i
const DESKTOP = /\b(windows nt|macintosh|mac os x|x11|linux|cros|win64|wow64)\b/i

export function classifyDevice(userAgent: string | null | undefined): DeviceType {
  const ua = (userAgent ?? '').trim()
  if (!ua) return 'unknown'
  if (SPEAKER.test(ua)) return 'speaker'
  if (TV.test(ua)) return 'smart-tv'
  if (TABLET.test(ua)) return 'tablet'
  if (MOBILE.test(ua)) return 'mobile'
  if (DESKTOP.test(ua)) return 'desktop'
  return 'unknown'
}

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/Chrom(e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
]
const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
]

/**
 * A name a person recognises for the device a User-Agent comes from ("Chrome on Linux"): the
 * player offers "Resume from <device>" with it when another device saved a newer queue.
 */
export function deviceName(userAgent: string | null | undefined): string {
  const ua = userAgent ?? ''
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1]
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1]
  if (browser && system) return `${browser} on ${system}`
  return browser ?? system ?? 'another device'
}
