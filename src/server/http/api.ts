// The API front of the production server: serve.ts hands every /api request here, and it goes
// straight to tRPC's fetch adapter or the REST table, never through TanStack Start's request
// handling (router match, server-function middleware, SSR setup), which cost 10× a cheap
// endpoint's own work (decision 028). Auth, the envelope and metrics are the handlers' own, so
// the answers are the ones the dev server's Start routes (src/routes/api/) give.
import { handleRest } from '../rest/handler'
import { handleTrpc, TRPC_ENDPOINT } from '../trpc/http'

export function handleApi(request: Request, url: URL): Response | Promise<Response> {
  const { pathname } = url
  if (pathname === TRPC_ENDPOINT || pathname.startsWith(`${TRPC_ENDPOINT}/`)) return handleTrpc(request)
  return handleRest(request, url)
}
