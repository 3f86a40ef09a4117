// The tRPC edge's errors: a service's DomainError becomes the TRPCError of the same meaning and
// message (so the same HTTP status), and one place turns any error into the message a client may
// see: the first validation issue (naming its field), a deliberate message, or a generic line for
// server faults.
import { getTRPCErrorFromUnknown, type TRPC_ERROR_CODE_KEY, TRPCError } from '@trpc/server'
import { ZodError, type core } from 'zod'
import { DomainError, type DomainErrorKind, InvalidError } from '../errors'

/** Each kind of domain error as a tRPC code (whose HTTP status tRPC derives: 400, 401, 403, 404, 409, 429). */
export const TRPC_CODE: Record<DomainErrorKind, TRPC_ERROR_CODE_KEY> = {
  invalid: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  'not-found': 'NOT_FOUND',
  conflict: 'CONFLICT',
  'rate-limited': 'TOO_MANY_REQUESTS',
}

/** The domain error an error is or carries (tRPC wraps what a procedure throws as its `cause`). */
export function domainErrorOf(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error
  if (error instanceof TRPCError && error.cause instanceof DomainError) return error.cause
  return undefined
}

/** Any error as tRPC answers it: a domain error (thrown or wrapped) as its code, the rest as they are. */
export function toTRPCError(error: unknown): TRPCError {
  const domain = domainErrorOf(error)
  if (!domain) return getTRPCErrorFromUnknown(error)
  return new TRPCError({ code: TRPC_CODE[domain.kind], message: domain.message, cause: domain })
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
  const domain = domainErrorOf(error)
  if (domain instanceof InvalidError && domain.field) return { [domain.field]: domain.message }
  const zod = zodErrorOf(error)
  if (!zod) return undefined
  const out: Record<string, string> = {}
  for (const issue of zod.issues) {
    const key = issue.path.map(String).join('.') || '_'
    out[key] ??= issue.message
  }
  return out
}
