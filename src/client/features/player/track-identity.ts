// Files picked from the device are tracks with url `local:{path inside the picked folder}`: a
// stable id for listening events, with the extension kept for the video rule. The object URL the
// media element needs is made only when a track is loaded (creating thousands up front costs
// seconds in Chromium) and revoked when the folder is replaced.
const LOCAL_PREFIX = 'local:'
const files = new Map<string, File>()
const objectUrls = new Map<string, string>()

export const localTrackUrl = (path: string) => LOCAL_PREFIX + path

export function registerLocalFile(url: string, file: File) {
  files.set(url, file)
}

/** Forgets every registered file and revokes the object URLs made for them. */
export function releaseLocalFiles() {
  for (const objectUrl of objectUrls.values()) URL.revokeObjectURL(objectUrl)
  objectUrls.clear()
  files.clear()
}

/**
 * The URL to hand to a media element: an object URL for local files, else the URL itself. A
 * local file that is not registered (its folder was replaced) has none: null, never the `local:`
 * pseudo-URL, which the page's CSP refuses to load.
 */
export function mediaUrlOf(url: string): string | null {
  if (!url.startsWith(LOCAL_PREFIX)) return url
  const file = files.get(url)
  if (!file) return null
  let objectUrl = objectUrls.get(url)
  if (!objectUrl) {
    objectUrl = URL.createObjectURL(file)
    objectUrls.set(url, objectUrl)
  }
  return objectUrl
}

const SIGNED_MEDIA = /^(\/media\/[^?#]*)\?(?:[^#]*&)?sig=/

/**
 * The id recorded in listening events: the track's own URL (local:{path} or http(s)), except that
 * a member folder's signed /media/ URL loses its expiry and signature, so a track keeps one id
 * from day to day and no working media link is stored in the analytics.
 */
export function trackIdOf(url: string): string {
  const signed = SIGNED_MEDIA.exec(url)
  return signed ? signed[1] : url
}
