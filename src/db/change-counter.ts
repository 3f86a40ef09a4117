// A number that changes whenever a write to the database commits: ours, another connection's or
// another process's (the CLI, sqlite3 by hand). Read without running a statement, so hot reads can
// reuse what they computed while the database is unchanged (decision 042): in the server a
// statement costs 10–25 µs, mostly its file locks and cold code, not its work.
//
// It is the `iChange` field of the WAL-index header, which SQLite documents as "incremented with
// each transaction" (https://sqlite.org/walformat.html, §2.1): a word near the start of the
// `-shm` file, read here with one pread (under 1 µs). Every commit bumps it before its data is
// visible to any reader, so a value read *before* a query can only be older than what the query
// saw: a cache keyed by it may refresh too often, never too rarely.
//
// The file stays open as long as the process: closing any descriptor of a file drops every POSIX
// lock the process holds on it, SQLite's own included (a mapping that closed its descriptor did
// exactly that: another process then rebuilt the index under the server's feet). Not in WAL mode,
// or in memory, the counter is UNKNOWN and nothing is reused.
import { openSync, readSync } from 'node:fs'
import type { Db } from './client'
import { preparedFor } from './prepared'

export const UNKNOWN = -1
const I_CHANGE_OFFSET = 8

export const changeCounter = preparedFor((db): (() => number) => {
  const file = db.$client.filename
  const walMode = (db.$client.query('PRAGMA journal_mode').get() as { journal_mode: string } | null)?.journal_mode === 'wal'
  if (!walMode || !file || file === ':memory:') return () => UNKNOWN
  const shm = openSync(`${file}-shm`, 'r')
  const word = new Uint32Array(1)
  return () => (readSync(shm, word, 0, 4, I_CHANGE_OFFSET) === 4 ? word[0] : UNKNOWN)
})

/** Values loaded from the database per key, each reused until the next committed write. Bounded: starts over when full. */
export function reusedWhileUnchanged<V>(db: Db, maxKeys = 1024) {
  const counter = changeCounter(db)
  const entries = new Map<string, { change: number; value: V }>()
  return (key: string, load: () => V): V => {
    // Inside a transaction this connection sees its own writes before they commit and move the
    // counter, and they may yet roll back: such a read is neither answered from nor kept.
    if (db.$client.inTransaction) return load()
    // Read before loading: a write that lands meanwhile leaves the entry older than its counter.
    const change = counter()
    const known = entries.get(key)
    if (known !== undefined && known.change === change && change !== UNKNOWN) return known.value
    const value = load()
    if (entries.size >= maxKeys) entries.clear()
    entries.set(key, { change, value })
    return value
  }
}
