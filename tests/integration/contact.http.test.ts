// POST /api/contact over real HTTP against the built server; rows checked in its database (either engine).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { api } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

const countIn = async (on: TestServer) => (await sqlOn<{ n: number }>(on, 'SELECT count(*) AS n FROM contact_messages'))[0].n
const rowOf = async (columns: string, id: string) => (await sqlOn(server, `SELECT ${columns} FROM contact_messages WHERE id = ?`, [id]))[0]
const valid = { fullName: 'Ada Lovelace', email: 'Ada@Example.com', message: 'Love the player. Could it show lyrics one day?' }

describe('POST /api/contact', () => {
  test('stores the message for the admin inbox (201) with a derived subject, unread and not important', async () => {
    const before = await countIn(server)
    const res = await api(server.url, 'POST', '/contact', { body: valid })
    expect(res.status).toBe(201)
    expect(res.body.success).toBe(true)
    const id: string = res.body.data.id
    expect(res.body.data.subject).toBe('Love the player.')
    expect(await countIn(server)).toBe(before + 1)
    const row = await rowOf(
      'name, email, subject, message, CASE WHEN read THEN 1 ELSE 0 END AS read, CASE WHEN important THEN 1 ELSE 0 END AS important, created_at',
      id,
    )
    expect(row).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', subject: 'Love the player.', message: valid.message, read: 0, important: 0 })
    expect(Math.abs(Number(row.created_at) - Date.now())).toBeLessThan(60_000)
  })

  test('a long first sentence becomes a trimmed subject with an ellipsis', async () => {
    const message = 'When I open a remote folder from my NAS on the phone the list stays empty, but the laptop shows all tracks\nThanks!'
    const res = await api(server.url, 'POST', '/contact', { body: { ...valid, message } })
    expect(res.status).toBe(201)
    const row = (await rowOf('subject, message', res.body.data.id)) as { subject: string; message: string }
    expect(row.subject).toBe('When I open a remote folder from my NAS on the phone the…')
    expect(row.message).toBe(message)
  })

  test('markup, emoji and right-to-left text are stored exactly as sent; lengths count characters, not UTF-16 units', async () => {
    const markup = '<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes" \'single\''
    const cases = [
      { fullName: '<b>Bold</b> Name', email: 'xss@example.com', message: markup },
      { fullName: 'محمد علي', email: 'rtl@example.com', message: 'مرحبا! أحب هذا التطبيق كثيرا.\nشكرا' },
      { fullName: '🎸🎵', email: 'emoji@example.com', message: '🎵'.repeat(500) },
      { fullName: 'Zoë Ångström-Ñúñez', email: 'accents@example.com', message: '👨‍👩‍👧 family listening night, 10/10' },
    ]
    for (const body of cases) {
      const res = await api(server.url, 'POST', '/contact', { body })
      expect(res.status).toBe(201)
      const row = await rowOf('name, email, message', res.body.data.id)
      expect(row).toEqual({ name: body.fullName, email: body.email, message: body.message })
      expect(res.body.data.subject.isWellFormed()).toBe(true)
    }
  })

  test('a name is one line and a message loses control characters but keeps its line breaks', async () => {
    const res = await api(server.url, 'POST', '/contact', {
      body: { fullName: 'Eve\r\nBcc: all@example.com\u0007', email: 'eve@example.com', message: 'Line one\r\nLine two\u0007\u001b[31m red\tend' },
    })
    expect(res.status).toBe(201)
    const row = await rowOf('name, message', res.body.data.id)
    expect(row).toEqual({ name: 'Eve Bcc: all@example.com', message: 'Line one\nLine two[31m red\tend' })
  })

  test('empty, short, over-long and malformed fields are a 400 with the field message; nothing is stored', async () => {
    const before = await countIn(server)
    const cases: Array<[unknown, string]> = [
      [{ ...valid, fullName: '' }, 'Name is required'],
      [{ ...valid, fullName: '   ' }, 'Name is required'],
      [{ ...valid, fullName: 'A' }, 'Name must be at least 2 characters'],
      [{ ...valid, fullName: 'x'.repeat(51) }, 'Name must be less than 50 characters'],
      [{ ...valid, email: '' }, 'Email is required'],
      [{ ...valid, email: 'not-an-email' }, 'Please enter a valid email address'],
      [{ ...valid, message: '' }, 'Message is required'],
      [{ ...valid, message: 'too short' }, 'Message must be at least 10 characters'],
      [{ ...valid, message: 'x'.repeat(501) }, 'Message must be less than 500 characters'],
      [{ ...valid, message: 'x'.repeat(200_000) }, 'Message must be less than 500 characters'],
      [{ email: valid.email, message: valid.message }, 'Name is required'],
      [{ ...valid, fullName: 42 }, 'Name must be text'],
      [{ ...valid, fullName: null }, 'Name is required'],
      [{ ...valid, fullName: ['Ada', 'Lovelace'] }, 'Name must be text'],
      [{ ...valid, fullName: 'x'.repeat(10 * 1024) }, 'Name must be less than 50 characters'],
      [{ ...valid, fullName: '\n\t\u0007 ' }, 'Name is required'],
      // A NUL character is refused in any text input before any field rule (src/server/http/nul-text.ts).
      [{ ...valid, message: 'Hello\u0000 there, a long enough message' }, 'message: Text may not contain a NUL character'],
      [{ ...valid, fullName: '🎵' }, 'Name must be at least 2 characters'],
      [{ ...valid, message: '🎵'.repeat(501) }, 'Message must be less than 500 characters'],
      [{ ...valid, message: { text: 'an object, not text' } }, 'Message must be text'],
      [{ ...valid, email: 'x'.repeat(10 * 1024) + '@example.com' }, 'Email must be at most 254 characters'],
      [{ ...valid, email: ['a@example.com'] }, 'Email must be text'],
      [{ ...valid, subject: 'sneaky', read: true }, 'Unrecognized keys: "subject", "read"'],
    ]
    for (const [body, error] of cases) {
      const res = await api(server.url, 'POST', '/contact', { body })
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, error } })
    }
    expect((await api(server.url, 'POST', '/contact', { raw: '["x"]' })).status).toBe(400)
    expect((await api(server.url, 'POST', '/contact', { raw: '{"fullName":' })).status).toBe(400)
    expect((await api(server.url, 'POST', '/contact', { raw: 'null' })).status).toBe(400)
    expect((await api(server.url, 'POST', '/contact', { raw: '"a string"' })).status).toBe(400)
    expect((await api(server.url, 'POST', '/contact')).status).toBe(400)
    expect((await api(server.url, 'POST', '/contact', { raw: JSON.stringify({ ...valid, message: 'x'.repeat(2_000_000) }) })).status).toBe(413)
    expect(await countIn(server)).toBe(before)
  })

  test('the same procedure answers over tRPC', async () => {
    const res = await fetch(`${server.url}/api/trpc/contact.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { ...valid, message: 'Sent through tRPC, which the browser uses.' } }),
    })
    expect(res.status).toBe(200)
    const bad = await fetch(`${server.url}/api/trpc/contact.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { ...valid, message: 'short' } }),
    })
    expect(bad.status).toBe(400)
  })
})

describe('flood protection', () => {
  test('a client gets 5 messages per 10 minutes, then 429 with Retry-After; nothing more is stored', async () => {
    const limited = await startServer({ RATE_LIMIT: 'on' })
    try {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => api(limited.url, 'POST', '/contact', { body: { ...valid, message: `Message number ${i} for the inbox.` } })),
      )
      const statuses = answers.map((a) => a.status).sort()
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429])
      const refused = answers.find((a) => a.status === 429)!
      expect(refused.body).toEqual({ success: false, error: 'Rate limit exceeded. Please try again later.' })
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await countIn(limited)).toBe(5)
    } finally {
      await limited.stop()
    }
  })
})
