// Recording plays runs statements prepared once per database (decision 036). What that must not
// change: every play is its own row (the id and the client key are bound per call, not fixed at
// preparation), an update writes exactly the fields sent — a cleared end time is cleared — and
// touches only the caller’s play.
import { expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDb } from '~/db/client'
import { recordPlay, updatePlayEvent } from '~/server/services/listening'
import { PlayEventCreateSchema, PlayEventUpdateFields } from '~/shared/validators'

const db = openDb(path.join(mkdtempSync(path.join(tmpdir(), 'vibes-unit-')), 'vibes.db'), path.resolve(import.meta.dir, '../../src/db/migrations'))
db.$client.exec(
  "INSERT INTO users (id, username, email, password_hash, created_at) VALUES ('ann', 'ann', 'ann@example.com', 'x', 0), ('bob', 'bob', 'bob@example.com', 'x', 0)",
)
const listener = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', country: 'GB', region: 'England', city: 'London', ip: '81.2.69.142' }
const play = async (title: string, extra: object = {}) =>
  (await recordPlay(db, 'ann', PlayEventCreateSchema.parse({ trackUrl: `https://music.example/${title}.mp3`, title, ...extra }), listener)).playEventId
const update = (user: string, id: string, fields: object) => updatePlayEvent(db, user, id, PlayEventUpdateFields.parse(fields))
const row = (id: string) => db.$client.query('SELECT * FROM play_events WHERE id = ?').get(id) as Record<string, unknown>

test('each play is its own row with what was sent and where it came from', async () => {
  const a = await play('A', { genre: 'Jazz', year: 1999, source: 'playlist', playlistId: 'p1' })
  const b = await play('B')
  expect(a).not.toBe(b)
  expect(row(a)).toMatchObject({
    user_id: 'ann',
    title: 'A',
    genre: 'Jazz',
    year: 1999,
    source: 'playlist',
    playlist_id: 'p1',
    device_type: 'desktop',
    city: 'London',
  })
  expect(row(b)).toMatchObject({ title: 'B', genre: null, year: null, source: 'direct', network_type: 'unknown', playlist_id: null })
})

test('an update writes the fields sent, clears an end time sent as null, and never reaches another member’s play', async () => {
  const id = await play('C')
  const ended = Date.now() - 1000
  await update('ann', id, { listenDuration: 42, completed: true, endedAt: ended })
  expect(row(id)).toMatchObject({ listen_duration: 42, completed: 1, ended_at: ended, liked: 0 })
  await update('ann', id, { endedAt: null, skipTime: null, liked: true })
  expect(row(id)).toMatchObject({ listen_duration: 42, completed: 1, ended_at: null, skip_time: null, liked: 1 })
  expect(update('bob', id, { listenDuration: 1 })).rejects.toThrow('Play event not found')
  expect(row(id).listen_duration).toBe(42)
})

test('a client key is bound per call: its repeat answers the first play, a play without one is always new', async () => {
  const count = () => (db.$client.query("SELECT count(*) AS n FROM play_events WHERE title = 'D'").get() as { n: number }).n
  const first = await play('D', { clientPlayId: 'key-one-0001' })
  expect(await play('D', { clientPlayId: 'key-one-0001' })).toBe(first)
  const second = await play('D', { clientPlayId: 'key-two-0002' })
  expect(second).not.toBe(first)
  expect(await play('D')).not.toBe(await play('D'))
  expect(count()).toBe(4)
  expect(row(first).client_play_id).toBe('key-one-0001')
})
