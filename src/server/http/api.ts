// The API front's dispatch: serve.ts hands every /api request here, and it goes straight to a
// transport (tRPC's fetch adapter, the REST table), never through TanStack Start's request
// handling (router match, server-function middleware, SSR setup), which cost 10× a cheap
// endpoint's own work (decision 028). Auth, the envelope and metrics are the transports' own, so
// the answers are the ones the dev server's Start routes (src/routes/api/) give.
//
// This layer defines what a transport is and the transports implement it (trpc/http.ts,
// rest/transport.ts); the start-up hands them over (start-up.ts), so http/ never imports the API
// layers above it (docs/architecture.md, decision 064).

/** An answer now, or a promise of one: the cheap requests never wait for a promise (decision 042). */
export type Answer = Response | Promise<Response>

/** One way of answering /api requests. */
export type ApiTransport = {
  /** Whether this transport answers requests for `pathname`. */
  owns: (pathname: string) => boolean
  handle: (request: Request, url: URL) => Answer
  /** The metrics label of a path it owns (a route's or a procedure's own name), or undefined for
   *  a path it does not know: labels are fixed by the code, never chosen by clients. */
  routeLabel: (pathname: string) => string | undefined
}

export type ApiFront = Pick<ApiTransport, 'handle' | 'routeLabel'>

/** The transports in order, first owner wins; the last one answers any other /api path (a 404 envelope). */
export function apiFront(transports: readonly [...ApiTransport[], ApiTransport]): ApiFront {
  const last = transports[transports.length - 1]
  // A loop rather than find(): no closure per request on the fast path (decision 042).
  const ownerOf = (pathname: string) => {
    for (const transport of transports) if (transport.owns(pathname)) return transport
    return last
  }
  return {
    handle: (request, url) => ownerOf(url.pathname).handle(request, url),
    routeLabel: (pathname) => ownerOf(pathname).routeLabel(pathname),
  }
}
