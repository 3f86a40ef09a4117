// tRPC setup and the three procedure tiers (public, protected, admin). Procedures are the
// security boundary: route guards in the browser only steer the UI.
import { initTRPC, TRPCError } from '@trpc/server'
import type { z } from 'zod'
import type { Context } from './context'
import { fieldErrors, publicMessage, RateLimitError } from './errors'
import { transformer } from './transformer'
import { addressKey } from '../http/client-info'
import { takeToken, type Bucket } from '../http/rate-limit'
import { loginThrottle } from '../auth/login-throttle'

const t = initTRPC.context<Context>().create({
  transformer,
  errorFormatter({ shape, error }) {
    return { ...shape, message: publicMessage(error), data: { ...shape.data, stack: undefined, fieldErrors: fieldErrors(error) } }
  },
})

export const createTRPCRouter = t.router
export const publicProcedure = t.procedure

// The fixed words for a call that carries no token at all (401).
export const AUTH_REQUIRED_MESSAGE = 'No authentication token found. Please log in again.'
export const INVALID_TOKEN_MESSAGE = 'Authentication token is invalid or expired'

/** The signed-in user, or the 401 that names why there is none. */
export function requireUser(ctx: Context): NonNullable<Context['user']> {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: ctx.invalidToken ? INVALID_TOKEN_MESSAGE : AUTH_REQUIRED_MESSAGE })
  return ctx.user
}

export const protectedProcedure = t.procedure.use(({ ctx, next }) => next({ ctx: { ...ctx, user: requireUser(ctx) } }))

/** A procedure's input schema applied outside tRPC (the REST fast routes): the same 400 on failure. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new TRPCError({ code: 'BAD_REQUEST', cause: parsed.error })
  return parsed.data
}

export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (!ctx.user.isAdmin) throw new TRPCError({ code: 'FORBIDDEN', message: 'Admin access required' })
  return next()
})

/** Middleware: count the call against a per-client limit (IPv6 clients by /64). */
export function rateLimit(bucket: Bucket) {
  return t.middleware(({ ctx, next }) => {
    const wait = takeToken(bucket, addressKey(ctx.client.ip))
    if (wait > 0) throw new RateLimitError(wait)
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
  const wait = loginThrottle.wait(attempt)
  if (wait > 0) throw new RateLimitError(wait)
  const result = await next()
  if (result.ok) loginThrottle.succeeded(attempt)
  else if (result.error.code === 'UNAUTHORIZED') loginThrottle.failed(attempt)
  return result
})
