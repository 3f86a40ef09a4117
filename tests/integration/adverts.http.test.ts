// Adverts are the operator's choice, over real HTTP against the built server:
// the chance the player reads with the public promotions (default on, 30 %), the admin's setting,
// and the promotions the admin manages (create, edit, switch off, delete) as the grid shows them.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let admin: string

beforeAll(async () => {
  server = await startServer(adminEnv)
  admin = await loginAdmin(server.url)
})
afterAll(async () => {
  await server.stop()
})

const call = (method: string, p: string, body?: unknown, token = admin) => api(server.url, method, p, { token, body })
const publicList = async () => (await api(server.url, 'GET', '/promotions')).body.data as { promotions: Array<{ id: string; title: string }>; adverts: unknown }

const festival = {
  title: 'Summer Festival',
  description: 'Three days of live music by the lake.',
  linkUrl: 'https://festival.example.com/tickets',
  imageUrl: 'https://festival.example.com/poster.jpg',
  backgroundColor: '#7c2d12',
  textColor: '#fff7ed',
}

describe('advert settings', () => {
  test('default on at 30 %; the admin turns them off or sets the chance, and the public list carries it', async () => {
    expect((await publicList()).adverts).toEqual({ enabled: true, chancePercent: 30 })
    expect((await call('GET', '/admin/adverts')).body.data).toMatchObject({ enabled: true, chancePercent: 30 })

    const off = await call('PUT', '/admin/adverts', { enabled: false, chancePercent: 30 })
    expect(off).toMatchObject({ status: 200, body: { success: true, data: { enabled: false, chancePercent: 30 } } })
    expect((await publicList()).adverts).toEqual({ enabled: false, chancePercent: 30 })

    await call('PUT', '/admin/adverts', { enabled: true, chancePercent: 75 })
    expect((await publicList()).adverts).toEqual({ enabled: true, chancePercent: 75 })
    await call('PUT', '/admin/adverts', { enabled: true, chancePercent: 30 })
  })

  test('bad settings are a 400 naming the field', async () => {
    expect(await call('PUT', '/admin/adverts', { enabled: true, chancePercent: 101 })).toMatchObject({
      status: 400,
      body: { success: false, error: 'chancePercent must be at most 100' },
    })
    expect(await call('PUT', '/admin/adverts', { enabled: true, chancePercent: 12.5 })).toMatchObject({
      status: 400,
      body: { error: 'chancePercent must be a whole number' },
    })
    expect(await call('PUT', '/admin/adverts', { enabled: 'yes', chancePercent: 10 })).toMatchObject({
      status: 400,
      body: { error: 'enabled must be true or false' },
    })
  })

  test('only an admin: 401 without a token, 403 for a member', async () => {
    const member = await createMember(server.url)
    expect((await call('GET', '/admin/adverts', undefined, '')).status).toBe(401)
    expect((await call('PUT', '/admin/adverts', { enabled: false, chancePercent: 0 }, member.token)).status).toBe(403)
    expect((await call('POST', '/admin/promotions', festival, member.token)).status).toBe(403)
    expect((await publicList()).adverts).toEqual({ enabled: true, chancePercent: 30 })
  })
})

describe('promotions managed by the admin', () => {
  test('create, edit, switch off and delete: the public grid follows, four at most, in order', async () => {
    const seeded = (await publicList()).promotions
    expect(seeded).toHaveLength(4)

    const created = await call('POST', '/admin/promotions', festival)
    expect(created.status).toBe(201)
    const id = created.body.data.id as string
    expect(created.body.data).toEqual({ id, ...festival, active: true })
    // A fifth active promotion waits behind the four: the grid shows four.
    expect((await publicList()).promotions.map((p) => p.id)).toEqual(seeded.map((p) => p.id))

    // Switching the first default off lets the new one in, last.
    await call('PATCH', `/admin/promotions/${seeded[0].id}`, { active: false })
    expect((await publicList()).promotions.map((p) => p.id)).toEqual([...seeded.slice(1).map((p) => p.id), id])

    const edited = await call('PATCH', `/admin/promotions/${id}`, { title: 'Autumn Festival', backgroundColor: '#1e3a8a' })
    expect(edited.body.data).toMatchObject({ title: 'Autumn Festival', backgroundColor: '#1e3a8a', description: festival.description })
    expect((await publicList()).promotions.at(-1)).toMatchObject({ id, title: 'Autumn Festival' })

    const all = (await call('GET', '/admin/adverts')).body.data.promotions as Array<{ id: string; active: boolean }>
    expect(all.map((p) => [p.id, p.active])).toEqual([[seeded[0].id, false], ...seeded.slice(1).map((p) => [p.id, true]), [id, true]])

    expect(await call('DELETE', `/admin/promotions/${id}`)).toMatchObject({ status: 200, body: { data: { id, deleted: true } } })
    expect(await call('DELETE', `/admin/promotions/${id}`)).toMatchObject({ status: 404, body: { error: 'Promotion not found' } })
    expect((await publicList()).promotions.map((p) => p.id)).toEqual(seeded.slice(1).map((p) => p.id))
  })

  test('deleting every promotion leaves the grid empty: the defaults are not seeded again', async () => {
    for (const p of (await call('GET', '/admin/adverts')).body.data.promotions as Array<{ id: string }>) await call('DELETE', `/admin/promotions/${p.id}`)
    expect((await publicList()).promotions).toEqual([])
    expect((await call('GET', '/admin/adverts')).body.data.promotions).toEqual([])
  })

  test('unsafe or malformed fields are a 400 naming the field', async () => {
    const bad = async (fields: object) => (await call('POST', '/admin/promotions', { ...festival, ...fields })).body
    expect(await bad({ linkUrl: 'javascript:alert(1)' })).toMatchObject({
      success: false,
      error: 'Link must be a path on this site (/about) or an http(s) address',
    })
    expect(await bad({ linkUrl: '//evil.example.com' })).toMatchObject({ error: 'Link must be a path on this site (/about) or an http(s) address' })
    // What browsers read as //evil.example.com too: a backslash is a slash, a tab or newline is dropped.
    for (const linkUrl of ['/\\evil.example.com', '/\t/evil.example.com', '/\n/evil.example.com']) {
      expect(await bad({ linkUrl })).toMatchObject({ error: 'Link must be a path on this site (/about) or an http(s) address' })
    }
    expect(await bad({ imageUrl: '/\\evil.example.com/a.png' })).toMatchObject({
      error: 'Image URL must be a path on this site (/promotions/x.svg) or an https address',
    })
    expect(await bad({ imageUrl: 'http://plain.example.com/a.png' })).toMatchObject({
      error: 'Image URL must be a path on this site (/promotions/x.svg) or an https address',
    })
    expect(await bad({ backgroundColor: 'red;position:fixed' })).toMatchObject({ error: 'Background colour must be a colour like #4c1d95' })
    expect(await bad({ title: '   ' })).toMatchObject({ error: 'Title is required' })
    expect(await bad({ extra: 1 })).toMatchObject({ success: false })
    const empty = await call('PATCH', '/admin/promotions/x', {})
    expect(empty).toMatchObject({ status: 400, body: { error: 'Nothing to update: send at least one field' } })
  })
})
