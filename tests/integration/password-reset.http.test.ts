// Password reset tokens against the real server and a real (slow) SMTP server: one live token per
// account (and reset tokens never reach the logs), and a forgot-password answer that neither waits on the
// mail server nor tells whether the account exists.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'
import { startSmtp } from '../helpers/smtp'

// The mail server takes this long to greet, so any request that waits for it shows.
const SMTP_DELAY_MS = 2_000
const INVALID = 'Invalid or expired password reset token'

let server: TestServer
let smtp: Awaited<ReturnType<typeof startSmtp>>

beforeAll(async () => {
  smtp = await startSmtp({ delayMs: SMTP_DELAY_MS })
  server = await startServer({ SMTP_URL: smtp.url, APP_URL: 'http://vibes.test' })
})
afterAll(async () => {
  await server.stop()
  await smtp.close()
})

/** The reset tokens mailed to `to`, oldest first, once `count` of them have arrived. */
async function tokensMailedTo(to: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const mails = smtp.messages.filter((m) => m.to.includes(to))
    if (mails.length >= count) {
      return mails.map((m) => {
        const link = /http:\/\/vibes\.test\/reset-password\/([a-z0-9]+)/.exec(m.raw.replace(/=\r?\n/g, ''))
        if (!link) throw new Error(`no reset link in:\n${m.raw}`)
        return link[1]
      })
    }
    if (Date.now() > deadline) throw new Error(`${mails.length} of ${count} mails arrived for ${to}`)
    await Bun.sleep(100)
  }
}

const forgot = (email: string) => api(server.url, 'POST', '/auth/forgot-password', { body: { email } })
const reset = (token: string, password: string) => api(server.url, 'POST', `/auth/reset-password/${token}`, { body: { password } })
const login = (email: string, password: string) => api(server.url, 'POST', '/auth/login', { body: { email, password } })

/** A token the database holds for `userId` without any mail: a second live token, as old code left. */
async function seedToken(userId: string): Promise<string> {
  const token = `seeded${crypto.randomUUID().replaceAll('-', '')}`
  const id = new Bun.CryptoHasher('sha256').update(token).digest('hex')
  await sqlOn(server, 'INSERT INTO password_reset_tokens (id, user_id, expires_at) VALUES (?, ?, ?)', [id, userId, Date.now() + 3_600_000])
  return token
}

describe('forgot-password', () => {
  test('answers at once and alike for known and unknown e-mails; the known one still gets its mail', async () => {
    const m = await createMember(server.url)
    const unknown = await forgot(`ghost-${Date.now()}@example.com`)
    const started = performance.now()
    const known = await forgot(m.email)
    const ms = performance.now() - started
    expect(unknown.status).toBe(200)
    expect(known.status).toBe(200)
    expect(known.body).toEqual(unknown.body)
    // Structural, not a stopwatch: the mail server needs 2 s to answer, the reply does not wait for it.
    expect(ms).toBeLessThan(SMTP_DELAY_MS / 2)
    const [token] = await tokensMailedTo(m.email, 1)
    expect((await reset(token, 'fresh-password')).status).toBe(200)
  })
})

describe('one live reset token per account', () => {
  test('a newer request ends the older token', async () => {
    const m = await createMember(server.url)
    await forgot(m.email)
    const [older] = await tokensMailedTo(m.email, 1)
    await forgot(m.email)
    const [, newer] = await tokensMailedTo(m.email, 2)
    expect(await reset(older, 'older-link-pass')).toMatchObject({ status: 400, body: { success: false, error: INVALID } })
    expect((await reset(newer, 'newer-link-pass')).status).toBe(200)
    expect((await login(m.email, 'newer-link-pass')).status).toBe(200)
  })

  test("a successful reset ends every other token of that user, and nobody else's", async () => {
    const m = await createMember(server.url)
    const other = await createMember(server.url)
    await forgot(m.email)
    const [mailed] = await tokensMailedTo(m.email, 1)
    const alsoLive = await seedToken(m.user.id)
    const othersToken = await seedToken(other.user.id)

    expect((await reset(mailed, 'after-reset-pass')).status).toBe(200)
    expect(await reset(alsoLive, 'sneaky-pass-123')).toMatchObject({ status: 400, body: { error: INVALID } })
    expect((await login(m.email, 'after-reset-pass')).status).toBe(200)
    expect((await reset(othersToken, 'others-new-pass')).status).toBe(200)
    expect((await login(other.email, 'others-new-pass')).status).toBe(200)
  })
})

describe('a reset ends what a thief may hold', () => {
  test('every session and every app key of the account stop working', async () => {
    const m = await createMember(server.url)
    const made = await api(server.url, 'POST', '/user/app-keys', { token: m.token, body: { name: 'DSub', currentPassword: m.password } })
    expect(made.status).toBe(201)
    const ping = async () => (await (await fetch(`${server.url}/rest/ping.view?apiKey=${made.body.data.key}&c=t&v=1.16.1&f=json`)).json())['subsonic-response']
    expect((await ping()).status).toBe('ok')

    await forgot(m.email)
    const [mailed] = await tokensMailedTo(m.email, 1)
    expect((await reset(mailed, 'after-reset-keys')).status).toBe(200)
    expect((await api(server.url, 'GET', '/auth/session', { token: m.token })).status).toBe(401)
    expect((await ping()).error.code).toBe(44)
  })
})
