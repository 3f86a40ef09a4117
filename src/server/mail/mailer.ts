// Outgoing mail: SMTP through nodemailer when SMTP_URL is set, otherwise an .eml file in
// DATA_DIR/outbox/ plus a log line, so a box without a mail server still gets its reset links.
// Outbox mails hold live reset links: owner-only files, one per mail, never overwritten.
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Transporter } from 'nodemailer'
import { config } from '../config'
import { logger } from '../logger'

export type Mail = { to: string; subject: string; text: string; html?: string }

let transport: Transporter | undefined
let outboxChecked = false
let sequence = 0

/** Time first so `ls` lists mails in order; the sequence and random part keep names unique within a millisecond and across processes. */
function outboxName(to: string): string {
  sequence = (sequence + 1) % 1_000_000
  return `${Date.now()}-${String(sequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}-${to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`
}

export async function sendMail(mail: Mail): Promise<void> {
  if (config.SMTP_URL) {
    // Imported on first use: nodemailer adds about 20 MB to a server that may never send mail.
    transport ??= (await import('nodemailer')).default.createTransport(config.SMTP_URL)
    await transport.sendMail({ from: config.MAIL_FROM, ...mail })
    logger.info({ to: mail.to, subject: mail.subject }, 'mail sent')
    return
  }
  const outbox = path.join(config.DATA_DIR, 'outbox')
  mkdirSync(outbox, { recursive: true, mode: 0o700 })
  if (!outboxChecked) {
    chmodSync(outbox, 0o700) // an outbox made by an older version may be world-readable
    outboxChecked = true
  }
  const file = path.join(outbox, outboxName(mail.to))
  const body = [`From: ${config.MAIL_FROM}`, `To: ${mail.to}`, `Subject: ${mail.subject}`, '', mail.text].join('\n')
  writeFileSync(file, body, { mode: 0o600, flag: 'wx' })
  logger.info({ to: mail.to, subject: mail.subject, file }, 'mail written to outbox (SMTP_URL unset)')
}
