// The REST adapter (CONTRACT §3): match a documented path, call the same procedure through a
// server-side caller, and wrap the answer in the {success, data} / {success:false, error} envelope.
import { TRPCError } from '@trpc/server'
import { getHTTPStatusCodeFromError } from '@trpc/server/http'
import { redactPath } from '../http/redact'
import { recordServerError } from '../services/server-errors'
import { createContext } from '../trpc/context'
import { publicMessage, RateLimitError } from '../trpc/errors'
import { appRouterModule } from '../deferred'
import type { RestRoute } from './define'
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

function json(status: number, payload: unknown, headers = new Headers()) {
  headers.set('content-type', 'application/json; charset=utf-8')
  headers.set('cache-control', 'no-store')
  return new Response(JSON.stringify(payload), { status, headers })
}

export const fail = (status: number, error: string, headers?: Headers) => json(status, { success: false, error }, headers)

function match(method: string, path: string): { route: RestRoute; params: Record<string, string> } | { error: Response } {
  let pathMatched = false
  for (const c of compiled) {
    const m = c.regex.exec(path)
    if (!m) continue
    pathMatched = true
    if (c.route.method !== method && !(method === 'HEAD' && c.route.method === 'GET')) continue
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

/** `url` is the request's, when the caller has parsed it already (serve.ts). */
export async function handleRest(request: Request, url = new URL(request.url)): Promise<Response> {
  const path = url.pathname.slice(API_PREFIX.length) || '/'
  const found = match(request.method, path)
  if ('error' in found) return found.error
  const { route, params } = found

  let body: unknown
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const read = await readBody(request)
    if ('error' in read) return read.error
    body = read.body
    if (route.body && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      return fail(400, 'Request body must be a JSON object')
    }
  }

  const resHeaders = new Headers()
  const ctx = createContext(request, resHeaders)
  try {
    const req = { params, query: Object.fromEntries(url.searchParams), body, request }
    const data = await (route.serve ? route.serve(ctx, req) : route.call((appRouterModule.now() ?? (await appRouterModule.load())).createCaller(ctx), req))
    return json(route.status ?? 200, { success: true, data }, resHeaders)
  } catch (error) {
    if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR') {
      if (error instanceof RateLimitError) resHeaders.set('retry-after', String(error.retryAfterSec))
      return fail(getHTTPStatusCodeFromError(error), publicMessage(error), resHeaders)
    }
    recordServerError(ctx.db, {
      method: request.method,
      path: redactPath(url.pathname),
      status: 500,
      error: error instanceof TRPCError ? (error.cause ?? error) : error,
    })
    return fail(500, 'Internal server error')
  }
}
