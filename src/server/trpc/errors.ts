// One place that turns any error into the message a client may see: the first validation issue
// (naming its field), a deliberate TRPCError message, or a generic line for server faults.
import { TRPCError } from '@trpc/server'
import { ZodError, type core } from 'zod'

export const RATE_LIMIT_MESSAGE = 'Rate limit exceeded. Please try again later.'

export class RateLimitError extends TRPCError {
  constructor(readonly retryAfterSec: number) {
    super({ code: 'TOO_MANY_REQUESTS', message: RATE_LIMIT_MESSAGE })
  }
}

function issueMessage(issue: core.$ZodIssue): string {
  const field = issue.path.map(String).join('.')
  if (!field) return issue.message
  const words = field
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s._]+/)
  const named = words.some((w) => w.length > 2 && issue.message.toLowerCase().includes(w))
  return named ? issue.message : `${field}: ${issue.message}`
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
