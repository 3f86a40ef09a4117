// The database change counter (src/db/change-counter.ts) on a real SQLite file: every committed
// write moves it — this connection's, another connection's, another process's — and a value
// reused while it stands is loaded again after any of them. Signed-in requests and folder lists
// rely on this to see a logout or a change made by hand at the very next request.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Database } from 'bun:sqlite'
import { changeCounter, reusedWhileUnchanged, UNKNOWN } from '~/db/change-counter'
import { openDb } from '~/db/client'

const migrations = path.resolve('src/db/migrations')
const dir = mkdtempSync(path.join(tmpdir(), 'vibes-change-counter-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A migrated database file of its own with a scratch table holding `rows`. */
function scratchDb(name: string, columns: string, rows?: string) {
  const db = openDb(path.join(dir, name), migrations)
  db.$client.exec(`CREATE TABLE scratch (${columns})`)
  if (rows) db.$client.exec(`INSERT INTO scratch VALUES ${rows}`)
  return db
}

describe('change counter', () => {
  test('moves with each committed write, whoever makes it, and stands still otherwise', () => {
    const db = scratchDb('counter.db', 'x INTEGER')
    const file = db.$client.filename
    const counter = changeCounter(db)
    const moves = (write: () => void) => {
      const before = counter()
      write()
      return counter() !== before
    }
    expect(counter()).not.toBe(UNKNOWN)
    expect(moves(() => db.$client.query('SELECT count(*) FROM scratch').get())).toBe(false)
    expect(moves(() => db.$client.exec('INSERT INTO scratch VALUES (1)'))).toBe(true)
    const other = new Database(file)
    expect(moves(() => other.exec('INSERT INTO scratch VALUES (2)'))).toBe(true)
    expect(moves(() => other.exec('DELETE FROM scratch WHERE x = 99'))).toBe(false)
    // Each of several writes by another process counts (the counter is no reset a first write could pass for).
    const byHand = `const { Database } = require('bun:sqlite'); new Database(${JSON.stringify(file)}).exec('UPDATE scratch SET x = x + 1')`
    for (let i = 0; i < 3; i++) expect(moves(() => expect(Bun.spawnSync(['bun', '-e', byHand]).exitCode).toBe(0))).toBe(true)
    // A checkpoint that resets the log is no write of data, and the next write still counts.
    db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    expect(moves(() => other.exec('INSERT INTO scratch VALUES (4)'))).toBe(true)
    other.close()
    db.$client.close()
  })

  test('a reused value is loaded again after any write, and per key', () => {
    const db = scratchDb('reuse.db', 'k TEXT, x INTEGER', "('a', 1), ('b', 2)")
    let loads = 0
    const reuse = reusedWhileUnchanged<number>(db)
    const read = (k: string) =>
      reuse(k, () => {
        loads++
        return (db.$client.query('SELECT x FROM scratch WHERE k = ?').get(k) as { x: number }).x
      })
    expect([read('a'), read('a'), read('b'), read('b')]).toEqual([1, 1, 2, 2])
    expect(loads).toBe(2)
    const other = new Database(db.$client.filename)
    other.exec("UPDATE scratch SET x = 10 WHERE k = 'a'")
    expect(read('a')).toBe(10)
    db.$client.exec("UPDATE scratch SET x = 20 WHERE k = 'b'")
    expect(read('b')).toBe(20)
    expect(loads).toBe(4)
    other.close()
    db.$client.close()
  })

  test('inside a transaction a read sees its own uncommitted writes, and keeps nothing a rollback undoes', () => {
    const db = scratchDb('transaction.db', 'x INTEGER', '(1)')
    const reuse = reusedWhileUnchanged<number>(db)
    const read = () => reuse('x', () => (db.$client.query('SELECT x FROM scratch').get() as { x: number }).x)
    expect(read()).toBe(1)
    // What a folder reorder does: write, then read the new order, in one transaction.
    const inside = db.$client.transaction(() => {
      db.$client.exec('UPDATE scratch SET x = 2')
      return read()
    })()
    expect(inside).toBe(2)
    expect(read()).toBe(2)
    expect(() =>
      db.$client.transaction(() => {
        db.$client.exec('UPDATE scratch SET x = 3')
        expect(read()).toBe(3)
        throw new Error('roll back')
      })(),
    ).toThrow('roll back')
    expect(read()).toBe(2)
    db.$client.close()
  })

  test('a database in memory has no counter: nothing is reused', () => {
    const db = openDb(':memory:', migrations)
    let loads = 0
    const reuse = reusedWhileUnchanged<number>(db)
    reuse('a', () => ++loads)
    reuse('a', () => ++loads)
    expect(loads).toBe(2)
  })
})
