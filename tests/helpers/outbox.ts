// Mail written to DATA_DIR/outbox (no SMTP_URL). Forgot-password writes it after answering, so
// tests wait for the file instead of reading the folder at once.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/** The text of the first mail in the outbox, waiting up to `timeoutMs` for it to appear. */
export async function waitForOutboxMail(dataDir: string, timeoutMs = 10_000): Promise<string> {
  const outbox = path.join(dataDir, 'outbox')
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const file = existsSync(outbox) ? readdirSync(outbox, { withFileTypes: true }).find((f) => f.isFile()) : undefined
    if (file) return readFileSync(path.join(outbox, file.name), 'utf8')
    await Bun.sleep(50)
  }
  throw new Error(`no mail in ${outbox} after ${timeoutMs} ms`)
}
