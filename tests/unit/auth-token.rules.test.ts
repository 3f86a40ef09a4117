import { describe, expect, test } from 'bun:test'
import { cleanToken, isWellFormedToken, readToken } from '~/shared/auth-token'
import { displayName } from '~/shared/display-name'

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
const make = (payload: object) => `${b64({ alg: 'HS256' })}.${b64(payload)}.c2lnbmF0dXJl`

describe('stored token', () => {
  test('cleaning strips quotes and whitespace, and padding only at start-up', () => {
    expect(cleanToken('  "abc.def.ghi"  ')).toBe('abc.def.ghi')
    expect(cleanToken("'abc.def.ghi=='", true)).toBe('abc.def.ghi')
    expect(cleanToken('abc.def.ghi==')).toBe('abc.def.ghi==')
  })

  test('needs three base64url parts', () => {
    expect(isWellFormedToken('a.b.c')).toBe(true)
    expect(isWellFormedToken('a-_.B9.c')).toBe(true)
    expect(isWellFormedToken('a.b')).toBe(false)
    expect(isWellFormedToken('a.b.c.d')).toBe(false)
    expect(isWellFormedToken('a.b+.c')).toBe(false)
    expect(isWellFormedToken('a..c')).toBe(false)
  })

  test('reads an unexpired payload and refuses an expired one', () => {
    const exp = Math.floor(Date.now() / 1000) + 3600
    expect(readToken(make({ userId: 'u1', email: 'a@b.co', isAdmin: true, exp }))).toEqual({
      userId: 'u1',
      email: 'a@b.co',
      isAdmin: true,
      exp,
      sid: undefined,
    })
    expect(readToken(make({ userId: 'u1', email: 'a@b.co', isAdmin: false, exp: Math.floor(Date.now() / 1000) - 1 }))).toBeNull()
    expect(readToken(make({ email: 'a@b.co', exp }))).toBeNull()
    expect(readToken('not.a.token')).toBeNull()
  })
})

describe('display name', () => {
  test('local part, dots and underscores as spaces, words capitalised', () => {
    expect(displayName('john.doe@example.com')).toBe('John Doe')
    expect(displayName('mary_ann.smith@x.io')).toBe('Mary Ann Smith')
    expect(displayName('dj@x.io')).toBe('Dj')
  })
})
