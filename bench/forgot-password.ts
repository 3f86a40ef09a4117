// Does forgot-password's answer time tell whether an account exists? Times the real built server
// answering alternating known and unknown e-mails (outbox mail, then a real SMTP server on
// loopback) and prints the medians and 95th percentiles of each, and the gap between them.
// Run: bun bench/forgot-password.ts [rounds]   (default 300 of each)
import { api, createMember } from '../tests/helpers/api'
import { startServer } from '../tests/helpers/server'
import { startSmtp } from '../tests/helpers/smtp'

const rounds = Number(process.argv[2]) || 300

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
const fmt = (ms: number) => `${ms.toFixed(2)} ms`

async function measure(label: string, env: Record<string, string>, mailsArrived?: () => number) {
  const server = await startServer(env)
  try {
    const m = await createMember(server.url)
    const times = { known: [] as number[], unknown: [] as number[] }
    for (let i = 0; i < rounds + 20; i++) {
      // Either order, so neither kind always follows the other's leftover work.
      for (const kind of i % 2 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
        const email = kind === 'known' ? m.email : `nobody-${i}@example.com`
        const started = performance.now()
        const res = await api(server.url, 'POST', '/auth/forgot-password', { body: { email } })
        const ms = performance.now() - started
        if (res.status !== 200) throw new Error(`forgot-password answered ${res.status}`)
        if (i >= 20) times[kind].push(ms) // the first rounds warm up the JIT and the mail transport
      }
    }
    const known = times.known.sort((a, b) => a - b)
    const unknown = times.unknown.sort((a, b) => a - b)
    console.log(
      `${label.padEnd(8)} known: median ${fmt(pct(known, 50))}, p95 ${fmt(pct(known, 95))} | unknown: median ${fmt(pct(unknown, 50))}, p95 ${fmt(pct(unknown, 95))} | median gap ${fmt(pct(known, 50) - pct(unknown, 50))}`,
    )
    // Let the last mails leave before the server stops (a cut SMTP session only adds noise).
    while (mailsArrived && mailsArrived() < rounds + 20) await Bun.sleep(50)
  } finally {
    await server.stop()
  }
}

console.log(`forgot-password, ${rounds} requests of each kind, one at a time`)
await measure('outbox', {})
const smtp = await startSmtp()
await measure('smtp', { SMTP_URL: smtp.url }, () => smtp.messages.length)
await smtp.close()
