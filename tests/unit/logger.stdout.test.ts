// The log writer (logger.ts) writes each batch of lines to stdout itself: a collector that reads
// slowly (a full pipe) must still get every line whole and in order, multi-byte characters too.
import { describe, expect, test } from 'bun:test'
import path from 'node:path'

const LINES = 20_000

describe('request log on stdout', () => {
  test('a burst larger than the pipe reaches a slow reader complete, in order, UTF-8 intact', async () => {
    const script = `
      const { logger, logRequest } = await import('~/server/logger')
      for (let i = 0; i < ${LINES}; i++) logRequest('info', { id: String(i), method: 'GET', path: '/media/Motörhead/声/' + i, status: 200, durationMs: 0.1 })
      logger.info({ last: true }, 'done')
    `
    const child = Bun.spawn(['bun', '-e', script], {
      cwd: path.resolve(import.meta.dir, '../..'),
      env: { ...process.env, LOG_LEVEL: 'info' },
      stdout: 'pipe',
      stderr: 'inherit',
    })
    // Let the pipe fill up before reading anything.
    await Bun.sleep(500)
    const out = await new Response(child.stdout).text()
    expect(await child.exited).toBe(0)
    const lines = out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines).toHaveLength(LINES + 1)
    lines.slice(0, LINES).forEach((line, i) => {
      expect(line.id).toBe(String(i))
      expect(line.path).toBe(`/media/Motörhead/声/${i}`)
    })
    expect(lines[LINES]).toMatchObject({ last: true, msg: 'done' })
  }, 30_000)
})
