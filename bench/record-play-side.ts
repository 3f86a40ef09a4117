// Recording a play (insert + progress update, roll-up triggers included) on a
// fresh database seeded with 5,000 plays: p50/p99 of 1,000 calls, three rounds. Small enough for a
// busy machine; bench/analytics-at-scale.ts has the same figure over a million plays.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDb } from '~/db/client'
import { recordPlay, updatePlayEvent } from '~/server/services/listening'

const db = openDb(path.join(mkdtempSync(path.join(tmpdir(), 'vibes-bench-')), 'vibes.db'), path.resolve(import.meta.dir, '../src/db/migrations'))
db.$client.exec("INSERT INTO users (id, username, email, password_hash, created_at) VALUES ('ann', 'ann', 'ann@example.com', 'x', 0)")
const client = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', country: 'CY', region: 'Nicosia', city: 'Nicosia', ip: '203.0.113.9' }
const webPlay = (i: number) =>
  ({
    trackUrl: `https://nas.example.com/bench/${i % 50}.mp3`,
    title: `Bench ${i % 50}`,
    duration: 200,
    source: 'playlist',
    genre: 'Jazz',
    playlistId: 'bench',
    networkType: 'wifi',
  }) as never
const create = async (i: number): Promise<string> => (await recordPlay(db, 'ann', webPlay(i), client)).playEventId
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!.toFixed(3)
for (let i = 0; i < 5000; i++) await create(i)
for (let round = 0; round < 3; round++) {
  const inserts: number[] = []
  const updates: number[] = []
  for (let i = 0; i < 1000; i++) {
    let t = performance.now()
    const id = await create(i)
    inserts.push(performance.now() - t)
    t = performance.now()
    await updatePlayEvent(db, 'ann', id, { listenDuration: 120, completed: i % 2 === 0, liked: i % 7 === 0 } as never)
    updates.push(performance.now() - t)
  }
  console.log(`round ${round}: insert p50 ${q(inserts, 0.5)} p99 ${q(inserts, 0.99)} ms; update p50 ${q(updates, 0.5)} p99 ${q(updates, 0.99)} ms`)
}
