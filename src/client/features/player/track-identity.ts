// Stable ids for tracks in listening events. Object URLs of local files change on every visit,
// so a file picked from the device is recorded as local:{path inside the picked folder}.
const localPaths = new Map<string, string>()

export function registerLocalTrack(url: string, path: string) {
  localPaths.set(url, path)
}

export function forgetLocalTrack(url: string) {
  localPaths.delete(url)
}

export function trackIdOf(url: string): string {
  const path = localPaths.get(url)
  return path ? `local:${path}` : url
}
