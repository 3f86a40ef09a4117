// The CSP-safe zod setting is made without importing zod (src/shared/zod-config.ts): this checks
// that zod reads it, whichever of the two modules loads first, so a zod upgrade that moves its
// settings fails here instead of as CSP violations in the browser.
import { expect, test } from 'bun:test'
import '~/shared/zod-config'
import { z } from 'zod'

test('zod sees jitless set by src/shared/zod-config.ts', () => {
  expect(z.config().jitless).toBe(true)
})

test('an object schema parses without compiling code (no new Function)', () => {
  const original = globalThis.Function
  let compiled = 0
  globalThis.Function = new Proxy(original, {
    construct(target, args) {
      compiled++
      return Reflect.construct(target, args)
    },
  })
  try {
    const schema = z.object({ a: z.string(), b: z.number() })
    for (let i = 0; i < 3; i++) expect(schema.parse({ a: 'x', b: i })).toEqual({ a: 'x', b: i })
  } finally {
    globalThis.Function = original
  }
  expect(compiled).toBe(0)
})
