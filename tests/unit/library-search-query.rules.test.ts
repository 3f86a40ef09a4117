// Search input → FTS5 query (src/server/library/search.ts): only quoted word prefixes, and
// no input at all makes SQLite's FTS5 parser fail (which would be a 5xx) — checked against the
// real migrated schema.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import path from 'node:path'
import { openDb } from '~/db/client'
import { ftsQuery, LIBRARY_LIMITS } from '~/server/library/search'

describe('ftsQuery', () => {
  test('words become quoted prefixes, everything else is dropped', () => {
    expect(ftsQuery('Björk hom')).toBe('"Björk"* "hom"*')
    expect(ftsQuery('AC/DC')).toBe('"AC"* "DC"*')
    expect(ftsQuery('title:foo OR "bar" NEAR(x) -y ^z')).toBe('"title"* "foo"* "OR"* "bar"* "NEAR"* "x"* "y"* "z"*')
    expect(ftsQuery('  ')).toBeNull()
    expect(ftsQuery('"*()^:-')).toBeNull()
    expect(ftsQuery('a b c d e f g h i j')!.split(' ')).toHaveLength(LIBRARY_LIMITS.wordsPerSearch)
  })

  test('no input makes FTS5 throw', () => {
    const db = openDb(':memory:', path.resolve('src/db/migrations'))
    const stmt = db.$client.query('SELECT rowid FROM library_tracks_fts WHERE library_tracks_fts MATCH ? LIMIT 1')
    const hostile = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.string({ unit: fc.constantFrom('"', '*', '(', ')', ':', '^', '-', '+', 'NEAR', 'AND', 'OR', 'NOT', ' ', 'a', 'é', '\0', '{', '}'), maxLength: 40 }),
    )
    fc.assert(
      fc.property(hostile, (q) => {
        const match = ftsQuery(q)
        if (match !== null) stmt.all(match)
      }),
      { numRuns: 2000 },
    )
    db.$client.close()
  })
})
