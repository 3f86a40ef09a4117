// How a REST route hands the client's input to its procedure (docs/rest-api.md, decision 063): a
// wrong-typed field is a 400 naming it, whether it came in the body or beside a path parameter; a
// body that is not a JSON object is refused before any procedure runs; and the procedure's guards
// come before its input schema, so a signed-out caller or a member sending the same wrong input to
// an admin path gets 401 / 403, never the schema's message.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { ADMIN, adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { restCall } from '../helpers/rest-surface'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let member: string
let admin: string

beforeAll(async () => {
  server = await startServer(adminEnv)
  mkdirSync(path.join(server.mediaRoot, 'music'))
  member = (await createMember(server.url)).token
  admin = await loginAdmin(server.url)
})
afterAll(() => server.stop())

const refused = (status: number, error: string) => ({ status, body: { success: false, error } })
const answer = async (...args: Parameters<typeof api>) => {
  const { status, body } = await api(...args)
  return { status, body }
}

describe('a wrong-typed input', () => {
  test('in the body: 400 naming the field', async () => {
    expect(await answer(server.url, 'POST', '/user/folders', { token: member, body: { label: 42, path: '/music' } })).toEqual(
      refused(400, 'Folder name must be text'),
    )
    expect(await answer(server.url, 'PUT', '/admin/adverts', { token: admin, body: { enabled: 'yes', chancePercent: 30 } })).toEqual(
      refused(400, 'enabled must be true or false'),
    )
  })

  test('in a body merged with a path parameter: 400 naming the field', async () => {
    const folder = await api(server.url, 'POST', '/user/folders', { token: member, body: { label: 'Music', path: '/music' } })
    expect(folder.status).toBe(201)
    expect(await answer(server.url, 'PATCH', `/user/folders/${folder.body.data.id}`, { token: member, body: { label: 'Music', path: ['/music'] } })).toEqual(
      refused(400, 'Folder path must be text'),
    )
  })

  test('in the query string: 400 naming the parameter', async () => {
    expect(await answer(server.url, 'GET', '/admin/stats/top-tracks?limit=many', { token: admin })).toEqual(refused(400, 'limit must be a whole number'))
  })

  test('a body that is not a JSON object: 400 before the procedure', async () => {
    for (const raw of ['[]', '"label"', '42', 'null']) {
      expect(await answer(server.url, 'POST', '/user/folders', { token: member, raw })).toEqual(refused(400, 'Request body must be a JSON object'))
    }
    expect(await answer(server.url, 'POST', '/user/folders', { token: member })).toEqual(refused(400, 'Request body must be a JSON object'))
  })
})

describe('guards before the input schema', () => {
  const wrong = { enabled: 'yes', chancePercent: 'thirty' }

  test('signed out: 401, not the schema message', async () => {
    expect(await answer(server.url, 'PUT', '/admin/adverts', { body: wrong })).toEqual(refused(401, 'No authentication token found. Please log in again.'))
    expect(await answer(server.url, 'POST', '/user/folders', { body: { label: 42 } })).toEqual(
      refused(401, 'No authentication token found. Please log in again.'),
    )
  })

  test('a member at an admin path: 403, not the schema message', async () => {
    expect(await answer(server.url, 'PUT', '/admin/adverts', { token: member, body: wrong })).toEqual(refused(403, 'Admin access required'))
  })
})

// PostgreSQL's text cannot hold a NUL character, so one in any text input is refused at the edge on
// both engines alike (SQLite used to store it): a 400 naming the field, and nothing stored.
describe('a NUL character (or text that is not Unicode) in text', () => {
  test('REST and tRPC: 400 naming the field, the folder unchanged', async () => {
    mkdirSync(path.join(server.mediaRoot, 'plain'))
    const folder = await api(server.url, 'POST', '/user/folders', { token: member, body: { label: 'Plain', path: '/plain' } })
    expect({ status: folder.status, error: folder.body.error }).toEqual({ status: 201, error: undefined })
    const id: string = folder.body.data.id
    expect(await answer(server.url, 'PATCH', `/user/folders/${id}`, { token: member, body: { label: 'a\u0000b', path: '/plain' } })).toEqual(
      refused(400, 'label: Text may not contain a NUL character'),
    )
    expect(await answer(server.url, 'GET', '/user/folders/%00/playlist', { token: member })).toEqual(refused(400, 'id: Text may not contain a NUL character'))
    const trpc = await fetch(`${server.url}/api/trpc/folders.update`, {
      method: 'POST',
      headers: { authorization: `Bearer ${member}`, 'content-type': 'application/json' },
      body: JSON.stringify({ json: { id, label: 'a\u0000b', path: '/plain' } }),
    })
    expect(trpc.status).toBe(400)
    expect((await trpc.json()).error.json.message).toBe('label: Text may not contain a NUL character')
    // A lone surrogate (JSON can carry one) is not Unicode: PostgreSQL cannot hold it either.
    expect(await answer(server.url, 'PATCH', `/user/folders/${id}`, { token: member, raw: '{"label":"a\\ud800b","path":"/plain"}' })).toEqual(
      refused(400, 'label: Text must be valid Unicode'),
    )
    expect(await sqlOn(server, 'SELECT label FROM folders WHERE id = ?', [id])).toEqual([{ label: 'Plain' }])
  })

  test('a signed-out caller still learns only that it must sign in', async () => {
    expect((await answer(server.url, 'PATCH', '/user/folders/%00', { body: { label: 'a\u0000b' } })).status).toBe(401)
  })

  test('/rest: error 0 naming the parameter (HTTP 200, as for other bad parameters)', async () => {
    const made = await api(server.url, 'POST', '/user/app-keys', { token: admin, body: { name: 'NUL test', currentPassword: ADMIN.password } })
    expect(made.status).toBe(201)
    const apiKey: string = made.body.data.key
    const starred = await restCall(server.url, 'star', { apiKey, id: '\u0000', f: 'json' })
    expect({ status: starred.status, ok: starred.ok, code: starred.code, message: starred.message }).toEqual({
      status: 200,
      ok: false,
      code: 0,
      message: 'Parameter id: Text may not contain a NUL character',
    })
  })
})

describe('a NUL character in a plain HTTP route id', () => {
  test('radio stream and podcast media: 400 naming the problem', async () => {
    for (const at of ['/radio/stream/%00', '/podcasts/episodes/a%00b/audio', '/podcasts/a%00b/artwork?size=64']) {
      expect({ at, ...(await answer(server.url, 'GET', at, { token: member })) }).toEqual({ at, ...refused(400, 'Text may not contain a NUL character') })
    }
  })
})
