// An Ogg file's length from its last page (src/server/library/ogg-duration.ts), on files made by
// ffmpeg: Vorbis at its own rate, Opus counted at 48 kHz, and no answer for what is not Ogg.
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { oggDurationFromLastPage } from '~/server/library/ogg-duration'
import { ffmpeg } from '../helpers/media'

const dir = mkdtempSync(path.join(tmpdir(), 'vibes-ogg-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('Vorbis: the last granule position over the stream rate, past the pages music-metadata reads first', async () => {
  const file = path.join(dir, 'vorbis.ogg')
  ffmpeg('-f', 'lavfi', '-i', 'anoisesrc=d=37:c=pink', '-ar', '44100', '-c:a', 'libvorbis', file)
  expect(await oggDurationFromLastPage(file, 44_100)).toBeCloseTo(37, 2)
})

test('Opus: granule positions count 48 kHz samples', async () => {
  const file = path.join(dir, 'opus.ogg')
  ffmpeg('-f', 'lavfi', '-i', 'sine=duration=12', '-c:a', 'libopus', file)
  expect(await oggDurationFromLastPage(file, 48_000)).toBeCloseTo(12, 1)
})

test('a file that is not Ogg, or no rate, gives no duration', async () => {
  const file = path.join(dir, 'not.ogg')
  writeFileSync(file, 'x'.repeat(100_000))
  expect(await oggDurationFromLastPage(file, 44_100)).toBeNull()
  expect(await oggDurationFromLastPage(path.join(dir, 'vorbis.ogg'), 0)).toBeNull()
})
