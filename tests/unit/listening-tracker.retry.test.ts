import { describe, expect, test } from 'bun:test'
import { with429Retry } from '~/client/features/player/listening-tracker'

const rateLimited = () => Object.assign(new Error('Rate limit exceeded. Please try again later.'), { status: 429 })

describe('429 retry for listening events', () => {
  test('retries a rate-limited call 3 times in all, waiting 1 s then 2 s', async () => {
    const waits: number[] = []
    let calls = 0
    const result = await with429Retry(
      async () => {
        calls++
        if (calls < 3) throw rateLimited()
        return 'ok'
      },
      undefined,
      async (ms) => waits.push(ms),
    )
    expect(result).toBe('ok')
    expect(calls).toBe(3)
    expect(waits).toEqual([1000, 2000])
  })

  test('gives up after the third 429, and never retries other failures', async () => {
    let calls = 0
    const waits: number[] = []
    await expect(with429Retry(async () => (calls++, Promise.reject(rateLimited())), undefined, async (ms) => waits.push(ms))).rejects.toThrow('Rate limit exceeded')
    expect(calls).toBe(3)
    expect(waits).toEqual([1000, 2000])
    let other = 0
    await expect(with429Retry(async () => (other++, Promise.reject(Object.assign(new Error('bad'), { status: 400 }))), undefined, async () => {})).rejects.toThrow('bad')
    expect(other).toBe(1)
  })
})
