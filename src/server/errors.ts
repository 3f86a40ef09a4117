// What a service refuses, in the service's own terms: each API edge (tRPC in trpc/init.ts, the
// REST envelope in rest/handler.ts, OpenSubsonic in subsonic/handler.ts) turns these into its own
// codes in one place, so services stay free of any transport (docs/decisions/062). The message is
// what the client reads, unchanged by every edge; anything else thrown is a server fault.

/** What every API (tRPC, REST, OpenSubsonic) says when a client is over its limit. */
export const RATE_LIMIT_MESSAGE = 'Rate limit exceeded. Please try again later.'

export abstract class DomainError extends Error {
  abstract readonly kind: 'invalid' | 'unauthorized' | 'forbidden' | 'not-found' | 'conflict' | 'rate-limited'
}

export type DomainErrorKind = DomainError['kind']

/** The request is wrong (400): `field` names the input it is about, for a form to show it there. */
export class InvalidError extends DomainError {
  readonly kind = 'invalid'
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message)
  }
}

/** Not signed in, or the credentials are wrong (401). */
export class UnauthorizedError extends DomainError {
  readonly kind = 'unauthorized'
}

/** Signed in, but this member may not do this (403). */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden'
}

/** No such thing, or it is another member's (404). */
export class NotFoundError extends DomainError {
  readonly kind = 'not-found'
}

/** Clashes with what is already there, such as a taken name (409). */
export class ConflictError extends DomainError {
  readonly kind = 'conflict'
}

/** Over a limit: the client may try again after `retryAfterSec` seconds (429). */
export class RateLimitedError extends DomainError {
  readonly kind = 'rate-limited'
  constructor(
    readonly retryAfterSec: number,
    message = RATE_LIMIT_MESSAGE,
  ) {
    super(message)
  }
}
