// An AVI file's length from its main header (src/server/library/avi-duration.ts), on files made
// by ffmpeg (which also reserves an OpenDML header), and no answer for what is not AVI.
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { aviDurationFromHeader } from '~/server/library/avi-duration'
import { ffmpeg } from '../helpers/media'

const dir = mkdtempSync(path.join(tmpdir(), 'vibes-avi-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('frames times the frame duration, at 25 and at 30000/1001 frames a second', async () => {
  const pal = path.join(dir, 'pal.avi')
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=duration=7:size=64x48:rate=25', '-c:v', 'mpeg4', pal)
  expect(await aviDurationFromHeader(pal)).toBeCloseTo(7, 2)
  const ntsc = path.join(dir, 'ntsc.avi')
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=duration=5:size=64x48:rate=30000/1001', '-c:v', 'mpeg4', ntsc)
  expect(await aviDurationFromHeader(ntsc)).toBeCloseTo(5, 1)
})

test('a file that is not AVI gives no duration', async () => {
  const file = path.join(dir, 'not.avi')
  writeFileSync(file, 'RIFF\0\0\0\0WAVEfmt ')
  expect(await aviDurationFromHeader(file)).toBeNull()
  writeFileSync(file, '')
  expect(await aviDurationFromHeader(file)).toBeNull()
})
