// One request-body limit for the whole server (CONTRACT §6 "Security rules"): 1 MB on REST and
// tRPC alike. A declared Content-Length over the limit is refused before a byte of the body is
// read; a body without one (chunked) is read with a counter and cut at the limit. Either way the
// answer is the 413 JSON envelope; Bun's own maxRequestBodySize is only a backstop far above.
export const MAX_BODY_BYTES = 1024 * 1024

export const bodyTooLarge = () => Response.json({ success: false, error: 'Request body too large' }, { status: 413, headers: { 'cache-control': 'no-store' } })

/**
 * The request, safe to read (its body at most MAX_BODY_BYTES), or the 413 answer. Decided at
 * once (no promise) unless a body without a declared length has to be counted first: most
 * requests are GETs without a body, and a promise per request costs the cheap ones (decision 042).
 */
export function limitBody(request: Request): Request | Response | Promise<Request | Response> {
  if (!request.body) return request
  const declared = request.headers.get('content-length')
  if (declared !== null) return Number(declared) > MAX_BODY_BYTES ? bodyTooLarge() : request
  return countedBody(request, request.body)
}

/** `handle(request)` once the body is known to be within the limit; else the 413 answer. */
export function withLimitedBody(request: Request, handle: (request: Request) => Response | Promise<Response>): Response | Promise<Response> {
  const limited = limitBody(request)
  if (limited instanceof Promise) return limited.then((ready) => (ready instanceof Response ? ready : handle(ready)))
  return limited instanceof Response ? limited : handle(limited)
}

async function countedBody(request: Request, stream: ReadableStream<Uint8Array>): Promise<Request | Response> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_BODY_BYTES) {
      void reader.cancel().catch(() => {})
      return bodyTooLarge()
    }
    chunks.push(value)
  }
  const headers = new Headers(request.headers)
  headers.delete('transfer-encoding')
  headers.set('content-length', String(size))
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  return new Request(request, { headers, body })
}
