// One place that turns any error into the message a client may see: the first validation issue
// (naming its field), a deliberate TRPCError message, or a generic line for server faults.
import { TRPCError } from '@trpc/server'
import { ZodError, type core } from 'zod'
import { RATE_LIMIT_MESSAGE } from '../http/rate-limit'

export class RateLimitError extends TRPCError {
  constructor(readonly retryAfterSec: number) {
    super({ code: 'TOO_MANY_REQUESTS', message: RATE_LIMIT_MESSAGE })
  }
}

// Zod's own wording (as opposed to our fixed field messages, which already read as a sentence about
// the field) gets the field's path in front so the client knows which field is wrong.
const ZOD_DEFAULT =
  /^(Invalid input|Invalid option|Invalid string|Invalid number|Invalid email address|Invalid URL|Invalid UUID|Invalid date|Invalid element|Invalid key|Too small|Too big|Expected)/

function issueMessage(issue: core.$ZodIssue): string {
  const field = issue.path.map(String).join('.')
  return field && ZOD_DEFAULT.test(issue.message) ? `${field}: ${issue.message}` : issue.message
}

export function zodErrorOf(error: unknown): ZodError | undefined {
  if (error instanceof ZodError) return error
  if (error instanceof TRPCError && error.cause instanceof ZodError) return error.cause
  return undefined
}

export function publicMessage(error: TRPCError): string {
  const zod = zodErrorOf(error)
  if (zod) return issueMessage(zod.issues[0])
  if (error.code === 'INTERNAL_SERVER_ERROR') return 'Internal server error'
  return error.message
}

/** Field → first message, for forms that show server-side errors beside their fields. */
export function fieldErrors(error: TRPCError): Record<string, string> | undefined {
  const zod = zodErrorOf(error)
  if (!zod) return undefined
  const out: Record<string, string> = {}
  for (const issue of zod.issues) {
    const key = issue.path.map(String).join('.') || '_'
    out[key] ??= issue.message
  }
  return out
}
