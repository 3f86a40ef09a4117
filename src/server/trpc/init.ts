// tRPC setup and the three procedure tiers (public, protected, admin). Procedures are the
// security boundary: route guards in the browser only steer the UI.
import { initTRPC, TRPCError } from '@trpc/server'
import type { z } from 'zod'
import type { Context } from './context'
import { ForbiddenError, InvalidError, RateLimitedError, UnauthorizedError } from '../errors'
import { badTextIn, badTextMessage } from '../http/nul-text'
import { fieldErrors, publicMessage, toTRPCError } from './errors'
import { transformer } from './transformer'
import { addressKey } from '../http/client-info'
import { takeToken, type Bucket } from '../http/rate-limit'
import { sharedLimiter } from '../http/shared-rate-limit'
import { createLoginThrottle, loginThrottle } from '../auth/login-throttle'
import { type Db, isPostgres } from '~/db/engine'

const t = initTRPC.context<Context>().create({
  transformer,
  errorFormatter({ shape, error }) {
    return { ...shape, message: publicMessage(error), data: { ...shape.data, stack: undefined, fieldErrors: fieldErrors(error) } }
  },
})

export const createTRPCRouter = t.router
// The one place tRPC meets the services' DomainErrors: whatever a later middleware or the
// procedure throws comes back here wrapped by tRPC as a server fault, and leaves as the code of
// its kind with its own message (so the HTTP status, and the REST envelope built from it, match).
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next()
  if (!result.ok) throw toTRPCError(result.error)
  return result
})

// A NUL character or text that is not Unicode anywhere in the input is a 400 naming the field, on
// either engine (PostgreSQL text cannot hold either: src/server/http/nul-text.ts). The check wraps
// the raw input's reader, so it runs where the procedure's own schema reads the input: after its
// guards, as any other bad input.
function refuseBadText(input: unknown) {
  const bad = badTextIn(input)
  if (bad) throw new InvalidError(badTextMessage(bad), bad.path.join('.') || undefined)
}
const textOnlyInput = t.middleware(({ getRawInput, next }) =>
  next({
    getRawInput: async () => {
      const raw = await getRawInput()
      refuseBadText(raw)
      return raw
    },
  }),
)

export const publicProcedure = t.procedure.use(domainErrors).use(textOnlyInput)

// The fixed words for a call that carries no token at all (401).
export const AUTH_REQUIRED_MESSAGE = 'No authentication token found. Please log in again.'
export const INVALID_TOKEN_MESSAGE = 'Authentication token is invalid or expired'

/** The signed-in user, or the 401 that names why there is none. */
export function requireUser(ctx: Context): NonNullable<Context['user']> {
  if (!ctx.user) throw new UnauthorizedError(ctx.invalidToken ? INVALID_TOKEN_MESSAGE : AUTH_REQUIRED_MESSAGE)
  return ctx.user
}

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => next({ ctx: { ...ctx, user: requireUser(ctx) } }))

/** A procedure's input schema applied outside tRPC (the REST fast routes): the same 400 on failure. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown): T {
  refuseBadText(value)
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new TRPCError({ code: 'BAD_REQUEST', cause: parsed.error })
  return parsed.data
}

export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (!ctx.user.isAdmin) throw new ForbiddenError('Admin access required')
  return next()
})

// SQLite: the limits in this process's memory. PostgreSQL: rows every node counts in (docs/decisions/083).
const sharedLimits = new WeakMap<Db, { limiter: ReturnType<typeof sharedLimiter>; throttle: ReturnType<typeof createLoginThrottle> }>()
function sharedLimitsOf(db: Db) {
  let shared = sharedLimits.get(db)
  if (!shared) {
    const limiter = sharedLimiter(db)
    shared = { limiter, throttle: createLoginThrottle(limiter) }
    sharedLimits.set(db, shared)
  }
  return shared
}

/** Middleware: count the call against a per-client limit (IPv6 clients by /64). */
export function rateLimit(bucket: Bucket) {
  return t.middleware(async ({ ctx, next }) => {
    const address = addressKey(ctx.client.ip)
    const wait = isPostgres(ctx.db) ? await sharedLimitsOf(ctx.db).limiter.take(bucket, address) : takeToken(bucket, address)
    if (wait > 0) throw new RateLimitedError(wait)
    return next()
  })
}

/**
 * Middleware after `.input()` of the login schema: the guessing limits of the web door
 * (auth/login-throttle.ts). Refuses before the password is checked when this address may not try
 * this account now; counts a wrong password (401) and clears the address's failures on success.
 */
export const loginThrottled = t.middleware(async ({ ctx, input, next }) => {
  const email = typeof input === 'object' && input !== null && 'email' in input ? input.email : undefined
  if (typeof email !== 'string') return next()
  const attempt = { door: 'web' as const, account: email.trim().toLowerCase(), address: addressKey(ctx.client.ip) }
  const throttle = isPostgres(ctx.db) ? sharedLimitsOf(ctx.db).throttle : loginThrottle
  const wait = await throttle.wait(attempt)
  if (wait > 0) throw new RateLimitedError(wait)
  const result = await next()
  if (result.ok) await throttle.succeeded(attempt)
  else if (toTRPCError(result.error).code === 'UNAUTHORIZED') await throttle.failed(attempt)
  return result
})
