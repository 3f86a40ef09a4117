// The device class of an OpenSubsonic app's scrobble, from the client name when the UA is silent.
// Apps seldom send a browser-like User-Agent (okhttp/4.12, Dart/3.4, python-requests…), so when the
// User-Agent says nothing, the app's name (`c`) decides for the apps people use: phone players are
// mobile, desktop players desktop. Any other name stays unknown rather than a guess.
import { classifyDevice, type DeviceType } from '~/shared/player/device'

const MOBILE_APPS = /^(symfonium|dsub|dsub2000|substreamer|ultrasonic|play:sub|amperfy|tempo|subtracks|audinaut|isub|narjo|castafiore|youamp|yuzic)\b/i
const DESKTOP_APPS = /^(feishin|supersonic|sonixd|sublime ?music|submariner|stmp|jamstash|aonsoku|airsonic ?refix)\b/i

export function appDevice(clientName: string | null, userAgent: string | null | undefined): DeviceType {
  const fromAgent = classifyDevice(userAgent)
  if (fromAgent !== 'unknown' || !clientName) return fromAgent
  if (MOBILE_APPS.test(clientName)) return 'mobile'
  if (DESKTOP_APPS.test(clientName)) return 'desktop'
  return 'unknown'
}
