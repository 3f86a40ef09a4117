// The log line's shape, which log collectors parse: pino's ({"level":30,"time":…,"app":"vibes",
// fields…,"msg":…}, an error under "err" as {type,message,stack}), whether pino writes the line
// or logRequest does (decision 043); LOG_LEVEL drops the lines below it.
import { describe, expect, test } from 'bun:test'
import path from 'node:path'

function linesLogged(logLevel: string, calls: string): Array<Record<string, any>> {
  const r = Bun.spawnSync(['bun', '-e', `const { logger } = await import('~/server/logger'); ${calls}`], {
    cwd: path.resolve(import.meta.dir, '../..'),
    env: { ...process.env, LOG_LEVEL: logLevel },
  })
  expect(r.exitCode).toBe(0)
  return r.stdout
    .toString()
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

describe('log lines', () => {
  test('fields and message, an error serialized under err, a message alone', () => {
    const [withFields, withError, alone] = linesLogged(
      'info',
      `logger.info({ purged: 3 }, 'housekeeping done')
       const error = Object.assign(new TypeError('boom'), { code: 'E_BOOM' })
       logger.error({ err: error, path: '/x' }, 'media request failed')
       logger.warn('GeoIP database not available')`,
    )
    expect(withFields).toEqual({ level: 30, time: expect.any(Number), app: 'vibes', purged: 3, msg: 'housekeeping done' })
    expect(withError).toMatchObject({ level: 50, app: 'vibes', path: '/x', msg: 'media request failed' })
    expect(withError.err).toMatchObject({ type: 'TypeError', message: 'boom', code: 'E_BOOM' })
    expect(withError.err.stack).toContain('TypeError: boom')
    expect(alone).toEqual({ level: 40, time: expect.any(Number), app: 'vibes', msg: 'GeoIP database not available' })
  })

  test('LOG_LEVEL drops the levels below it; silent drops everything', () => {
    const calls = `logger.debug('d'); logger.info('i'); logger.warn('w'); logger.error('e')`
    expect(linesLogged('warn', calls).map((line) => line.msg)).toEqual(['w', 'e'])
    expect(linesLogged('silent', calls)).toEqual([])
  })
})
