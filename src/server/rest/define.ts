// How a documented REST path maps onto a procedure: method, path pattern, success status and a
// call that turns params/query/body into the procedure's input. The few paths every client calls
// all the time (health, a member's folder list) also `serve` the same answer straight from the
// context: the procedure's own service, guard (requireUser) and schema (parseInput), without a
// tRPC caller per request, whose proxy and middleware chain cost more than those answers
// (decision 034). `call` still says which procedure the path is, for the API surface tests.
import type { Context } from '../trpc/context'
import type { Caller } from '../trpc/root'

export type RestRequest = {
  params: Record<string, string>
  query: Record<string, string>
  body: unknown
  request: Request
}

export type RestRoute = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  status?: number
  /** The route reads a JSON object body (400 when it is missing or not an object). */
  body?: boolean
  /** The 401 message for a call without any token, where docs/rest-api.md gives this path one of its own. */
  noTokenMessage?: string
  /** The procedure this path stands for (the API surface tests read it from here). */
  call: (caller: Caller, req: RestRequest) => Promise<unknown>
  /** The same answer as `call`, served without a caller (hot paths only; see the header). */
  serve?: (ctx: Context, req: RestRequest) => unknown
}

export const route = (r: RestRoute) => r

/** Hands raw request data to a procedure, whose own input schema validates it. */
export const unchecked = (value: unknown) => value as never
