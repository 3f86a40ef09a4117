// The server's tRPC transformer reads what a superjson client writes and refuses every other
// metadata shape with one message, instead of overflowing the stack or quoting library source;
// an answer marked plain JSON goes out without superjson's walk and reads back the same.
import { describe, expect, test } from 'bun:test'
import superjson from 'superjson'
import { MALFORMED_INPUT, plainJson, transformer } from '~/server/trpc/transformer'

const wire = (value: unknown) => JSON.parse(JSON.stringify(superjson.serialize(value)))

describe('tRPC transformer', () => {
  test('reads back everything superjson writes', () => {
    const shared = { a: 1 }
    const values: unknown[] = [
      undefined,
      { x: 1 },
      new Date(0),
      { d: new Date(0), m: new Map([[new Date(0), new Set([1, undefined])]]), n: Number.NaN, b: 10n, r: /x/g, u: undefined },
      [new Date(0), { a: [new Set([new Date(0)])] }],
      { x: shared, y: shared },
      new Uint8Array([1, 2]),
    ]
    for (const value of values) expect(transformer.deserialize(wire(value))).toEqual(value)
  })

  test('refuses metadata superjson never writes, with one message', () => {
    const hostile = [
      // A string where a subtree belongs: superjson walks it until the stack overflows.
      { json: { a: 1 }, meta: { values: { a: 'Date' } } },
      { json: { a: 1 }, meta: { values: { '': ['custom', 'x'] } } },
      { json: 'abc', meta: { values: { a: ['class', 'Object'] } } },
      { json: { a: 1 }, meta: { values: 'Date' } },
      // Shapes that crash superjson with an engine TypeError.
      { json: { a: 1 }, meta: { referentialEqualities: ['a'] } },
      { json: null, meta: { values: {}, referentialEqualities: { read: ['x', '__proto__.polluted'] }, v: 2 } },
      { json: { a: 1 }, meta: { values: { '__proto__.polluted': ['number'] } } },
      { json: { a: 1 }, meta: { values: { a: [['class', 'Object']] } } },
      { json: { a: 1 }, meta: 'x' },
      { json: { a: 1 }, meta: { values: { a: ['Date'] }, extra: true } },
    ]
    for (const payload of hostile) expect(() => transformer.deserialize(payload)).toThrow(MALFORMED_INPUT)
  })

  test('an answer marked plain JSON is sent as it is, and a superjson client reads back the same value', () => {
    const answer = plainJson({
      id: 'p',
      entries: [{ id: 1, track: { url: '/media/a?exp=1&sig=x', replayGain: { trackGain: -3.5 } } }, { id: 2 }],
      public: false,
    })
    const sent = transformer.serialize(answer)
    expect(sent).toEqual({ json: answer })
    const read = superjson.deserialize(JSON.parse(JSON.stringify(sent)))
    expect(read).toEqual(answer)
    expect(superjson.deserialize(JSON.parse(JSON.stringify(sent)), { inPlace: true })).toEqual(answer)
  })

  test('an unmarked answer still goes through superjson, its Dates and Maps kept', () => {
    const value = { at: new Date(0), m: new Map([['a', 1]]) }
    const sent = transformer.serialize(value) as { json: unknown; meta?: unknown }
    expect(sent.meta).toBeDefined()
    expect(superjson.deserialize(JSON.parse(JSON.stringify(sent)), { inPlace: true })).toEqual(value)
  })
})
