// Without SMTP_URL every mail is a file in DATA_DIR/outbox/: one file per mail however many are
// sent in the same millisecond (600 mails once made 549 files), readable by the owner only.
import { expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

// The config module reads the environment when loaded; keep its DATA_DIR out of the checkout.
process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vibes-mailer-'))
delete process.env.SMTP_URL
process.env.LOG_LEVEL = 'silent'
const { config } = await import('~/server/config')
const { sendMail } = await import('~/server/mail/mailer')

test('600 mails sent at once make 600 private outbox files, each with its own body', async () => {
  const to = `burst-${crypto.randomUUID()}@example.com`
  const outbox = path.join(config.DATA_DIR, 'outbox')
  const mine = () => readdirSync(outbox).filter((name) => name.includes(to))
  await Promise.all(Array.from({ length: 600 }, (_, i) => sendMail({ to, subject: `Mail ${i}`, text: `body number ${i}` })))

  const files = mine()
  expect(files).toHaveLength(600)
  expect(statSync(outbox).mode & 0o777).toBe(0o700)
  const subjects = new Set<string>()
  for (const name of files) {
    const file = path.join(outbox, name)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    subjects.add(/^Subject: (.*)$/m.exec(readFileSync(file, 'utf8'))![1])
  }
  expect(subjects.size).toBe(600)
})
