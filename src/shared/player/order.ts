// Play order: sequential or a shuffled order of indexes; next and previous
// follow the order and wrap. Which neighbour titles are shown depends on shuffle.

export type Rng = () => number

/** 0..n-1, or a Fisher–Yates shuffle of it. */
export function makeOrder(length: number, shuffled: boolean, rng: Rng = Math.random): number[] {
  const order = Array.from({ length }, (_, i) => i)
  if (!shuffled) return order
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1))
    ;[order[i], order[j]] = [order[j], order[i]]
  }
  return order
}

/** The index played after `current` (wrapping); the order's first when current is not in it. */
export function nextIndex(order: readonly number[], current: number): number {
  if (order.length === 0) return -1
  const pos = order.indexOf(current)
  return pos < 0 ? order[0] : order[(pos + 1) % order.length]
}

/** The index played before `current` (wrapping); the order's last when current is not in it. */
export function previousIndex(order: readonly number[], current: number): number {
  if (order.length === 0) return -1
  const pos = order.indexOf(current)
  return pos < 0 ? order[order.length - 1] : order[(pos - 1 + order.length) % order.length]
}

/**
 * The neighbours whose titles are shown. Shuffle off: previous only when index > 0, next only when
 * not on the last track. Shuffle on: both follow the shuffled order and wrap.
 */
export function visibleNeighbours(order: readonly number[], current: number, shuffled: boolean): { previous: number | null; next: number | null } {
  const n = order.length
  if (n === 0 || current < 0) return { previous: null, next: null }
  if (!shuffled) return { previous: current > 0 ? current - 1 : null, next: current < n - 1 ? current + 1 : null }
  if (n === 1) return { previous: null, next: null }
  return { previous: previousIndex(order, current), next: nextIndex(order, current) }
}
