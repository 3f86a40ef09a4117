// Fetching a remote folder URL under the address policy (CONTRACT §3). We resolve the name
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
/** The address policy refused the host (as opposed to a network failure): saving such a folder is refused too. */
export class AddressRefusedError extends RemoteError {}

/** What one fetch may cost, and what it asks for; the defaults are the remote-folder limits. */
export type FetchLimits = { timeoutMs?: number; maxBytes?: number; accept?: string; what?: string }
const FOLDER_ACCEPT = 'text/html, application/json, audio/x-mpegurl, audio/x-scpls, text/plain;q=0.9, */*;q=0.5'
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} seconds`
const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`

export type RemoteResponse = { url: string; status: number; contentType: string; body: string }

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
      throw new AddressRefusedError(`Remote URL refused: ${where} a ${verdict.label} address${hint}`)
    }
  }
  return { address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 }
}

type Raw = { status: number; headers: http.IncomingHttpHeaders; stream: http.IncomingMessage }

function request(url: URL, target: Target, signal: AbortSignal, accept: string): Promise<Raw> {
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
        headers: {
          'user-agent': 'Vibes/0.1 (remote folder reader)',
          accept,
          'accept-encoding': 'gzip, deflate, br',
        },
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

async function readCapped(raw: Raw, signal: AbortSignal, maxBytes: number, { tooLarge, timedOut, cutOff }: Refusals): Promise<Buffer> {
  const declared = Number(raw.headers['content-length'] ?? NaN)
  if (declared > maxBytes) {
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
    let url = parseUrl(rawUrl)
    for (let hop = 0; ; hop++) {
      // A resolver that hangs must not outlast the timeout either.
      const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new RemoteError(timedOut)), { once: true }))
      aborted.catch(() => {})
      const target = await Promise.race([checkHost(url, policy), aborted])
      if (controller.signal.aborted) throw new RemoteError(timedOut)
      let raw: Raw
      try {
        raw = await request(url, target, controller.signal, limits.accept ?? FOLDER_ACCEPT)
      } catch (error) {
        if (controller.signal.aborted) throw new RemoteError(timedOut)
        const code = (error as { code?: string }).code
        throw new RemoteError(`Could not connect to ${url.host}${code ? ` (${code})` : ''}: ${(error as Error).message}`)
      }
      const location = raw.headers.location
      if (raw.status >= 300 && raw.status < 400 && location) {
        raw.stream.destroy()
        if (hop >= REMOTE_MAX_REDIRECTS) throw new RemoteError(`Too many redirects (more than ${REMOTE_MAX_REDIRECTS})`)
        url = parseUrl(location, url)
        continue
      }
      if (raw.status < 200 || raw.status >= 300) {
        raw.stream.destroy()
        throw new RemoteError(`The remote server answered ${raw.status}${raw.stream.statusMessage ? ` ${raw.stream.statusMessage}` : ''}`)
      }
      const contentType = String(raw.headers['content-type'] ?? '')
      const bytes = await readCapped(raw, controller.signal, maxBytes, {
        tooLarge,
        timedOut,
        cutOff: `The remote server closed the connection while sending the ${what}`,
      })
      return { url: url.href, status: raw.status, contentType, body: decodeBody(bytes, contentType) }
    }
  } finally {
    clearTimeout(timer)
  }
}
