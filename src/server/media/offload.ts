// MEDIA_OFFLOAD=nginx: behind nginx, a /media answer that passed every check (signature, expiry,
// path inside MEDIA_ROOT, regular file) names the file in `X-Accel-Redirect` and carries no body;
// nginx sends the bytes from an `internal` location with sendfile and tcp_nopush, and answers
// Range, If-None-Match and If-Modified-Since itself. Bun.serve cannot cork a socket, which keeps
// its own Range answers below nginx's (decision 041); offloading them is decision 085.
//
// The URI names the resolved path (no links left in it), so nginx opens the very file that was
// checked: `<prefix><path under MEDIA_ROOT>`, and a complete converted copy as
// `<prefix>.transcode-cache/<name>` (its own nginx location, aliasing DATA_DIR/transcode-cache).
// A library path that itself starts with `.transcode-cache/` would be read by nginx from the
// cache, so it is served by Bun instead. Anything outside those two folders is never offloaded.
import path from 'node:path'
import { config } from '../config'
import { isInside, mediaRoot } from './library-path'
import { cacheDir } from './transcode'

/** The first path segment that means "the converted-media cache" in an offloaded URI. */
export const OFFLOAD_CACHE_SEGMENT = '.transcode-cache'

const uriPath = (relative: string) => relative.split(path.sep).map(encodeURIComponent).join('/')

/**
 * The `X-Accel-Redirect` URI for a checked file's real path, or null: offload off, or the path is
 * not inside MEDIA_ROOT's real path (or, for `converted`, the cache folder).
 */
export function offloadUri(real: string, converted: boolean): string | null {
  if (config.MEDIA_OFFLOAD !== 'nginx') return null
  const root = converted ? cacheDir() : mediaRoot()
  if (!isInside(root, real) || real === root) return null
  const relative = path.relative(root, real)
  if (converted) return `${config.MEDIA_OFFLOAD_PREFIX}${OFFLOAD_CACHE_SEGMENT}/${uriPath(relative)}`
  if (relative === OFFLOAD_CACHE_SEGMENT || relative.startsWith(`${OFFLOAD_CACHE_SEGMENT}/`)) return null
  return `${config.MEDIA_OFFLOAD_PREFIX}${uriPath(relative)}`
}
