// One request-body limit for the whole server: 1 MB on REST and
// tRPC alike (the one route that takes a picture upload passes its own, decision 076). A declared Content-Length over the limit is refused before a byte of the body is
// used; a body without one (chunked) is read with a counter and cut at the limit. Either way the
// answer is the 413 JSON envelope; Bun's own maxRequestBodySize is only a backstop far above.
//
// The 413 must reach a client that writes its whole body before it reads (most scripts): closing
// on a body still coming resets the connection, and the client's socket drops the answer unread.
// So the rest of an over-limit body is read and thrown away first, for at most LINGER_MS and
// LINGER_BYTES (nginx's lingering close does the same); past either, the 413 goes out anyway and
// the connection is closed, so a slow or endless body cannot hold it.
export const MAX_BODY_BYTES = 1024 * 1024

const LINGER_MS = 5_000
const LINGER_BYTES = 32 * MAX_BODY_BYTES

const TOO_LARGE = { success: false, error: 'Request body too large' }
export const bodyTooLarge = (closing = false) =>
  Response.json(TOO_LARGE, { status: 413, headers: closing ? { 'cache-control': 'no-store', connection: 'close' } : { 'cache-control': 'no-store' } })

/**
 * The request, safe to read (its body at most MAX_BODY_BYTES), or the 413 answer. Decided at
 * once (no promise) unless a body has to be counted or discarded first: most requests are GETs
 * without a body, and a promise per request costs the cheap ones (decision 042).
 */
export function limitBody(request: Request, max = MAX_BODY_BYTES): Request | Response | Promise<Request | Response> {
  if (!request.body) return request
  const declared = request.headers.get('content-length')
  if (declared === null) return countedBody(request, request.body, max)
  if (Number(declared) <= max) return request
  // A client waiting for "100 Continue" has not sent its body and will not: answer at once.
  if (request.headers.has('expect')) return bodyTooLarge(true)
  return refuseAfterDiscarding(request.body.getReader(), 0)
}

/** `handle(request)` once the body is known to be within the limit; else the 413 answer. */
export function withLimitedBody(
  request: Request,
  handle: (request: Request) => Response | Promise<Response>,
  max = MAX_BODY_BYTES,
): Response | Promise<Response> {
  const limited = limitBody(request, max)
  if (limited instanceof Promise) return limited.then((ready) => (ready instanceof Response ? ready : handle(ready)))
  return limited instanceof Response ? limited : handle(limited)
}

async function countedBody(request: Request, stream: ReadableStream<Uint8Array>, max: number): Promise<Request | Response> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) return refuseAfterDiscarding(reader, size)
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

/** The 413, once the rest of the body is read and dropped, or the bounds are reached (then closing). */
async function refuseAfterDiscarding(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): Promise<Response> {
  let timer: Timer | undefined
  const outOfTime = new Promise<'late'>((resolve) => {
    timer = setTimeout(resolve, LINGER_MS, 'late')
  })
  let read = alreadyRead
  try {
    while (read <= LINGER_BYTES) {
      const next = await Promise.race([reader.read(), outOfTime])
      if (next === 'late') break
      if (next.done) return bodyTooLarge()
      read += next.value.byteLength
    }
  } catch {
    // The client went away: nobody reads this answer.
  } finally {
    clearTimeout(timer)
  }
  void reader.cancel().catch(() => {})
  return bodyTooLarge(true)
}
