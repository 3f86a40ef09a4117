// The keyset cursor: what a page hands out comes back as the same key, and anything else (other
// shapes, other types, not base64url, not JSON) is refused before it can reach SQL.
import { describe, expect, test } from 'bun:test'
import { decodeCursor, encodeCursor } from '~/server/library/page-cursor'

describe('page cursor', () => {
  test('round-trips a key of the expected shape, unicode and nulls included', () => {
    const key = ['björk – homogenic', 'abc123', null, 42]
    expect(decodeCursor(encodeCursor(key), ['text', 'text', 'int?', 'int'])).toEqual(key)
  })

  test('refuses keys of another shape or type, and strings that are not cursors', () => {
    expect(decodeCursor(encodeCursor(['a', 'b']), ['int', 'int'])).toBeNull()
    expect(decodeCursor(encodeCursor(['a']), ['text', 'text'])).toBeNull()
    expect(decodeCursor(encodeCursor([null, 1]), ['int', 'int'])).toBeNull()
    expect(decodeCursor(encodeCursor([1.5, 1]), ['int', 'int'])).toBeNull()
    expect(decodeCursor(encodeCursor({ a: 1 } as never), ['int'])).toBeNull()
    for (const junk of ['', '!!', 'a b', Buffer.from('not json').toString('base64url')]) expect(decodeCursor(junk, ['text'])).toBeNull()
  })
})
