import { describe, expect, test } from 'bun:test'
import { makeOrder, nextIndex, previousIndex, visibleNeighbours } from '~/shared/player/order'

// A deterministic generator for shuffle tests.
function seeded(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 2 ** 32
    return seed / 2 ** 32
  }
}

describe('play order', () => {
  test('sequential order is 0..n-1', () => {
    expect(makeOrder(4, false)).toEqual([0, 1, 2, 3])
    expect(makeOrder(0, false)).toEqual([])
  })

  test('shuffle is a permutation of every index, and differs from sequential for a long list', () => {
    const order = makeOrder(50, true, seeded(7))
    expect([...order].sort((a, b) => a - b)).toEqual(makeOrder(50, false))
    expect(order).not.toEqual(makeOrder(50, false))
    expect(makeOrder(50, true, seeded(7))).toEqual(order)
  })

  test('next and previous follow the order and wrap at both ends', () => {
    const seq = [0, 1, 2]
    expect(nextIndex(seq, 0)).toBe(1)
    expect(nextIndex(seq, 2)).toBe(0)
    expect(previousIndex(seq, 0)).toBe(2)
    expect(previousIndex(seq, 1)).toBe(0)
    const shuffled = [2, 0, 3, 1]
    expect(nextIndex(shuffled, 2)).toBe(0)
    expect(nextIndex(shuffled, 1)).toBe(2)
    expect(previousIndex(shuffled, 2)).toBe(1)
    expect(previousIndex(shuffled, 3)).toBe(0)
  })

  test('with nothing playing, next starts the order and previous ends it; an empty list has neither', () => {
    expect(nextIndex([3, 1, 2, 0], -1)).toBe(3)
    expect(previousIndex([3, 1, 2, 0], -1)).toBe(0)
    expect(nextIndex([], 0)).toBe(-1)
    expect(previousIndex([], 0)).toBe(-1)
  })

  test('shuffle off: Previous shows only after the first track, Next only before the last', () => {
    const seq = [0, 1, 2]
    expect(visibleNeighbours(seq, 0, false)).toEqual({ previous: null, next: 1 })
    expect(visibleNeighbours(seq, 1, false)).toEqual({ previous: 0, next: 2 })
    expect(visibleNeighbours(seq, 2, false)).toEqual({ previous: 1, next: null })
    expect(visibleNeighbours([0], 0, false)).toEqual({ previous: null, next: null })
  })

  test('shuffle on: both neighbours follow the shuffled order and wrap', () => {
    const order = [2, 0, 1]
    expect(visibleNeighbours(order, 2, true)).toEqual({ previous: 1, next: 0 })
    expect(visibleNeighbours(order, 1, true)).toEqual({ previous: 0, next: 2 })
    expect(visibleNeighbours([0], 0, true)).toEqual({ previous: null, next: null })
    expect(visibleNeighbours(order, -1, true)).toEqual({ previous: null, next: null })
  })
})
