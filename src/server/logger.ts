// Structured JSON logs on stdout (pino). Expected 4xx are info; only server faults are errors.
import pino from 'pino'
import { config } from './config'

export const logger = pino({ level: config.LOG_LEVEL, base: { app: 'vibes' } })
