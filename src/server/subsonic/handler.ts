// /rest/{method} and /rest/{method}.view: the OpenSubsonic API for native apps (Symfonium, DSub,
// Substreamer, Feishin, Supersonic…), version 1.16.1 for members' accounts. Wired in serve.ts in front of
// the page pipeline (one line). Parameters come from the query string or, with the formPost
// extension, an application/x-www-form-urlencoded body (the two are merged). Every answer is a
// subsonic-response in XML, or JSON with f=json; failures are `status="failed"` with the
// Subsonic error code, HTTP 200 as clients expect (429 when rate limited, 413 for a form body over
// the server's limit, 500 for a server fault), an unknown or unimplemented method included
// (not-implemented.ts). The body limit is applied here rather than in front, so that an app gets
// its refusal as a subsonic-response it can read, not the /api envelope.
// Members of every role may use it; what each method may touch is decided in methods.ts, which
// also names the few methods that need no credentials (PUBLIC_METHODS).
import { getDb } from '../db'
import { limitBody } from '../http/body-limit'
import { clientInfo } from '../http/client-info'
import { logger } from '../logger'
import { authenticate } from './auth'
import { METHODS, PUBLIC_METHODS } from './methods'
import { DOES_NOT_APPLY, NOT_IMPLEMENTED } from './not-implemented'
import { Params } from './params'
import { DomainError } from '../errors'
import { ErrorCode, errorResponse, okResponse, SubsonicError, subsonicErrorOf, type Format } from './response'

export const REST_PREFIX = '/rest/'

const methodNameOf = (pathname: string) => pathname.slice(REST_PREFIX.length).replace(/\.view$/, '')

async function readParams(request: Request, url: URL): Promise<URLSearchParams> {
  const params = new URLSearchParams(url.searchParams)
  if (request.method !== 'POST') return params
  const type = request.headers.get('content-type') ?? ''
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return params
  for (const [key, value] of new URLSearchParams(await request.text())) params.append(key, value)
  return params
}

export async function handleSubsonic(request: Request): Promise<Response> {
  const url = new URL(request.url)
  let format: Format = url.searchParams.get('f') === 'json' ? 'json' : 'xml'
  try {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'POST') {
      throw new SubsonicError(ErrorCode.generic, 'Method not allowed: use GET or POST', 405, { allow: 'GET, HEAD, POST' })
    }
    const limited = await limitBody(request)
    if (limited instanceof Response) {
      const close = limited.headers.get('connection')
      throw new SubsonicError(ErrorCode.generic, 'Request body too large', limited.status, close ? { connection: close } : {})
    }
    const search = await readParams(limited, url)
    format = search.get('f') === 'json' ? 'json' : 'xml'
    const name = methodNameOf(url.pathname)
    if (Object.hasOwn(PUBLIC_METHODS, name)) return okResponse(format, PUBLIC_METHODS[name]())
    const method = Object.hasOwn(METHODS, name) ? METHODS[name] : undefined
    if (!method && Object.hasOwn(DOES_NOT_APPLY, name)) throw new SubsonicError(ErrorCode.generic, DOES_NOT_APPLY[name])
    if (!method && NOT_IMPLEMENTED.has(name)) throw new SubsonicError(ErrorCode.generic, `Not implemented: ${name}`)
    if (!method) throw new SubsonicError(ErrorCode.notFound, `Unknown API method: ${name.slice(0, 100)}`)
    const db = getDb()
    const client = clientInfo(request.headers)
    const user = await authenticate(db, search, client.ip)
    const result = await method({ db, user, params: new Params(search), request, client })
    return result instanceof Response ? result : okResponse(format, result)
  } catch (error) {
    if (error instanceof SubsonicError) return errorResponse(format, error)
    if (error instanceof DomainError) return errorResponse(format, subsonicErrorOf(error))
    logger.error({ err: error, path: url.pathname }, 'subsonic request failed')
    return errorResponse(format, new SubsonicError(ErrorCode.generic, 'Internal server error', 500))
  }
}
