// The admin users, folders and messages paths over real HTTP against the built server: who may
// call them, the 400s with their fixed messages, 404s, session revocation after a role change or a deletion, what a
// deletion removes and keeps (checked in the server's SQLite file), bulk add and the inbox.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { ADMIN, adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let admin: string
let adminId: string

beforeAll(async () => {
  server = await startServer(adminEnv)
  // The library folders these tests save: a folder whose path is not in the library is refused.
  for (const dir of ['One', 'Two', 'keep', 'jazz', 'cool', 'a', 'x', 'shared', 'radio'])
    mkdirSync(path.join(server.mediaRoot, 'music', dir), { recursive: true })
  admin = await loginAdmin(server.url)
  adminId = (await api(server.url, 'GET', '/auth/session', { token: admin })).body.data.user.id
})
afterAll(async () => {
  await server?.stop()
})

const call = (method: string, p: string, body?: unknown, token = admin) => api(server.url, method, p, { token, body })
const count = async (sql: string, ...args: string[]) => (await sqlOn<{ n: number }>(server, sql, args))[0].n
async function contact(message: string, fullName = 'Ada Lovelace', email = 'ada@example.com') {
  const res = await api(server.url, 'POST', '/contact', { body: { fullName, email, message } })
  expect(res.status).toBe(201)
  return res.body.data.id as string
}

describe('who may call the admin paths', () => {
  const paths: Array<[string, string, unknown?]> = [
    ['GET', '/admin/users'],
    ['DELETE', '/admin/users/some-id'],
    ['PATCH', '/admin/users/some-id/role', { isAdmin: true }],
    ['GET', '/admin/users/some-id/folders'],
    ['POST', '/admin/users/some-id/folders', { label: 'A', path: '/music' }],
    ['PATCH', '/admin/users/some-id/folders/f1', { label: 'A', path: '/music' }],
    ['DELETE', '/admin/users/some-id/folders/f1'],
    ['POST', '/admin/folders/bulk-add', { userIds: ['some-id'], label: 'A', path: '/music' }],
    ['GET', '/admin/messages'],
    ['GET', '/admin/messages?filter=unread'],
    ['GET', '/admin/messages/m1'],
    ['PATCH', '/admin/messages/m1', { read: true }],
    ['DELETE', '/admin/messages/m1'],
  ]

  test('401 without a token or with a bad one, 403 for a member, on every path', async () => {
    const member = await createMember(server.url)
    for (const [method, p, body] of paths) {
      expect({ p, ...(await api(server.url, method, p, { body })) }).toMatchObject({
        p,
        status: 401,
        body: { success: false, error: 'No authentication token found. Please log in again.' },
      })
      expect({ p, ...(await api(server.url, method, p, { body, token: 'a.b.c' })) }).toMatchObject({
        p,
        status: 401,
        body: { error: 'Authentication token is invalid or expired' },
      })
      expect({ p, ...(await api(server.url, method, p, { body, token: member.token })) }).toMatchObject({
        p,
        status: 403,
        body: { success: false, error: 'Admin access required' },
      })
    }
  })
})

describe('users', () => {
  test('lists every account newest first with id, username, email, isAdmin and createdAt, never a hash', async () => {
    const a = await createMember(server.url)
    const b = await createMember(server.url)
    const res = await call('GET', '/admin/users')
    expect(res.status).toBe(200)
    const list = res.body.data as Array<{ id: string; _id: string; username: string; email: string; isAdmin: boolean; createdAt: string }>
    expect(list.findIndex((u) => u.id === b.user.id)).toBeLessThan(list.findIndex((u) => u.id === a.user.id))
    expect(list.find((u) => u.id === a.user.id)).toEqual({
      _id: a.user.id,
      id: a.user.id,
      username: a.username,
      email: a.email,
      isAdmin: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
    expect(list.find((u) => u.email === ADMIN.email)?.isAdmin).toBe(true)
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i)
  })

  test('an admin cannot delete their own account nor change their own admin rights (400, with the fixed messages)', async () => {
    expect(await call('DELETE', `/admin/users/${adminId}`)).toMatchObject({
      status: 400,
      body: { success: false, error: 'You cannot delete your own account.' },
    })
    for (const isAdmin of [false, true]) {
      expect(await call('PATCH', `/admin/users/${adminId}/role`, { isAdmin })).toMatchObject({
        status: 400,
        body: { error: 'You cannot modify your own admin rights.' },
      })
    }
    expect((await call('GET', '/admin/users')).status).toBe(200)
  })

  test('unknown ids are 404; bad role bodies are 400 naming the field', async () => {
    expect(await call('DELETE', '/admin/users/no-such-user')).toMatchObject({ status: 404, body: { error: 'User not found' } })
    expect(await call('PATCH', '/admin/users/no-such-user/role', { isAdmin: true })).toMatchObject({ status: 404, body: { error: 'User not found' } })
    const m = await createMember(server.url)
    const cases: Array<[unknown, string]> = [
      [{ isAdmin: 'yes' }, 'isAdmin must be true or false'],
      [{}, 'isAdmin must be true or false'],
      [{ isAdmin: true, role: 'root' }, 'Unrecognized key: "role"'],
    ]
    for (const [body, error] of cases) expect(await call('PATCH', `/admin/users/${m.user.id}/role`, body)).toMatchObject({ status: 400, body: { error } })
    expect(await api(server.url, 'PATCH', `/admin/users/${m.user.id}/role`, { token: admin, raw: '[true]' })).toMatchObject({
      status: 400,
      body: { error: 'Request body must be a JSON object' },
    })
    expect(await call('GET', '/admin/users/x/role')).toMatchObject({ status: 405 })
  })

  test('granting admin ends the member’s sessions; the new login is an admin; revoking ends those sessions too', async () => {
    const m = await createMember(server.url)
    const promoted = await call('PATCH', `/admin/users/${m.user.id}/role`, { isAdmin: true })
    expect(promoted).toMatchObject({ status: 200, body: { success: true, data: { id: m.user.id, username: m.username, isAdmin: true } } })
    expect(await api(server.url, 'GET', '/auth/session', { token: m.token })).toMatchObject({
      status: 401,
      body: { error: 'Authentication token is invalid or expired' },
    })
    const login = await api(server.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password } })
    expect(login.body.data.user.isAdmin).toBe(true)
    const newToken: string = login.body.data.token
    expect((await call('GET', '/admin/users', undefined, newToken)).status).toBe(200)

    // Setting the flag it already has changes nothing and keeps the session.
    expect((await call('PATCH', `/admin/users/${m.user.id}/role`, { isAdmin: true })).status).toBe(200)
    expect((await api(server.url, 'GET', '/auth/session', { token: newToken })).status).toBe(200)

    const demoted = await call('PATCH', `/admin/users/${m.user.id}/role`, { isAdmin: false })
    expect(demoted.body.data.isAdmin).toBe(false)
    expect((await call('GET', '/admin/users', undefined, newToken)).status).toBe(401)
    const again = await api(server.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password } })
    expect(again.body.data.user.isAdmin).toBe(false)
    expect((await call('GET', '/admin/users', undefined, again.body.data.token)).status).toBe(403)
  })

  test('another admin cannot be deleted until their admin flag is revoked', async () => {
    const m = await createMember(server.url)
    await call('PATCH', `/admin/users/${m.user.id}/role`, { isAdmin: true })
    expect(await call('DELETE', `/admin/users/${m.user.id}`)).toMatchObject({
      status: 400,
      body: { error: 'You cannot delete an admin account. Revoke their admin rights first.' },
    })
    expect(await count('SELECT count(*) AS n FROM users WHERE id = ?', m.user.id)).toBe(1)
    await call('PATCH', `/admin/users/${m.user.id}/role`, { isAdmin: false })
    expect(await call('DELETE', `/admin/users/${m.user.id}`)).toMatchObject({ status: 200, body: { data: { id: m.user.id, deleted: true } } })
  })

  test('deleting a member removes their folders, sessions and likes; their play events stay with no user', async () => {
    const m = await createMember(server.url)
    const other = await createMember(server.url)
    for (const label of ['One', 'Two']) expect((await call('POST', '/user/folders', { label, path: `/music/${label}` }, m.token)).status).toBe(201)
    expect((await call('POST', '/user/folders', { label: 'Keep', path: '/music/keep' }, other.token)).status).toBe(201)
    expect((await call('PUT', '/playlist/likes', { title: 'Song', liked: true }, m.token)).status).toBe(200)
    const play = await call('POST', '/playlist/plays', { trackUrl: 'https://music.example/a.mp3', title: 'Song', duration: 100 }, m.token)
    expect(play.status).toBe(201)
    const second = await api(server.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password } })
    expect(await count('SELECT count(*) AS n FROM sessions WHERE user_id = ?', m.user.id)).toBe(2)

    const res = await call('DELETE', `/admin/users/${m.user.id}`)
    expect(res).toMatchObject({ status: 200, body: { success: true, data: { id: m.user.id, deleted: true } } })
    for (const token of [m.token, second.body.data.token]) expect((await api(server.url, 'GET', '/user/folders', { token })).status).toBe(401)
    expect(await count('SELECT count(*) AS n FROM users WHERE id = ?', m.user.id)).toBe(0)
    expect(await count('SELECT count(*) AS n FROM folders WHERE user_id = ?', m.user.id)).toBe(0)
    expect(await count('SELECT count(*) AS n FROM sessions WHERE user_id = ?', m.user.id)).toBe(0)
    expect(await count('SELECT count(*) AS n FROM likes WHERE user_id = ?', m.user.id)).toBe(0)
    expect(await sqlOn(server, 'SELECT user_id AS "userId", title FROM play_events WHERE id = ?', [play.body.data.playEventId])).toEqual([
      { userId: null, title: 'Song' },
    ])
    expect((await call('GET', '/user/folders', undefined, other.token)).body.data.map((f: { label: string }) => f.label)).toEqual(['Keep'])
    expect((await call('GET', '/admin/users')).body.data.some((u: { id: string }) => u.id === m.user.id)).toBe(false)
    expect(await call('DELETE', `/admin/users/${m.user.id}`)).toMatchObject({ status: 404, body: { error: 'User not found' } })
  })
})

describe('any user’s folders', () => {
  test('list, create (201), update and delete another user’s folders; the member sees the same list', async () => {
    const m = await createMember(server.url)
    expect(await call('GET', `/admin/users/${m.user.id}/folders`)).toMatchObject({ status: 200, body: { success: true, data: [] } })
    const created = await call('POST', `/admin/users/${m.user.id}/folders`, { label: '  Jazz  ', path: ' /music/jazz ' })
    expect(created).toMatchObject({ status: 201, body: { data: { label: 'Jazz', path: '/music/jazz' } } })
    const folderId: string = created.body.data.id
    expect(created.body.data._id).toBe(folderId)
    await call('POST', `/admin/users/${m.user.id}/folders`, { label: 'Radio', path: '/music/radio' })
    const listed = await call('GET', `/admin/users/${m.user.id}/folders`)
    expect(listed.body.data.map((f: { label: string }) => f.label)).toEqual(['Jazz', 'Radio'])
    expect((await call('GET', '/user/folders', undefined, m.token)).body.data.map((f: { label: string }) => f.label)).toEqual(['Jazz', 'Radio'])

    const updated = await call('PATCH', `/admin/users/${m.user.id}/folders/${folderId}`, { label: 'Cool Jazz', path: '/music/cool' })
    expect(updated).toMatchObject({ status: 200, body: { data: { id: folderId, label: 'Cool Jazz', path: '/music/cool' } } })
    expect(await call('DELETE', `/admin/users/${m.user.id}/folders/${folderId}`)).toMatchObject({
      status: 200,
      body: { data: { id: folderId, deleted: true } },
    })
    expect((await call('GET', '/user/folders', undefined, m.token)).body.data.map((f: { label: string }) => f.label)).toEqual(['Radio'])
  })

  test('a folder of another user, an unknown folder and an unknown user are 404', async () => {
    const a = await createMember(server.url)
    const b = await createMember(server.url)
    const folderId = (await call('POST', `/admin/users/${a.user.id}/folders`, { label: 'A', path: '/music/a' })).body.data.id
    expect(await call('PATCH', `/admin/users/${b.user.id}/folders/${folderId}`, { label: 'X', path: '/music/x' })).toMatchObject({
      status: 404,
      body: { error: 'Folder not found' },
    })
    expect(await call('DELETE', `/admin/users/${b.user.id}/folders/${folderId}`)).toMatchObject({ status: 404, body: { error: 'Folder not found' } })
    expect(await call('DELETE', `/admin/users/${a.user.id}/folders/nope`)).toMatchObject({ status: 404, body: { error: 'Folder not found' } })
    for (const [method, p, body] of [
      ['GET', '/admin/users/nobody/folders'],
      ['POST', '/admin/users/nobody/folders', { label: 'A', path: '/music/a' }],
      ['PATCH', `/admin/users/nobody/folders/${folderId}`, { label: 'A', path: '/music/a' }],
      ['DELETE', `/admin/users/nobody/folders/${folderId}`],
    ] as Array<[string, string, unknown?]>) {
      expect({ p, ...(await call(method, p, body)) }).toMatchObject({ p, status: 404, body: { error: 'User not found' } })
    }
    expect(await count('SELECT count(*) AS n FROM folders WHERE id = ?', folderId)).toBe(1)
  })

  test('the folder dialog rules apply (400 with the fixed messages)', async () => {
    const m = await createMember(server.url)
    const cases: Array<[unknown, string]> = [
      [{ label: '', path: '/music' }, 'Folder name is required'],
      [{ label: 'A', path: '   ' }, 'Folder path is required'],
      [{ label: 'A' }, 'Folder path is required'],
      [{ label: 'A', path: 'http://' }, 'Please enter a valid URL'],
      [{ label: 'A', path: '/music/../etc' }, 'Invalid path format'],
      [{ label: 'A', path: '/music/<b>' }, 'Invalid path format'],
    ]
    for (const [body, error] of cases) expect(await call('POST', `/admin/users/${m.user.id}/folders`, body)).toMatchObject({ status: 400, body: { error } })
    const folderId = (await call('POST', `/admin/users/${m.user.id}/folders`, { label: 'A', path: '/music/a' })).body.data.id
    expect(await call('PATCH', `/admin/users/${m.user.id}/folders/${folderId}`, { label: 'A', path: 'http://exa mple' })).toMatchObject({
      status: 400,
      body: { error: 'Please enter a valid URL' },
    })
    expect(await call('PATCH', `/admin/users/${m.user.id}/folders/${folderId}`, { label: 'A', path: '/x', extra: 1 })).toMatchObject({
      status: 400,
      body: { error: 'Unrecognized key: "extra"' },
    })
    expect(await count('SELECT count(*) AS n FROM folders WHERE user_id = ?', m.user.id)).toBe(1)
  })

  test('bulk add: one folder to many users; a missing user and a user who has it already land in failed', async () => {
    const a = await createMember(server.url)
    const b = await createMember(server.url)
    const body = { userIds: [a.user.id, 'missing-user', b.user.id, a.user.id], label: 'Shared', path: '/music/shared' }
    const res = await call('POST', '/admin/folders/bulk-add', body)
    expect(res.status).toBe(200)
    const { successful, failed } = res.body.data
    expect(successful.map((s: { userId: string; username: string }) => [s.userId, s.username])).toEqual([
      [a.user.id, a.username],
      [b.user.id, b.username],
    ])
    expect(successful[0].folder).toMatchObject({ label: 'Shared', path: '/music/shared' })
    expect(failed).toEqual([{ userId: 'missing-user', username: null, error: 'User not found' }])
    for (const m of [a, b])
      expect((await call('GET', '/user/folders', undefined, m.token)).body.data.map((f: { label: string }) => f.label)).toEqual(['Shared'])

    const again = await call('POST', '/admin/folders/bulk-add', { ...body, userIds: [a.user.id, b.user.id] })
    expect(again.body.data.successful).toEqual([])
    expect(again.body.data.failed.map((f: { error: string }) => f.error)).toEqual([
      'User already has a folder with this path',
      'User already has a folder with this path',
    ])
    expect(await count('SELECT count(*) AS n FROM folders WHERE user_id = ?', a.user.id)).toBe(1)
  })

  test('bulk add input: label, path and at least one user are required; at most 1000 users', async () => {
    const a = await createMember(server.url)
    const cases: Array<[unknown, string]> = [
      [{ userIds: [], label: 'L', path: '/music' }, 'Select at least one user'],
      [{ label: 'L', path: '/music' }, 'userIds must be a list of user ids'],
      [{ userIds: 'all', label: 'L', path: '/music' }, 'userIds must be a list of user ids'],
      [{ userIds: [a.user.id], path: '/music' }, 'Folder name is required'],
      [{ userIds: [a.user.id], label: 'L', path: '' }, 'Folder path is required'],
      [{ userIds: [a.user.id], label: 'L', path: '/a/../b' }, 'Invalid path format'],
      [{ userIds: Array.from({ length: 1001 }, (_, i) => `u${i}`), label: 'L', path: '/music' }, 'userIds may list at most 1000 users'],
      [{ userIds: [42], label: 'L', path: '/music' }, 'User id must be text'],
    ]
    for (const [body, error] of cases)
      expect(await call('POST', '/admin/folders/bulk-add', body)).toMatchObject({ status: 400, body: { success: false, error } })
    expect(await count('SELECT count(*) AS n FROM folders WHERE user_id = ?', a.user.id)).toBe(0)
  })
})

describe('messages', () => {
  test('a contact message appears unread; filters, detail, read and important toggle independently; delete', async () => {
    const first = await contact('First message about the player, thanks!', 'Grace Hopper', 'grace@example.com')
    const second = await contact('<script>alert(1)</script> is kept as text.')
    const all = await call('GET', '/admin/messages')
    expect(all.status).toBe(200)
    const ids = all.body.data.messages.map((m: { id: string }) => m.id)
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first))
    const summary = all.body.data.messages.find((m: { id: string }) => m.id === first)
    expect(summary).toEqual({
      id: first,
      name: 'Grace Hopper',
      email: 'grace@example.com',
      subject: 'First message about the player, thanks!',
      preview: 'First message about the player, thanks!',
      date: expect.stringMatching(/^\d{4}-/),
      read: false,
      important: false,
    })
    expect(all.body.data.counts).toMatchObject({ total: ids.length })

    const detail = await call('GET', `/admin/messages/${second}`)
    expect(detail.body.data).toMatchObject({
      id: second,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: '<script>alert(1)</script> is kept as text.',
      read: false,
      important: false,
    })

    expect(await call('PATCH', `/admin/messages/${first}`, { read: true })).toMatchObject({
      status: 200,
      body: { data: { id: first, read: true, important: false } },
    })
    expect(await call('PATCH', `/admin/messages/${second}`, { important: true })).toMatchObject({
      status: 200,
      body: { data: { id: second, read: false, important: true } },
    })
    const unread = (await call('GET', '/admin/messages?filter=unread')).body.data.messages.map((m: { id: string }) => m.id)
    expect(unread).toContain(second)
    expect(unread).not.toContain(first)
    const important = (await call('GET', '/admin/messages?filter=important')).body.data.messages.map((m: { id: string }) => m.id)
    expect(important).toEqual([second])
    expect((await call('GET', '/admin/messages?filter=')).body.data.messages.length).toBe(ids.length)
    expect((await call('GET', '/admin/messages?filter=all')).body.data.counts).toEqual({ total: ids.length, unread: ids.length - 1, important: 1 })
    expect(await call('PATCH', `/admin/messages/${first}`, { read: false, important: true })).toMatchObject({
      body: { data: { read: false, important: true } },
    })

    expect(await call('DELETE', `/admin/messages/${second}`)).toMatchObject({ status: 200, body: { data: { id: second, deleted: true } } })
    expect(await call('GET', `/admin/messages/${second}`)).toMatchObject({ status: 404, body: { error: 'Message not found' } })
    expect(await call('PATCH', `/admin/messages/${second}`, { read: true })).toMatchObject({ status: 404, body: { error: 'Message not found' } })
    expect(await call('DELETE', `/admin/messages/${second}`)).toMatchObject({ status: 404, body: { error: 'Message not found' } })
  })

  test('bad filters, page sizes, cursors and update bodies are 400', async () => {
    const id = await contact('Another message to triage later.')
    const cases: Array<[string, string]> = [
      ['/admin/messages?filter=starred', 'filter must be one of all, unread, important'],
      ['/admin/messages?limit=0', 'limit must be at least 1'],
      ['/admin/messages?limit=500', 'limit must be at most 100'],
      ['/admin/messages?limit=ten', 'limit must be a number'],
      ['/admin/messages?cursor=nonsense', 'cursor is not valid'],
      ['/admin/messages?sort=asc', 'Unrecognized key: "sort"'],
    ]
    for (const [p, error] of cases) expect({ p, ...(await call('GET', p)) }).toMatchObject({ p, status: 400, body: { error } })
    const bodies: Array<[unknown, string]> = [
      [{}, 'Provide read or important'],
      [{ read: 'yes' }, 'read must be true or false'],
      [{ important: 1 }, 'important must be true or false'],
      [{ read: true, message: 'edited' }, 'Unrecognized key: "message"'],
    ]
    for (const [body, error] of bodies) expect(await call('PATCH', `/admin/messages/${id}`, body)).toMatchObject({ status: 400, body: { error } })
    expect(
      await sqlOn(
        server,
        'SELECT CASE WHEN read THEN 1 ELSE 0 END AS read, CASE WHEN important THEN 1 ELSE 0 END AS important FROM contact_messages WHERE id = ?',
        [id],
      ),
    ).toEqual([{ read: 0, important: 0 }])
  })

  test('pages follow a cursor through the whole inbox, newest first, without repeats', async () => {
    for (let i = 0; i < 7; i++) await contact(`Paged message number ${i} for the inbox.`)
    const total = await count('SELECT count(*) AS n FROM contact_messages')
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res: { body: { data: { messages: Array<{ id: string }>; nextCursor: string | null } } } = await call(
        'GET',
        `/admin/messages?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      )
      expect(res.body.data.messages.length).toBeLessThanOrEqual(3)
      seen.push(...res.body.data.messages.map((m) => m.id))
      cursor = res.body.data.nextCursor
    } while (cursor)
    expect(seen.length).toBe(total)
    expect(new Set(seen).size).toBe(total)
    const ordered = (await sqlOn<{ id: string }>(server, 'SELECT id FROM contact_messages ORDER BY created_at DESC, id DESC')).map((r) => r.id)
    expect(seen).toEqual(ordered)
  })
})
