// Outgoing mail: SMTP through nodemailer when SMTP_URL is set, otherwise an .eml file in
// DATA_DIR/outbox/ plus a log line, so a box without a mail server still gets its reset links.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import nodemailer, { type Transporter } from 'nodemailer'
import { config } from '../config'
import { logger } from '../logger'

export type Mail = { to: string; subject: string; text: string; html?: string }

let transport: Transporter | undefined

export async function sendMail(mail: Mail): Promise<void> {
  if (config.SMTP_URL) {
    transport ??= nodemailer.createTransport(config.SMTP_URL)
    await transport.sendMail({ from: config.MAIL_FROM, ...mail })
    logger.info({ to: mail.to, subject: mail.subject }, 'mail sent')
    return
  }
  const outbox = path.join(config.DATA_DIR, 'outbox')
  mkdirSync(outbox, { recursive: true })
  const file = path.join(outbox, `${Date.now()}-${mail.to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`)
  const body = [`From: ${config.MAIL_FROM}`, `To: ${mail.to}`, `Subject: ${mail.subject}`, '', mail.text].join('\n')
  writeFileSync(file, body)
  logger.info({ to: mail.to, subject: mail.subject, file }, 'mail written to outbox (SMTP_URL unset)')
}
