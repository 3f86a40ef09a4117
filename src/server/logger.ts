// Structured JSON logs on stdout (pino). Expected 4xx are info; only server faults are errors.
// Lines are gathered and leave in one write per turn of the event loop, not one write each: a
// synchronous write per request line cost a fifth of a cheap request's CPU (decision 034). A line
// waits at most that turn; whatever is left is written at exit. The request line itself
// (logRequest) is written without pino's per-call work, in the same shape pino gives it.
import { writeSync } from 'node:fs'
import pino from 'pino'
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

export const logger = pino({ level: config.LOG_LEVEL, base: { app: 'vibes' } }, stdout)

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
    `{"level":${logger.levels.values[level]},"time":${Date.now()},"app":"vibes","id":"${line.id}","method":${method},"path":"${line.path}","status":${line.status},"durationMs":${line.durationMs},"msg":"request"}\n`,
  )
}
