// The OpenSubsonic answer envelope in both formats. A method returns a plain payload object
// ({ album: {...} }); this module wraps it in `subsonic-response` (status, version 1.16.1, type,
// serverVersion, openSubsonic) and writes it as JSON (f=json) or XML (the default). One payload
// shape serves both formats by the rules the Subsonic XSD and the OpenSubsonic JSON follow:
//   scalar            → XML attribute            (JSON: property)
//   key `value`       → XML text content          (JSON: "value", e.g. a genre's name), or an
//                       attribute when the element also has child elements (a lyrics cueLine)
//   object            → one child element
//   array of objects  → one child element each    (JSON: array)
//   array of scalars  → child elements with text  (JSON: array, e.g. extension versions)
// undefined and null are left out in both.
import { version } from '../../../package.json'
import { type DomainError, type DomainErrorKind, RateLimitedError } from '../errors'

export const API_VERSION = '1.16.1'
export const SERVER_TYPE = 'vibes'
const XMLNS = 'http://subsonic.org/restapi'

export type Scalar = string | number | boolean
export type Payload = { [key: string]: Scalar | Payload | Payload[] | Scalar[] | null | undefined }
export type Format = 'json' | 'xml'

/** The error codes of the Subsonic API (and 43/44 of the apiKey extension). */
export const ErrorCode = {
  generic: 0,
  missingParameter: 10,
  clientTooOld: 20,
  serverTooOld: 30,
  wrongCredentials: 40,
  tokenAuthNotSupported: 41,
  authMechanismNotSupported: 42,
  conflictingAuth: 43,
  invalidApiKey: 44,
  notAuthorized: 50,
  trialExpired: 60,
  notFound: 70,
} as const

export class SubsonicError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** HTTP status: 200 as every Subsonic server answers, but 429 when rate limited. */
    readonly status = 200,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

/** Each kind of a service's DomainError as a Subsonic error code. */
export const SUBSONIC_CODE: Record<DomainErrorKind, number> = {
  invalid: ErrorCode.generic,
  unauthorized: ErrorCode.wrongCredentials,
  forbidden: ErrorCode.notAuthorized,
  'not-found': ErrorCode.notFound,
  conflict: ErrorCode.generic,
  'rate-limited': ErrorCode.generic,
}

/** A service's refusal as Subsonic answers it: HTTP 200 with its code, but 429 with Retry-After when rate limited. */
export function subsonicErrorOf(error: DomainError): SubsonicError {
  if (error instanceof RateLimitedError) return new SubsonicError(ErrorCode.generic, error.message, 429, { 'retry-after': String(error.retryAfterSec) })
  return new SubsonicError(SUBSONIC_CODE[error.kind], error.message)
}

const envelope = (status: 'ok' | 'failed') => ({ status, version: API_VERSION, type: SERVER_TYPE, serverVersion: version, openSubsonic: true })

export function okResponse(format: Format, payload: Payload = {}): Response {
  return write(format, { ...envelope('ok'), ...payload })
}

export function errorResponse(format: Format, error: SubsonicError): Response {
  const response = write(format, { ...envelope('failed'), error: { code: error.code, message: error.message } }, error.status)
  for (const [k, v] of Object.entries(error.headers)) response.headers.set(k, v)
  return response
}

function write(format: Format, body: Payload, status = 200): Response {
  const headers = { 'cache-control': 'no-store' }
  if (format === 'json') return Response.json({ 'subsonic-response': body }, { status, headers })
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${element('subsonic-response', body, ` xmlns="${XMLNS}"`)}`
  return new Response(xml, { status, headers: { ...headers, 'content-type': 'text/xml; charset=utf-8' } })
}

const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'

/** One XML element for a payload object, following the rules in the header. */
export function element(name: string, node: Payload, extraAttributes = ''): string {
  let attributes = extraAttributes
  let text = ''
  let children = ''
  const entries = Object.entries(node)
  // The Subsonic XML mixes no text with child elements: beside children, `value` is an attribute.
  const valueIsText = !entries.some(([key, value]) => key !== 'value' && value !== null && typeof value === 'object')
  for (const [key, value] of entries) {
    if (value === undefined || value === null) continue
    if (key === 'value' && isScalar(value) && valueIsText) text = escapeXml(String(value))
    else if (isScalar(value)) attributes += ` ${key}="${escapeXml(String(value))}"`
    else if (Array.isArray(value)) {
      for (const item of value) children += isScalar(item) ? `<${key}>${escapeXml(String(item))}</${key}>` : element(key, item)
    } else children += element(key, value)
  }
  const content = text + children
  return content ? `<${name}${attributes}>${content}</${name}>` : `<${name}${attributes}/>`
}

// XML 1.0 forbids most control characters even escaped; a tag holding one must not break the
// document, so they are dropped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML 1.0 refuses
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g

export function escapeXml(value: string): string {
  return (
    value
      .replace(XML_INVALID, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      // A parser turns a raw tab or line break inside an attribute into a space: kept as references.
      .replace(/\t/g, '&#9;')
      .replace(/\n/g, '&#10;')
      .replace(/\r/g, '&#13;')
  )
}
