// How a documented REST path maps onto a procedure: method, path pattern, success status and a
// call that names the procedure and builds its input from params/query/body. The few paths every
// client calls all the time (health, a member's folder list) also `serve` the same answer straight
// from the context: the procedure's own service, guard (requireUser) and schema (parseInput),
// without a tRPC caller per request, whose proxy and middleware chain cost more than those answers
// (decision 034). `call` still says which procedure the path is, for the API surface tests.
//
// A call hands the procedure the client's data as it came; the procedure's own input schema
// validates it after the procedure's guards, as at /api/trpc, so a signed-out or rate-limited
// caller learns nothing about the input (decision 063). The types check what the route itself
// writes: the procedure exists, each field it names is one of the procedure's inputs, and an input
// is an object where the procedure takes one.
import type { AnyTRPCProcedure, inferProcedureInput, inferProcedureOutput, TRPCRouterRecord } from '@trpc/server'
import { TRPCError } from '@trpc/server'
import type { Context } from '../trpc/context'
import type { AppRouter } from '../trpc/root'

export type RestRequest<Body = unknown> = {
  params: Record<string, string>
  query: Record<string, string>
  body: Body
  request: Request
}

/** A JSON object body, whose values only the procedure's schema may vouch for. */
export type JsonObject = Record<string, unknown>

/** An input the procedure's schema has not read yet: its fields by name, their values unknown. */
export type RawInput<Input> = Input extends object ? { [Field in keyof Input]?: unknown } : Input

type RestCallerOf<Record extends TRPCRouterRecord> = {
  [Key in keyof Record]: Record[Key] extends AnyTRPCProcedure
    ? (input: RawInput<inferProcedureInput<Record[Key]>>) => Promise<inferProcedureOutput<Record[Key]>>
    : Record[Key] extends TRPCRouterRecord
      ? RestCallerOf<Record[Key]>
      : never
}

/** Every procedure of the app router, as a REST route calls it (built by createRestCaller). */
export type RestCaller = RestCallerOf<AppRouter['_def']['record']>

export type RestRoute = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  status?: number
  /** The route reads a JSON object body (400 when it is missing or not an object). */
  body?: boolean
  /** The 401 message for a call without any token, where docs/rest-api.md gives this path one of its own. */
  noTokenMessage?: string
  /** The procedure this path stands for, with its input (the API surface tests read it from here). */
  call: (caller: RestCaller, req: RestRequest) => Promise<unknown>
  /** The same answer as `call`, served without a caller (hot paths only; see the header). */
  serve?: (ctx: Context, req: RestRequest) => unknown
}

type RouteFields = Omit<RestRoute, 'body' | 'call'>
type BodyRoute = RouteFields & { body: true; call: (caller: RestCaller, req: RestRequest<JsonObject>) => Promise<unknown> }
type PlainRoute = RouteFields & { body?: false; call: RestRoute['call'] }

const isJsonObject = (body: unknown): body is JsonObject => typeof body === 'object' && body !== null && !Array.isArray(body)

export const BODY_NOT_AN_OBJECT = 'Request body must be a JSON object'

/** A route of the table; one with `body: true` gets its body as an object (else 400). */
export function route(r: BodyRoute | PlainRoute): RestRoute {
  if (!r.body) return r
  const { call } = r
  return {
    ...r,
    call: (caller, req) => {
      const { body } = req
      if (!isJsonObject(body)) throw new TRPCError({ code: 'BAD_REQUEST', message: BODY_NOT_AN_OBJECT })
      return call(caller, { ...req, body })
    },
  }
}
