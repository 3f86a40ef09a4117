// What a scrobbling service made of one request, in the sender's terms: accepted, refused for good
// (a bad token, a listen it will never take), or worth trying again later (down, overloaded, rate
// limited, unreachable).
export type SendOutcome = { ok: true } | { ok: false; retry: boolean; error: string }

/** A play as the services take it: the track as it was played and when it started. */
export type Scrobble = { artist: string; title: string; album: string | null; duration: number; playedAt: Date }

/** How long one call to a service may take before it counts as down. */
export const SERVICE_TIMEOUT_MS = 10_000

/** Joins a configured base URL and a path under it, whether or not the base ends with `/`. */
export const underBase = (base: string, path: string) => new URL(path, base.endsWith('/') ? base : `${base}/`).toString()

/** An answer that says nothing useful is cut short for the log and the member's list. */
export const brief = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text)

/** A network failure (refused, reset, timed out): the service is down for now. */
export const unreachable = (service: string, error: unknown): { ok: false; retry: true; error: string } => ({
  ok: false,
  retry: true,
  error: `${service} could not be reached (${error instanceof Error ? error.message : String(error)})`,
})
