// Structured JSON logs on stdout (pino). Expected 4xx are info; only server faults are errors.
// Lines go out through an asynchronous destination: one synchronous write per request line cost a
// fifth of a cheap request's CPU (decision 034); while one write is under way the next lines
// gather and leave together, so a line waits at most one write, and the rest is written at exit.
import pino from 'pino'
import { config } from './config'

const destination = pino.destination({ dest: 1, sync: false })
process.on('exit', () => destination.flushSync())

export const logger = pino({ level: config.LOG_LEVEL, base: { app: 'vibes' } }, destination)
