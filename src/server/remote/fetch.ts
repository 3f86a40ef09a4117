// Fetching a remote folder URL under the address policy. We resolve the name
// ourselves, check every address it resolves to, and hand node:http(s) a `lookup` that returns
// only the checked address, so the connection goes where we looked (no second lookup, no DNS
// rebinding) while TLS still verifies the certificate against the host name (SNI unchanged).
// Each redirect (5 at most) is checked the same way; 10 s for the whole exchange; bodies over
// 5 MB are refused (by Content-Length, or while streaming). Every refusal is a RemoteError
// whose message the API answers as a 400. The chart feed (CHARTS_SOURCE_URL) is fetched here
// too, with its own size cap, so an upstream cannot redirect the server into the LAN either.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import type { Readable } from 'node:stream'
import zlib from 'node:zlib'
import { canonicalHost, isAllowedHost, judgeAddress, type AddressPolicy } from './address-policy'

export const REMOTE_TIMEOUT_MS = 10_000
export const REMOTE_MAX_BYTES = 5 * 1024 * 1024
export const REMOTE_MAX_REDIRECTS = 5

export class RemoteError extends Error {}

/** What one fetch may cost, and what it asks for; the defaults are the remote-folder limits. */
export type FetchLimits = {
  timeoutMs?: number
  maxBytes?: number
  accept?: string
  what?: string
  /** Validators of a copy we hold: a 304 answer then comes back as `notModified` with no body. */
  conditional?: { etag?: string | null; lastModified?: string | null }
}
const FOLDER_ACCEPT = 'text/html, application/json, audio/x-mpegurl, audio/x-scpls, text/plain;q=0.9, */*;q=0.5'
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} seconds`
const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`

export type RemoteResponse = {
  url: string
  status: number
  contentType: string
  body: string
  notModified: boolean
  etag: string | null
  lastModified: string | null
}

type Target = { address: string; family: 4 | 6 }

function parseUrl(raw: string, base?: URL): URL {
  let url: URL
  try {
    url = new URL(raw, base)
  } catch {
    throw new RemoteError('Please enter a valid URL starting with http:// or https://')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RemoteError(`Only http:// and https:// URLs can be loaded (got ${url.protocol.replace(/:$/, '')})`)
  if (!url.hostname) throw new RemoteError('The URL has no host name')
  return url
}

const resolveAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  )

/** The address to connect to, after checking every address the host stands for. */
export async function checkHost(url: URL, policy: AddressPolicy): Promise<Target> {
  const host = canonicalHost(url.hostname)
  const literal = /^[\d.]+$/.test(host) || host.includes(':')
  let addresses: LookupAddress[]
  if (literal) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }]
  } else {
    try {
      addresses = await resolveAll(host)
    } catch {
      throw new RemoteError(`Could not resolve the host name ${host}`)
    }
    if (!addresses.length) throw new RemoteError(`Could not resolve the host name ${host}`)
  }
  const hostAllowed = isAllowedHost(host, policy)
  for (const a of addresses) {
    if (hostAllowed) break
    const verdict = judgeAddress(a.address, policy)
    if (!verdict.ok) {
      const where = literal ? `${a.address} is` : `${host} resolves to ${a.address},`
      const hint = verdict.privateRange ? ' (set REMOTE_ALLOW_PRIVATE or REMOTE_ALLOW_HOSTS to allow it)' : ''
      throw new RemoteError(`Remote URL refused: ${where} a ${verdict.label} address${hint}`)
    }
  }
  return { address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 }
}

type Raw = { status: number; headers: http.IncomingHttpHeaders; stream: http.IncomingMessage }

function request(url: URL, target: Target, signal: AbortSignal, headers: Record<string, string>): Promise<Raw> {
  const mod = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = mod.request(
      {
        protocol: url.protocol,
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        headers: { 'user-agent': 'Vibes/0.1 (remote folder reader)', ...headers },
        // The only address this request may use: the one checkHost approved.
        lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
          opts?.all ? cb(null, [target]) : cb(null, target.address, target.family)) as never,
        agent: false,
        signal,
      },
      (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, stream: res }),
    )
    req.on('error', reject)
    signal.addEventListener('abort', () => req.destroy(new Error('timed out')), { once: true })
    req.end()
  })
}

type Refusals = { tooLarge: string; timedOut: string; cutOff: string }

/**
 * The body, at most maxBytes of it. Past that it is refused, or with `truncate` (a file's head
 * from a server that ignored our Range header) cut off there and the connection dropped.
 */
async function readCapped(raw: Raw, signal: AbortSignal, maxBytes: number, { tooLarge, timedOut, cutOff }: Refusals, truncate = false): Promise<Buffer> {
  const declared = Number(raw.headers['content-length'] ?? NaN)
  if (declared > maxBytes && !truncate) {
    raw.stream.destroy()
    throw new RemoteError(tooLarge)
  }
  let stream: Readable = raw.stream
  const encoding = String(raw.headers['content-encoding'] ?? '').toLowerCase()
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = raw.stream.pipe(zlib.createGunzip())
  else if (encoding === 'deflate') stream = raw.stream.pipe(zlib.createInflate())
  else if (encoding === 'br') stream = raw.stream.pipe(zlib.createBrotliDecompress())
  const chunks: Buffer[] = []
  let total = 0
  signal.addEventListener('abort', () => raw.stream.destroy(new Error('timed out')), { once: true })
  try {
    for await (const chunk of stream) {
      if (signal.aborted) break
      total += chunk.length
      if (total > maxBytes && truncate) {
        chunks.push((chunk as Buffer).subarray(0, chunk.length - (total - maxBytes)))
        raw.stream.destroy()
        return Buffer.concat(chunks as Uint8Array[])
      }
      if (total > maxBytes) {
        raw.stream.destroy()
        throw new RemoteError(tooLarge)
      }
      chunks.push(chunk as Buffer)
    }
  } catch (error) {
    if (error instanceof RemoteError) throw error
    if (signal.aborted) throw new RemoteError(timedOut)
    throw new RemoteError(cutOff)
  }
  if (signal.aborted) throw new RemoteError(timedOut)
  return Buffer.concat(chunks as Uint8Array[])
}

function decodeBody(bytes: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1] ?? 'utf-8'
  // Apache labels listings ISO-8859-1 by default even when the file names are UTF-8: bytes that
  // are valid UTF-8 are read as UTF-8 (Latin-1 text with accents is almost never valid UTF-8).
  if (/^(iso-8859-1|latin1|windows-1252|us-ascii)$/i.test(charset)) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    } catch {}
  }
  try {
    return new TextDecoder(charset).decode(bytes)
  } catch {
    return new TextDecoder('utf-8').decode(bytes)
  }
}

/** Why a connection failed, in words (never a bare error code such as ECONNREFUSED). */
function connectFailure(host: string, code: string | undefined): string {
  if (code === 'ECONNREFUSED') return `Nothing answers at that address (${host})`
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `That address cannot be reached from this server (${host})`
  if (code === 'ECONNRESET' || code === 'EPIPE') return `The remote server at ${host} closed the connection`
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return `The secure connection to ${host} failed (its certificate is not trusted)`
  return `Could not connect to ${host}`
}

/** What a final (not redirect) answer is, once the address policy has let every hop through. */
type Opened = { url: URL; raw: Raw }

/** GETs a remote URL under the policy, following up to 5 checked redirects; refuses non-2xx answers. */
async function openRemote(rawUrl: string, policy: AddressPolicy, signal: AbortSignal, timedOut: string, headers: Record<string, string>): Promise<Opened> {
  let url = parseUrl(rawUrl)
  for (let hop = 0; ; hop++) {
    // A resolver that hangs must not outlast the timeout either.
    const aborted = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new RemoteError(timedOut)), { once: true }))
    aborted.catch(() => {})
    const target = await Promise.race([checkHost(url, policy), aborted])
    if (signal.aborted) throw new RemoteError(timedOut)
    let raw: Raw
    try {
      raw = await request(url, target, signal, headers)
    } catch (error) {
      if (signal.aborted) throw new RemoteError(timedOut)
      throw new RemoteError(connectFailure(url.host, (error as { code?: string }).code))
    }
    const location = raw.headers.location
    // Not modified: only asked for with validators (fetchRemote's `conditional`).
    if (raw.status === 304 && (headers['if-none-match'] || headers['if-modified-since'])) return { url, raw }
    if (raw.status >= 300 && raw.status < 400 && location) {
      raw.stream.destroy()
      if (hop >= REMOTE_MAX_REDIRECTS) throw new RemoteError(`Too many redirects (more than ${REMOTE_MAX_REDIRECTS})`)
      url = parseUrl(location, url)
      continue
    }
    if (raw.status < 200 || raw.status >= 300) {
      raw.stream.destroy()
      const reason = raw.stream.statusMessage || http.STATUS_CODES[raw.status]
      throw new RemoteError(`That address answered ${raw.status}${reason ? ` ${reason}` : ''}`)
    }
    return { url, raw }
  }
}

/** GETs a remote URL under the policy, following up to 5 checked redirects. */
export async function fetchRemote(rawUrl: string, policy: AddressPolicy, limits: FetchLimits = {}): Promise<RemoteResponse> {
  const timeoutMs = limits.timeoutMs ?? REMOTE_TIMEOUT_MS
  const maxBytes = limits.maxBytes ?? REMOTE_MAX_BYTES
  const timedOut = `The remote server did not answer within ${seconds(timeoutMs)}`
  const what = limits.what ?? 'listing'
  const tooLarge = `The remote ${what} is larger than ${megabytes(maxBytes)}`
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  try {
    const headers: Record<string, string> = { accept: limits.accept ?? FOLDER_ACCEPT, 'accept-encoding': 'gzip, deflate, br' }
    if (limits.conditional?.etag) headers['if-none-match'] = limits.conditional.etag
    if (limits.conditional?.lastModified) headers['if-modified-since'] = limits.conditional.lastModified
    const { url, raw } = await openRemote(rawUrl, policy, controller.signal, timedOut, headers)
    const contentType = String(raw.headers['content-type'] ?? '')
    const validators = { etag: header(raw, 'etag'), lastModified: header(raw, 'last-modified') }
    if (raw.status === 304) {
      raw.stream.destroy()
      return { url: url.href, status: 304, contentType, body: '', notModified: true, ...validators }
    }
    const bytes = await readCapped(raw, controller.signal, maxBytes, {
      tooLarge,
      timedOut,
      cutOff: `The remote server closed the connection while sending the ${what}`,
    })
    return { url: url.href, status: raw.status, contentType, body: decodeBody(bytes, contentType), notModified: false, ...validators }
  } finally {
    clearTimeout(timer)
  }
}

const header = (raw: Raw, name: string): string | null => {
  const value = raw.headers[name]
  return typeof value === 'string' && value ? value : null
}

/** Part of a remote file: its first bytes, or (suffix) its last ones. */
export type ByteRange = { first: number; last: number } | { suffix: number }

/** The bytes read, and the whole file's size when the server said it (null when it did not). */
export type RemoteBytes = { bytes: Uint8Array; size: number | null; whole: boolean }

/**
 * Reads part of a remote media file with a Range request, under the same policy and redirect
 * rules. A server that ignores Range (Python's http.server) answers the whole file: for a head
 * the rest is not downloaded; for a tail, a file of at most `wholeUpTo` bytes is read whole and
 * its tail kept, a larger one gives nothing.
 */
export async function fetchRemoteBytes(rawUrl: string, policy: AddressPolicy, range: ByteRange, timeoutMs: number, wholeUpTo = 0): Promise<RemoteBytes> {
  const timedOut = `The remote server did not answer within ${seconds(timeoutMs)}`
  const wanted = 'suffix' in range ? range.suffix : range.last - range.first + 1
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  try {
    const spec = 'suffix' in range ? `-${range.suffix}` : `${range.first}-${range.last}`
    // identity: a compressed body would make the byte positions of the answer mean nothing.
    const headers = { accept: '*/*', 'accept-encoding': 'identity', range: `bytes=${spec}` }
    const { raw } = await openRemote(rawUrl, policy, controller.signal, timedOut, headers)
    const partial = raw.status === 206
    const declared = Number(raw.headers['content-length'] ?? NaN)
    if (!partial && 'suffix' in range && !(declared <= wholeUpTo)) {
      raw.stream.destroy()
      return { bytes: new Uint8Array(), size: null, whole: false }
    }
    if (!partial && 'suffix' in range) {
      const refusals = { tooLarge: 'The remote file is too large', timedOut, cutOff: 'The remote server closed the connection while sending the file' }
      const bytes = new Uint8Array(await readCapped(raw, controller.signal, wholeUpTo, refusals))
      return { bytes: bytes.subarray(Math.max(0, bytes.length - range.suffix)), size: bytes.length, whole: false }
    }
    const refusals = { tooLarge: 'The remote file part is too large', timedOut, cutOff: 'The remote server closed the connection while sending the file' }
    const bytes = new Uint8Array(await readCapped(raw, controller.signal, wanted, refusals, true))
    const total = partial ? /\/(\d+)\s*$/.exec(String(raw.headers['content-range'] ?? ''))?.[1] : raw.headers['content-length']
    const size = total !== undefined && Number.isSafeInteger(Number(total)) ? Number(total) : null
    return { bytes, size, whole: !partial && (size === null || bytes.length >= size) }
  } finally {
    clearTimeout(timer)
  }
}

/** An open answer whose body is read as it comes (a live stream, an episode relayed); `close` drops the connection. */
export type RemoteStream = { url: string; status: number; contentType: string; headers: http.IncomingHttpHeaders; body: Readable; close: () => void }

/**
 * Opens a remote URL to relay it as it comes (an internet radio stream, a podcast episode with the
 * listener's Range in `headers`) under the same policy and redirect rules: `connectMs` bounds the
 * hops until the answer's headers arrive; after that the body has no deadline (a station never
 * ends, an episode plays for as long as it lasts). `signal` (the listener leaving) closes it.
 */
export async function openRemoteStream(
  rawUrl: string,
  policy: AddressPolicy,
  headers: Record<string, string>,
  { connectMs, signal }: { connectMs: number; signal?: AbortSignal },
): Promise<RemoteStream> {
  const controller = new AbortController()
  const close = () => controller.abort()
  signal?.addEventListener('abort', close, { once: true })
  const timer = setTimeout(close, connectMs)
  let opened: Opened
  try {
    opened = await openRemote(rawUrl, policy, controller.signal, `The station did not answer within ${seconds(connectMs)}`, {
      'accept-encoding': 'identity',
      ...headers,
    })
  } catch (error) {
    close()
    throw error
  } finally {
    clearTimeout(timer)
  }
  const { url, raw } = opened
  controller.signal.addEventListener('abort', () => raw.stream.destroy(), { once: true })
  return { url: url.href, status: raw.status, contentType: String(raw.headers['content-type'] ?? ''), headers: raw.headers, body: raw.stream, close }
}
