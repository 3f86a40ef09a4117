// Structured JSON logs on stdout, in pino's line shape ({"level":30,"time":…,"app":"vibes",…,
// "msg":…}, errors under "err" as {type,message,stack}). Expected 4xx are info; only server faults
// are errors. Not pino itself: loading it cost a compiled server ~3–6 MB of memory at idle for the
// little of it we used (decision 043). Lines are gathered and leave in one write per turn of the
// event loop, not one write each: a synchronous write per request line cost a fifth of a cheap
// request's CPU (decision 034). A line waits at most that turn; whatever is left is written at exit.
import { writeSync } from 'node:fs'
import { config } from './config'

const pending: string[] = []

/** All of `chunk` to stdout, waiting out a full pipe (EAGAIN); a closed stdout drops it. */
function writeAll(chunk: string) {
  // Usually the pipe takes the whole batch in one write, with no copy. (pino's sonic-boom writer
  // copied each batch into a Buffer after writing it: a tenth of a health check's CPU, decision 038.)
  let written = 0
  try {
    written = writeSync(1, chunk)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return
  }
  if (written === Buffer.byteLength(chunk)) return
  let rest = new TextEncoder().encode(chunk).subarray(written)
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(1, rest))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return
      Bun.sleepSync(1)
    }
  }
}

function flush() {
  if (pending.length === 0) return
  const chunk = pending.join('')
  pending.length = 0
  writeAll(chunk)
}

const stdout = {
  write(line: string) {
    if (pending.push(line) === 1) setImmediate(flush)
  },
}
process.on('exit', flush)

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const
type Level = keyof typeof LEVELS
const threshold = config.LOG_LEVEL === 'silent' ? Number.POSITIVE_INFINITY : LEVELS[config.LOG_LEVEL]

/** An error as pino's standard serializer writes it: its type, message, stack and own fields. */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error
  const { name, message, stack, cause, ...own } = error as Error & Record<string, unknown>
  return { type: error.constructor?.name ?? name, message, stack, ...own, ...(cause === undefined ? {} : { cause: serializeError(cause) }) }
}

/** JSON that never throws: a cycle or a BigInt becomes a string instead of losing the line. */
function toJson(value: unknown): string {
  const seen = new WeakSet<object>()
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString()
    if (typeof v === 'object' && v !== null) {
      if (seen.has(v)) return '[Circular]'
      seen.add(v)
    }
    return v
  })
}

function write(level: Level, fieldsOrMessage: Record<string, unknown> | string, message?: string) {
  if (LEVELS[level] < threshold) return
  const fields = typeof fieldsOrMessage === 'string' ? {} : fieldsOrMessage
  const msg = typeof fieldsOrMessage === 'string' ? fieldsOrMessage : message
  const line: Record<string, unknown> = { level: LEVELS[level], time: Date.now(), app: 'vibes', ...fields }
  if ('err' in fields) line.err = serializeError(fields.err)
  if (msg !== undefined) line.msg = msg
  stdout.write(`${toJson(line)}\n`)
}

type LogCall = (fieldsOrMessage: Record<string, unknown> | string, message?: string) => void
const at =
  (level: Level): LogCall =>
  (fieldsOrMessage, message) =>
    write(level, fieldsOrMessage, message)

export const logger = {
  trace: at('trace'),
  debug: at('debug'),
  info: at('info'),
  warn: at('warn'),
  error: at('error'),
  fatal: at('fatal'),
  isLevelEnabled: (level: Level) => LEVELS[level] >= threshold,
}

export type RequestLine = { id: string; method: string; path: string; status: number; durationMs: number }

// Strings JSON would write unchanged need no JSON.stringify (a twentieth of a health check's CPU):
// the request id is a UUID, and a path parsed by URL holds only printable ASCII without " or \
// (WHATWG URL percent-encodes the rest). A method outside this list is written by JSON.stringify.
const PLAIN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** serve.ts's line per request: {"level","time","app","id","method","path","status","durationMs","msg":"request"}. `path` is a URL's pathname. */
export function logRequest(level: 'info' | 'debug', line: RequestLine) {
  if (!logger.isLevelEnabled(level)) return
  const method = PLAIN_METHODS.has(line.method) ? `"${line.method}"` : JSON.stringify(line.method)
  stdout.write(
    `{"level":${LEVELS[level]},"time":${Date.now()},"app":"vibes","id":"${line.id}","method":${method},"path":"${line.path}","status":${line.status},"durationMs":${line.durationMs},"msg":"request"}\n`,
  )
}
