// API performance in memory: one sample per /api request over the last 15 minutes, enough for
// the admin panel's average and p95 latency, error rate and requests per minute. On globalThis
// because the server entry records and the app bundle reads (each has its own module copy).
const WINDOW_MS = 15 * 60_000
type Sample = { at: number; ms: number; error: boolean }
const shared = globalThis as typeof globalThis & { __vibesApiSamples?: Sample[] }
const samples: Sample[] = (shared.__vibesApiSamples ??= [])

export function recordRequest(ms: number, status: number, at = Date.now()) {
  samples.push({ at, ms, error: status >= 500 })
  while (samples.length && samples[0].at < at - WINDOW_MS) samples.shift()
  if (samples.length > 100_000) samples.splice(0, samples.length - 100_000)
}

export function apiMetrics(now = Date.now()) {
  const recent = samples.filter((s) => s.at >= now - WINDOW_MS)
  const sorted = recent.map((s) => s.ms).sort((a, b) => a - b)
  const avg = sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : 0
  const p95 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] : 0
  const lastMinute = recent.filter((s) => s.at >= now - 60_000).length
  return {
    apiLatency: { avg: Math.round(avg * 10) / 10, p95: Math.round(p95 * 10) / 10 },
    errorRate: recent.length ? recent.filter((s) => s.error).length / recent.length : 0,
    requestsPerMinute: lastMinute,
    timestamp: new Date(now).toISOString(),
  }
}
