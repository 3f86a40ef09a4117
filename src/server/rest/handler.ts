// The REST adapter for every documented /api path (docs/rest-api.md): match the path, call the same procedure through a
// server-side caller, and wrap the answer in the {success, data} / {success:false, error} envelope.
import { TRPCError } from '@trpc/server'
import { getHTTPStatusCodeFromError } from '@trpc/server/http'
import { config } from '../config'
import { redactPath } from '../http/redact'
import { headersOfEveryAnswer } from '../http/security-headers'
import { recordServerError } from '../services/server-errors'
import { createContext } from '../trpc/context'
import { type DomainError, type DomainErrorKind, RateLimitedError } from '../errors'
import { domainErrorOf, publicMessage } from '../trpc/errors'
import { AUTH_REQUIRED_MESSAGE } from '../trpc/init'
import { withModule } from '../deferred'
import { appRouterModule } from '../trpc/router-module'
import type { Context } from '../trpc/context'
import type { RestRequest, RestRoute } from './define'
import { restRoutes } from './routes'

export const API_PREFIX = '/api'

type Compiled = { route: RestRoute; regex: RegExp; keys: string[] }

const compiled: Compiled[] = restRoutes.map((route) => {
  const keys: string[] = []
  const pattern = route.path.replace(/:(\w+)/g, (_, key) => {
    keys.push(key)
    return '([^/]+)'
  })
  return { route, regex: new RegExp(`^${pattern}/?$`), keys }
})

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }
// An answer whose procedure set no header is built with these at once, the security headers
// serve.ts would add included: filling a Headers object per answer cost more than a cheap
// endpoint's own work (decision 042).
// (A Headers object: each Response copies it natively, twice as fast as reading a plain object.)
const PLAIN_JSON_HEADERS = new Headers({ ...JSON_HEADERS, ...headersOfEveryAnswer({ appUrl: config.APP_URL }) })

function json(status: number, payload: unknown, headers?: Headers) {
  const body = JSON.stringify(payload)
  if (headers === undefined || headers.count === 0) return new Response(body, { status, headers: PLAIN_JSON_HEADERS })
  for (const [name, value] of Object.entries(JSON_HEADERS)) headers.set(name, value)
  return new Response(body, { status, headers })
}

export const fail = (status: number, error: string, headers?: Headers) => json(status, { success: false, error }, headers)

// A path without parameters, such as /health, is found with one lookup rather than a walk through
// every pattern, unless an earlier pattern would take it first (then the walk decides, as before).
const takesMethod = (route: RestRoute, method: string) => route.method === method || (method === 'HEAD' && route.method === 'GET')
const exactRoutes = new Map<string, RestRoute[]>()
compiled.forEach((c, i) => {
  const shadowed = compiled.slice(0, i).some((earlier) => earlier.regex.test(c.route.path) && earlier.route.method === c.route.method)
  if (c.keys.length === 0 && !shadowed) exactRoutes.set(c.route.path, [...(exactRoutes.get(c.route.path) ?? []), c.route])
})

/** The route-table path a request path falls under, whatever its method (`/admin/users/:id/role`), or undefined. */
export function routePatternOf(path: string): string | undefined {
  return exactRoutes.has(path) ? path : compiled.find((c) => c.regex.test(path))?.route.path
}

function match(method: string, path: string): { route: RestRoute; params: Record<string, string> } | { error: Response } {
  const exact = exactRoutes.get(path)?.find((route) => takesMethod(route, method))
  if (exact) return { route: exact, params: {} }
  let pathMatched = false
  for (const c of compiled) {
    const m = c.regex.exec(path)
    if (!m) continue
    pathMatched = true
    if (!takesMethod(c.route, method)) continue
    const params: Record<string, string> = {}
    try {
      c.keys.forEach((key, i) => {
        params[key] = decodeURIComponent(m[i + 1])
      })
    } catch {
      return { error: fail(400, 'Malformed URL') }
    }
    return { route: c.route, params }
  }
  return { error: pathMatched ? fail(405, `Method ${method} not allowed on ${API_PREFIX}${path}`) : fail(404, `Not found: ${API_PREFIX}${path}`) }
}

// The server edge (serve.ts, http/body-limit.ts) has already refused bodies over 1 MB.
async function readBody(request: Request): Promise<{ body: unknown } | { error: Response }> {
  const text = await request.text()
  if (!text.trim()) return { body: undefined }
  try {
    return { body: JSON.parse(text) }
  } catch {
    return { error: fail(400, 'Malformed JSON body') }
  }
}

/**
 * `url` is the request's, when the caller has parsed it already (serve.ts). A GET of a path
 * served without a caller (RestRoute.serve) is answered at once, without a promise; the rest
 * read their body and run their procedure first.
 */
export function handleRest(request: Request, url = new URL(request.url)): Response | Promise<Response> {
  const path = url.pathname.slice(API_PREFIX.length) || '/'
  const found = match(request.method, path)
  if ('error' in found) return found.error
  const { route, params } = found
  if (request.method === 'GET' || request.method === 'HEAD') return answer(route, { params, query: queryOf(url), body: undefined, request }, url)
  return readBody(request).then((read) => ('error' in read ? read.error : answer(route, { params, query: queryOf(url), body: read.body, request }, url)))
}

const queryOf = (url: URL): Record<string, string> => (url.search === '' ? {} : Object.fromEntries(url.searchParams))

function answer(route: RestRoute, req: RestRequest, url: URL): Response | Promise<Response> {
  const resHeaders = new Headers()
  const ctx = createContext(req.request, resHeaders)
  return ctx instanceof Promise ? ctx.then((ready) => answerIn(ready, route, req, url, resHeaders)) : answerIn(ctx, route, req, url, resHeaders)
}

function answerIn(ctx: Context, route: RestRoute, req: RestRequest, url: URL, resHeaders: Headers): Response | Promise<Response> {
  const ok = (data: unknown) => json(route.status ?? 200, { success: true, data }, resHeaders)
  const failed = (error: unknown) => failure(error, route, ctx, resHeaders, req.request.method, url)
  try {
    const data = route.serve ? route.serve(ctx, req) : withModule(appRouterModule, ({ createRestCaller }) => route.call(createRestCaller(ctx), req))
    return data instanceof Promise ? data.then(ok, failed) : ok(data)
  } catch (error) {
    return failed(error)
  }
}

/** Each kind of domain error as the envelope's HTTP status (docs/rest-api.md). */
export const REST_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'rate-limited': 429,
}

/** The envelope of a service's refusal: its status, its message, and Retry-After when rate limited. */
export function domainFailure(error: DomainError, route: Pick<RestRoute, 'noTokenMessage'>, resHeaders = new Headers()): Response {
  if (error instanceof RateLimitedError) resHeaders.set('retry-after', String(error.retryAfterSec))
  const message = route.noTokenMessage && error.message === AUTH_REQUIRED_MESSAGE ? route.noTokenMessage : error.message
  return fail(REST_STATUS[error.kind], message, resHeaders)
}

// A refusal is a service's DomainError (thrown by a served route, or carried by the TRPCError a
// caller throws) or tRPC's own (input validation); anything else is a server fault.
function failure(error: unknown, route: RestRoute, ctx: Context, resHeaders: Headers, method: string, url: URL): Response {
  const domain = domainErrorOf(error)
  if (domain) return domainFailure(domain, route, resHeaders)
  if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR') return fail(getHTTPStatusCodeFromError(error), publicMessage(error), resHeaders)
  recordServerError(ctx.db, {
    method,
    path: redactPath(url.pathname),
    status: 500,
    error: error instanceof TRPCError ? (error.cause ?? error) : error,
  })
  return fail(500, 'Internal server error')
}
