// The services' domain errors (src/server/errors.ts) as each API edge answers them: tRPC's code and
// HTTP status, the REST envelope's status, message and Retry-After, and the OpenSubsonic error
// code. The message is the service's own at every edge.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import { z } from 'zod'
import {
  ConflictError,
  type DomainError,
  type DomainErrorKind,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  RATE_LIMIT_MESSAGE,
  RateLimitedError,
  UnauthorizedError,
} from '~/server/errors'
import { errorResponse, subsonicErrorOf } from '~/server/subsonic/response'
import type { Context } from '~/server/trpc/context'

// The tRPC and REST edges read the configuration, which makes DATA_DIR: a temporary one, not ./data.
process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vibes-errors-unit-'))
const { createTRPCRouter, publicProcedure, protectedProcedure, AUTH_REQUIRED_MESSAGE } = await import('~/server/trpc/init')
const { domainErrorOf } = await import('~/server/trpc/errors')
const { domainFailure } = await import('~/server/rest/handler')

const errors: Record<DomainErrorKind, DomainError> = {
  invalid: new InvalidError('Current password is incorrect', 'currentPassword'),
  unauthorized: new UnauthorizedError('Invalid email or password'),
  forbidden: new ForbiddenError('Admin access required'),
  'not-found': new NotFoundError('Promotion not found'),
  conflict: new ConflictError('Username is already taken'),
  'rate-limited': new RateLimitedError(42),
}
const kinds = Object.keys(errors) as DomainErrorKind[]

// What each edge answers for each kind (docs/rest-api.md for REST and /rest).
const expected: Record<DomainErrorKind, { trpcCode: string; status: number; subsonicCode: number; subsonicStatus: number }> = {
  invalid: { trpcCode: 'BAD_REQUEST', status: 400, subsonicCode: 0, subsonicStatus: 200 },
  unauthorized: { trpcCode: 'UNAUTHORIZED', status: 401, subsonicCode: 40, subsonicStatus: 200 },
  forbidden: { trpcCode: 'FORBIDDEN', status: 403, subsonicCode: 50, subsonicStatus: 200 },
  'not-found': { trpcCode: 'NOT_FOUND', status: 404, subsonicCode: 70, subsonicStatus: 200 },
  conflict: { trpcCode: 'CONFLICT', status: 409, subsonicCode: 0, subsonicStatus: 200 },
  'rate-limited': { trpcCode: 'TOO_MANY_REQUESTS', status: 429, subsonicCode: 0, subsonicStatus: 429 },
}

// A procedure that throws the domain error its input names, as a service called by it would.
const router = createTRPCRouter({
  fail: publicProcedure.input(z.enum(kinds as [DomainErrorKind, ...DomainErrorKind[]])).query(({ input }): string => {
    throw errors[input]
  }),
  serverFault: publicProcedure.query((): string => {
    throw new Error('disk on fire')
  }),
  member: protectedProcedure.query(() => 'hello'),
})
const context = { user: null, invalidToken: false } as unknown as Context

async function viaHttp(procedure: string, input?: unknown) {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`
  const res = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req: new Request(`http://x/api/trpc/${procedure}${query}`),
    router,
    createContext: () => context,
  })
  const body = (await res.json()) as { error: { json: { message: string; code: number; data: { code: string; httpStatus: number; fieldErrors?: unknown } } } }
  return { status: res.status, error: body.error.json }
}

describe('tRPC edge', () => {
  for (const kind of kinds) {
    test(`${kind} → ${expected[kind].trpcCode}, HTTP ${expected[kind].status}, the same message`, async () => {
      const { status, error } = await viaHttp('fail', kind)
      expect(status).toBe(expected[kind].status)
      expect(error.data.code).toBe(expected[kind].trpcCode)
      expect(error.data.httpStatus).toBe(expected[kind].status)
      expect(error.message).toBe(errors[kind].message)
    })
  }

  test('an invalid error that names its field is shown beside that field', async () => {
    const { error } = await viaHttp('fail', 'invalid')
    expect(error.data.fieldErrors).toEqual({ currentPassword: 'Current password is incorrect' })
    expect((await viaHttp('fail', 'not-found')).error.data.fieldErrors).toBeFalsy()
  })

  test('the guard of member procedures answers 401 with the spec words', async () => {
    const { status, error } = await viaHttp('member')
    expect(status).toBe(401)
    expect(error.data.code).toBe('UNAUTHORIZED')
    expect(error.message).toBe(AUTH_REQUIRED_MESSAGE)
  })

  test('anything else stays a 500 that says nothing about the fault', async () => {
    const { status, error } = await viaHttp('serverFault')
    expect(status).toBe(500)
    expect(error.message).toBe('Internal server error')
  })
})

describe('REST edge', () => {
  const caller = router.createCaller(context)

  for (const kind of kinds) {
    test(`${kind} → ${expected[kind].status} { success: false, error: message }`, async () => {
      // The REST adapter calls procedures through a caller: the TRPCError it throws still carries the service's error.
      const thrown = await caller.fail(kind).catch((error: unknown) => error)
      const domain = domainErrorOf(thrown)
      expect(domain).toBe(errors[kind])
      const res = domainFailure(domain as DomainError, {})
      expect(res.status).toBe(expected[kind].status)
      expect(await res.json()).toEqual({ success: false, error: errors[kind].message })
      expect(res.headers.get('retry-after')).toBe(kind === 'rate-limited' ? '42' : null)
    })
  }

  test('429 says the rate-limit words and when to come back', async () => {
    const res = domainFailure(new RateLimitedError(7), {})
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('7')
    expect(await res.json()).toEqual({ success: false, error: RATE_LIMIT_MESSAGE })
  })

  test("a path with its own words for a call without a token uses them; a stale token's 401 keeps its own", async () => {
    const route = { noTokenMessage: 'Authentication required' }
    expect(await domainFailure(new UnauthorizedError(AUTH_REQUIRED_MESSAGE), route).json()).toEqual({ success: false, error: 'Authentication required' })
    const stale = domainFailure(new UnauthorizedError('Authentication token is invalid or expired'), route)
    expect(stale.status).toBe(401)
    expect(await stale.json()).toEqual({ success: false, error: 'Authentication token is invalid or expired' })
  })
})

describe('OpenSubsonic edge', () => {
  for (const kind of kinds) {
    test(`${kind} → error ${expected[kind].subsonicCode}, HTTP ${expected[kind].subsonicStatus}`, async () => {
      const res = errorResponse('json', subsonicErrorOf(errors[kind]))
      expect(res.status).toBe(expected[kind].subsonicStatus)
      const body = (await res.json()) as { 'subsonic-response': { status: string; error: { code: number; message: string } } }
      expect(body['subsonic-response'].status).toBe('failed')
      expect(body['subsonic-response'].error).toEqual({ code: expected[kind].subsonicCode, message: errors[kind].message })
      expect(res.headers.get('retry-after')).toBe(kind === 'rate-limited' ? '42' : null)
    })
  }
})
