// How a documented REST path maps onto a procedure: method, path pattern, success status and a
// call that turns params/query/body into the procedure's input.
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
  call: (caller: Caller, req: RestRequest) => Promise<unknown>
}

export const route = (r: RestRoute) => r

/** Hands raw request data to a procedure, whose own input schema validates it. */
export const unchecked = (value: unknown) => value as never
