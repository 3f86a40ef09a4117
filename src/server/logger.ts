// Structured JSON logs on stdout (pino). Expected 4xx are info; only server faults are errors.
// Lines are gathered and leave in one write per turn of the event loop, not one write each: a
// synchronous write per request line cost a fifth of a cheap request's CPU (decision 034). A line
// waits at most that turn; whatever is left is written at exit. The request line itself
// (logRequest) is written without pino's per-call work, in the same shape pino gives it.
import pino from 'pino'
import { config } from './config'

// pino's own synchronous stdout writer (it waits out a full pipe), fed one batch at a time.
const destination = pino.destination({ dest: 1, sync: true })
const pending: string[] = []

function flush() {
  if (pending.length === 0) return
  const chunk = pending.join('')
  pending.length = 0
  destination.write(chunk)
}

const stdout = {
  write(line: string) {
    if (pending.push(line) === 1) setImmediate(flush)
  },
}
process.on('exit', flush)

export const logger = pino({ level: config.LOG_LEVEL, base: { app: 'vibes' } }, stdout)

export type RequestLine = { id: string; method: string; path: string; status: number; durationMs: number }

/** serve.ts's line per request: {"level","time","app","id","method","path","status","durationMs","msg":"request"}. */
export function logRequest(level: 'info' | 'debug', line: RequestLine) {
  if (!logger.isLevelEnabled(level)) return
  stdout.write(
    `{"level":${logger.levels.values[level]},"time":${Date.now()},"app":"vibes","id":${JSON.stringify(line.id)},"method":${JSON.stringify(line.method)},"path":${JSON.stringify(line.path)},"status":${line.status},"durationMs":${line.durationMs},"msg":"request"}\n`,
  )
}
