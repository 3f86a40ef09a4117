// API performance in memory: one sample per /api request over the last 15 minutes, enough for
// the admin panel's average and p95 latency, error rate and requests per minute. Samples go into
// a fixed ring (the newest CAPACITY requests), so recording is O(1) and memory is constant; the
// admin's read filters by time and sorts.
const WINDOW_MS = 15 * 60_000
const CAPACITY = 100_000

type Ring = { at: Float64Array; ms: Float32Array; error: Uint8Array; next: number; size: number }
const ring: Ring = {
  at: new Float64Array(CAPACITY),
  ms: new Float32Array(CAPACITY),
  error: new Uint8Array(CAPACITY),
  next: 0,
  size: 0,
}

export function recordRequest(ms: number, status: number, at = Date.now()) {
  const i = ring.next
  ring.at[i] = at
  ring.ms[i] = ms
  ring.error[i] = status >= 500 ? 1 : 0
  ring.next = (i + 1) % CAPACITY
  if (ring.size < CAPACITY) ring.size++
}

export function apiMetrics(now = Date.now()) {
  const recent: number[] = []
  let errors = 0
  let lastMinute = 0
  for (let k = 0; k < ring.size; k++) {
    const at = ring.at[k]
    if (at < now - WINDOW_MS) continue
    recent.push(ring.ms[k])
    errors += ring.error[k]
    if (at >= now - 60_000) lastMinute++
  }
  const sorted = recent.sort((a, b) => a - b)
  const avg = sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : 0
  const p95 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] : 0
  return {
    apiLatency: { avg: Math.round(avg * 10) / 10, p95: Math.round(p95 * 10) / 10 },
    errorRate: recent.length ? errors / recent.length : 0,
    requestsPerMinute: lastMinute,
    timestamp: new Date(now).toISOString(),
  }
}
