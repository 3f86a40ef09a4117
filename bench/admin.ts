// What the admin users, folders and inbox calls cost on a big install: the user list, a bulk add
// to 1,000 users, and the inbox's first and deep pages (each filter) with the counts.
// Run: bun bench/admin.ts [messages]   (default 100k messages; 5,000 users)
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDb } from '~/db/client'

const messages = Number(process.argv[2]) || 100_000
const USERS = 5_000
const dir = mkdtempSync(path.join(tmpdir(), 'vibes-bench-'))
// The services read config on import: a throw-away DATA_DIR, and a library holding the folder
// the bulk add names (a folder that does not exist is refused before any row is written).
process.env.DATA_DIR = path.join(dir, 'data')
process.env.MEDIA_ROOT = path.join(dir, 'media')
mkdirSync(path.join(dir, 'media/music/shared'), { recursive: true })
const { bulkAddFolder, listUsers } = await import('~/server/services/admin-users')
const { listMessages } = await import('~/server/services/messages')
const db = openDb(path.join(dir, 'vibes.db'), path.resolve('src/db/migrations'))
const now = Date.now()

const ids: string[] = []
const addUser = db.$client.prepare('INSERT INTO users (id, username, email, password_hash, is_admin, created_at) VALUES (?, ?, ?, ?, 0, ?)')
db.$client.transaction(() => {
  for (let i = 0; i < USERS; i++) {
    const id = crypto.randomUUID()
    ids.push(id)
    addUser.run(id, `user${i}`, `user${i}@example.com`, 'x', now - i * 60_000)
  }
})()
const addMessage = db.$client.prepare(
  'INSERT INTO contact_messages (id, name, email, subject, message, read, important, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
)
db.$client.transaction(() => {
  for (let i = 0; i < messages; i++) {
    addMessage.run(
      crypto.randomUUID(),
      `Sender ${i}`,
      `s${i}@example.com`,
      `Subject ${i}`,
      `Message body ${i} `.repeat(20),
      i % 3 === 0 ? 0 : 1,
      i % 50 === 0 ? 1 : 0,
      now - i * 1000,
    )
  }
})()
db.$client.exec('ANALYZE')

const time = async (n: number, fn: () => unknown) => {
  const started = performance.now()
  for (let i = 0; i < n; i++) await fn()
  return (performance.now() - started) / n
}
const ms = (x: number) => `${x.toFixed(2)} ms`

console.log(`users: ${USERS}, messages: ${messages}`)
console.log(`users list (${USERS} rows): ${ms(await time(20, () => listUsers(db)))}`)
const bulkStarted = performance.now()
const result = await bulkAddFolder(db, { userIds: ids.slice(0, 1000), label: 'Shared', path: '/music/shared' })
console.log(`bulk add to 1,000 users: ${ms(performance.now() - bulkStarted)} (${result.successful.length} ok, ${result.failed.length} failed)`)
const repeatStarted = performance.now()
await bulkAddFolder(db, { userIds: ids.slice(0, 1000), label: 'Shared', path: '/music/shared' })
console.log(`bulk add repeated (all already there): ${ms(performance.now() - repeatStarted)}`)
for (const filter of ['all', 'unread', 'important'] as const) {
  const first = await listMessages(db, { filter, limit: 50 })
  let cursor = first.nextCursor
  for (let i = 0; i < 20 && cursor; i++) cursor = (await listMessages(db, { filter, limit: 50, cursor })).nextCursor
  console.log(
    `inbox ${filter}: first page ${ms(await time(50, () => listMessages(db, { filter, limit: 50 })))}, page 21 ${ms(await time(50, () => listMessages(db, { filter, limit: 50, cursor })))} (counts ${JSON.stringify(first.counts)})`,
  )
}
db.$client.close()
rmSync(dir, { recursive: true, force: true })
