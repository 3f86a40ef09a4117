// The admin console's own record over real HTTP against the built
// server: every console change lands in the audit log with the acting admin, the dashboard's
// Recent Activities lists the newest real events (no fixed lines), and both answer admins only;
// GET /metrics speaks Prometheus to a scraper holding METRICS_TOKEN or an admin.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'
import { ADMIN, adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

const METRICS_TOKEN = 'scrape-me-please-0123456789'
let server: TestServer
let admin: string
const adminName = ADMIN.email.split('@')[0]

beforeAll(async () => {
  server = await startServer({ ...adminEnv, METRICS_TOKEN })
  for (const dir of ['jazz', 'rock']) mkdirSync(path.join(server.mediaRoot, 'music', dir), { recursive: true })
  admin = await loginAdmin(server.url)
})
afterAll(async () => {
  await server?.stop()
})

const call = (method: string, p: string, body?: unknown, token = admin) => api(server.url, method, p, { token, body })

describe('audit log and Recent Activities', () => {
  test('sign-ups, members’ folders, messages and each console action show as real events, newest first', async () => {
    const before = await call('GET', '/admin/activity')
    expect(before.status).toBe(200)
    for (const line of ['New user registered', 'Playlist "Summer Vibes" created', 'System backup completed']) {
      expect(before.body.data.map((a: { text: string }) => a.text)).not.toContain(line)
    }

    const ada = await createMember(server.url, { username: 'ada' })
    const bob = await createMember(server.url, { username: 'bob' })
    expect((await call('POST', '/user/folders', { label: 'Ada Jazz', path: '/music/jazz' }, ada.token)).status).toBe(201)
    expect(
      (await api(server.url, 'POST', '/contact', { body: { fullName: 'Grace Hopper', email: 'grace@example.com', message: 'The player is lovely' } })).status,
    ).toBe(201)
    const messageId = (await call('GET', '/admin/messages')).body.data.messages[0].id

    expect((await call('PATCH', `/admin/users/${ada.user.id}/role`, { isAdmin: true })).status).toBe(200)
    const folder = await call('POST', `/admin/users/${bob.user.id}/folders`, { label: 'Bob Rock', path: '/music/rock' })
    expect(folder.status).toBe(201)
    expect((await call('PATCH', `/admin/users/${bob.user.id}/folders/${folder.body.data.id}`, { label: 'Bob Rocks', path: '/music/rock' })).status).toBe(200)
    expect((await call('DELETE', `/admin/users/${bob.user.id}/folders/${folder.body.data.id}`)).status).toBe(200)
    expect((await call('POST', '/admin/folders/bulk-add', { userIds: [bob.user.id], label: 'Shared Jazz', path: '/music/jazz' })).status).toBe(200)
    expect((await call('PATCH', `/admin/messages/${messageId}`, { read: true })).status).toBe(200)
    expect((await call('POST', '/admin/library/scan', { full: true })).status).toBe(202)
    expect((await call('DELETE', '/admin/clear/hit-data')).status).toBe(200)
    expect((await call('PUT', '/admin/adverts', { enabled: false, chancePercent: 30 })).status).toBe(200)
    const promotion = await call('POST', '/admin/promotions', {
      title: 'Spring Sale',
      description: 'Half price',
      linkUrl: '/about',
      imageUrl: '/promotions/charts.svg',
      backgroundColor: '#0c4a6e',
      textColor: '#f0f9ff',
    })
    expect(promotion.status).toBe(201)
    expect((await call('PATCH', `/admin/promotions/${promotion.body.data.id}`, { active: false })).status).toBe(200)
    expect((await call('DELETE', `/admin/promotions/${promotion.body.data.id}`)).status).toBe(200)
    expect((await call('DELETE', `/admin/users/${bob.user.id}`)).status).toBe(200)

    const audit = await call('GET', '/admin/audit?limit=20')
    expect(audit.status).toBe(200)
    const entries = audit.body.data as Array<{ actorName: string; action: string; target: string; detail: string }>
    expect(entries.map((e) => e.action)).toEqual([
      'user.delete',
      'promotion.delete',
      'promotion.update',
      'promotion.create',
      'adverts.update',
      'hits.clear',
      'library.scan',
      'message.update',
      'folder.bulk-add',
      'folder.delete',
      'folder.update',
      'folder.create',
      'user.role',
    ])
    for (const e of entries) expect(e.actorName).toBe(adminName)
    expect((await api(server.url, 'POST', '/contact', { body: { fullName: 'Linus', email: 'linus@example.com', message: 'Second note' } })).status).toBe(201)
    // A deleted message is logged under its subject.
    expect((await call('DELETE', `/admin/messages/${messageId}`)).status).toBe(200)
    expect((await call('GET', '/admin/audit?limit=1')).body.data[0]).toMatchObject({ action: 'message.delete', target: 'The player is lovely' })
    expect(entries.find((e) => e.action === 'user.role')).toMatchObject({ target: 'ada', detail: 'admin' })
    expect(entries.find((e) => e.action === 'user.delete')).toMatchObject({ target: 'bob' })
    expect(entries.find((e) => e.action === 'adverts.update')).toMatchObject({ detail: 'off' })
    expect(entries.find((e) => e.action === 'promotion.create')).toMatchObject({ target: 'Spring Sale' })
    expect(entries.find((e) => e.action === 'library.scan')).toMatchObject({ detail: 'full' })
    expect(entries.find((e) => e.action === 'folder.update')).toMatchObject({ target: '"Bob Rocks" of bob', detail: '/music/rock' })

    const activity = await call('GET', '/admin/activity?limit=50')
    const texts = (activity.body.data as Array<{ text: string }>).map((a) => a.text)
    expect(texts[0]).toBe(`${adminName} deleted message "The player is lovely"`)
    for (const line of [
      'New user registered: ada',
      'Folder "Ada Jazz" added for ada',
      'Message from Linus: Second note',
      `${adminName} made ada an admin`,
      `${adminName} deleted user bob`,
      `${adminName} started a full rescan`,
      `${adminName} marked message "The player is lovely" read`,
      `${adminName} added folder "Shared Jazz" to 1 user`,
      `${adminName} cleared the page-hit data`,
    ]) {
      expect(texts).toContain(line)
    }
    const times = (activity.body.data as Array<{ at: string }>).map((a) => a.at)
    expect([...times].sort().reverse()).toEqual(times)
    expect((await call('GET', '/admin/activity?limit=3')).body.data).toHaveLength(3)
  })

  test('a refused change writes nothing; members and strangers cannot read the log', async () => {
    const count = (await call('GET', '/admin/audit?limit=100')).body.data.length
    const me = (await call('GET', '/auth/session')).body.data.user.id
    expect((await call('PATCH', `/admin/users/${me}/role`, { isAdmin: false })).status).toBe(400)
    expect((await call('DELETE', '/admin/users/no-such-user')).status).toBe(404)
    expect((await call('POST', '/admin/users/no-such-user/folders', { label: 'X', path: '/music/jazz' })).status).toBe(404)
    expect((await call('GET', '/admin/audit?limit=100')).body.data.length).toBe(count)

    const member = await createMember(server.url)
    for (const p of ['/admin/audit', '/admin/activity']) {
      expect((await call('GET', p, undefined, member.token)).status).toBe(403)
      expect((await api(server.url, 'GET', p)).status).toBe(401)
    }
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=2.5', 'other=1']) {
      const res = await call('GET', `/admin/audit?${q}`)
      expect(res.status).toBe(400)
      expect(res.body.success).toBe(false)
    }
  })
})

describe('Listening Analytics names folders', () => {
  test('a play from a member’s folder is listed under the folder’s name and owner; an unknown id stays unnamed', async () => {
    const cy = await createMember(server.url, { username: 'cyd' })
    const folder = await call('POST', '/user/folders', { label: 'Late Night Jazz', path: '/music/jazz' }, cy.token)
    expect(folder.status).toBe(201)
    const play = (playlistId: string) =>
      call('POST', '/playlist/plays', { trackUrl: '/media/music/jazz/a.mp3', title: 'A', duration: 60, source: 'playlist', playlistId }, cy.token)
    expect((await play(folder.body.data.id)).status).toBe(201)
    expect((await play(folder.body.data.id)).status).toBe(201)
    expect((await play('pl-not-a-folder')).status).toBe(201)
    const res = await call('GET', '/analytics/playlist-analytics?days=1')
    expect(res.status).toBe(200)
    expect(
      res.body.data.playlists.map((p: { playlistId: string; name: string | null; owner: string | null; plays: number }) => [
        p.playlistId,
        p.name,
        p.owner,
        p.plays,
      ]),
    ).toEqual([
      [folder.body.data.id, 'Late Night Jazz', 'cyd', 2],
      ['pl-not-a-folder', null, null, 1],
    ])
  })
})

describe('one file, one track', () => {
  test('the same file played from the library, a folder and its converted stream counts as one track', async () => {
    makeTone(path.join(server.mediaRoot, 'music', 'same', 'Once.mp3'), { title: 'Once', artist: 'Echo', album: 'Single', seconds: 1 })
    expect((await call('POST', '/admin/library/scan', {})).status).toBe(202)
    let libraryUrl: string | undefined
    for (let i = 0; i < 100 && !libraryUrl; i++) {
      libraryUrl = (await call('GET', '/library/search?q=Once')).body.data?.tracks?.[0]?.url
      if (!libraryUrl) await Bun.sleep(100)
    }
    expect(libraryUrl).toStartWith('/media/music/same/Once.mp3?')
    const dee = await createMember(server.url, { username: 'dee' })
    const folder = await call('POST', '/user/folders', { label: 'Same', path: '/music/same' }, dee.token)
    const folderUrl = (await call('GET', `/user/folders/${folder.body.data.id}/playlist`, undefined, dee.token)).body.data[0].url as string
    expect(folderUrl).toStartWith('/media/music/same/Once.mp3?')
    const converted = `/media/music/same/Once.mp3?t=mp3&exp=1&sig=x`
    for (const trackUrl of [libraryUrl, folderUrl, converted]) {
      expect((await call('POST', '/playlist/plays', { trackUrl, title: 'Once', artist: 'Echo', duration: 1 }, dee.token)).status).toBe(201)
    }
    const users = (await call('GET', '/analytics/user-listening-behavior?days=1&limit=100')).body.data.users as Array<{
      username: string
      totalPlays: number
      uniqueTracks: number
    }>
    expect(users.find((u) => u.username === 'dee')).toMatchObject({ totalPlays: 3, uniqueTracks: 1 })
  })
})

describe('GET /metrics', () => {
  const scrape = (headers: Record<string, string> = {}, method = 'GET') => fetch(`${server.url}/metrics`, { method, headers })
  /** The samples of the exposition as `name{labels}` → value, each sample's own `instance` label left out. */
  const samples = (text: string, instance = `${hostname()}:${server.port}`) =>
    new Map(
      text
        .split('\n')
        .filter((l) => l && !l.startsWith('#'))
        .map((l) => {
          const at = l.lastIndexOf(' ')
          const series = l.slice(0, at)
          const label = `instance="${instance}"`
          expect(series).toContain(`{${label}`)
          return [series.replace(`{${label}}`, '').replace(`{${label},`, '{'), Number(l.slice(at + 1))] as const
        }),
    )

  test('a scraper with METRICS_TOKEN gets request counts and latencies by route, streams, scan state and DB size', async () => {
    const member = await createMember(server.url)
    const series = 'vibes_http_requests_total{route="/api/admin/users/:id/folders",method="GET",status="404"}'
    const before = samples(await (await scrape({ authorization: `Bearer ${METRICS_TOKEN}` })).text()).get(series) ?? 0
    for (let i = 0; i < 3; i++) expect((await call('GET', `/admin/users/${crypto.randomUUID()}/folders`)).status).toBe(404)
    expect((await api(server.url, 'GET', '/library/search?q=x', { token: member.token })).status).toBe(200)
    expect((await fetch(`${server.url}/media/nothing-here.mp3`)).status).toBe(403)

    const res = await scrape({ authorization: `Bearer ${METRICS_TOKEN}` })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/plain; version=0.0.4')
    const text = await res.text()
    expect(text).toContain('# TYPE vibes_http_requests_total counter')
    expect(text).toContain('# TYPE vibes_http_request_duration_seconds histogram')
    const m = samples(text)
    // Ids become :id, so three calls on three paths are one series.
    expect(m.get(series)).toBe(before + 3)
    expect(m.get('vibes_http_request_duration_seconds_count{route="/api/admin/users/:id/folders"}')).toBeGreaterThanOrEqual(3)
    expect(m.get('vibes_http_request_duration_seconds_bucket{route="/api/admin/users/:id/folders",le="+Inf"}')).toBe(
      m.get('vibes_http_request_duration_seconds_count{route="/api/admin/users/:id/folders"}'),
    )
    expect(m.get('vibes_http_requests_total{route="/api/library/search",method="GET",status="200"}')).toBeGreaterThanOrEqual(1)
    expect(m.get('vibes_http_requests_total{route="/media",method="GET",status="403"}')).toBe(1)
    expect(m.get('vibes_media_streams_total')).toBeGreaterThanOrEqual(1)
    expect(m.get('vibes_library_scanning')).toBeOneOf([0, 1])
    expect(m.has('vibes_library_items{kind="tracks"}')).toBe(true)
    expect(m.get('vibes_library_last_scan_timestamp_seconds')).toBeGreaterThan(0)
    expect((m.get('vibes_db_size_bytes{file="db"}') ?? 0) + (m.get('vibes_db_size_bytes{file="wal"}') ?? 0)).toBeGreaterThan(4096)
    expect(m.get('vibes_transcodes_running')).toBe(0)
    // No user, e-mail, token or address in the exposition.
    expect(text).not.toContain(member.email)
    expect(text).not.toContain('127.0.0.1')
  })

  test('every sample names its node: hostname:port by default, INSTANCE_NAME when set', async () => {
    const text = await (await scrape({ authorization: `Bearer ${METRICS_TOKEN}` })).text()
    const lines = text.split('\n').filter((l) => l && !l.startsWith('#'))
    expect(lines.length).toBeGreaterThan(20)
    for (const line of lines) expect(line).toMatch(new RegExp(`^[a-z_]+\\{instance="${hostname().replace(/[.]/g, '\\.')}:${server.port}"[,}]`))

    const named = await startServer({ METRICS_TOKEN, INSTANCE_NAME: 'node-b "eu"' })
    try {
      const res = await fetch(`${named.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      const m = samples(await res.text(), 'node-b \\"eu\\"')
      expect(m.get('vibes_transcodes_running')).toBe(0)
    } finally {
      await named.stop()
    }
  })

  test('an admin’s own token works; a member is refused (403), no or a wrong token is 401', async () => {
    expect((await scrape({ authorization: `Bearer ${admin}` })).status).toBe(200)
    const member = await createMember(server.url)
    expect((await scrape({ authorization: `Bearer ${member.token}` })).status).toBe(403)
    const none = await scrape()
    expect(none.status).toBe(401)
    expect(await none.text()).toBe('No authentication token found. Please log in again.\n')
    for (const auth of [`Bearer ${METRICS_TOKEN}x`, `Bearer ${METRICS_TOKEN.slice(1)}`, METRICS_TOKEN, 'Bearer ', 'Basic YWRtaW46YWRtaW4=']) {
      expect((await scrape({ authorization: auth })).status).toBe(401)
    }
    expect((await scrape({ authorization: `Bearer ${METRICS_TOKEN}` }, 'POST')).status).toBe(405)
  })

  test('made-up paths and procedure names share one `unknown` label; a real route first asked after a flood still gets its own', async () => {
    await Promise.all(Array.from({ length: 100 }, (_, i) => api(server.url, 'GET', `/made-up-${i}/x`)))
    for (let batch = 0; batch < 4; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          Promise.all([
            fetch(`${server.url}/api/trpc/bogus${batch * 100 + i}.call`).then((r) => r.arrayBuffer()),
            fetch(`${server.url}/api/trpc/junk${batch * 100 + i}.x,junk${batch * 100 + i}.y`).then((r) => r.arrayBuffer()),
          ]),
        ),
      )
    }
    // Batches of real procedures, ever longer, are no way round it either.
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${server.url}/api/trpc/${Array.from({ length: i + 2 }, (_, k) => (k % 2 ? 'auth.status' : 'health.metrics')).join(',')}?batch=1`).then((r) =>
          r.arrayBuffer(),
        ),
      ),
    )
    // Routes nobody asked for before the flood.
    expect((await api(server.url, 'GET', '/health/system')).status).toBe(401)
    expect((await fetch(`${server.url}/api/trpc/health.check`)).status).toBe(200)
    const text = await (await scrape({ authorization: `Bearer ${METRICS_TOKEN}` })).text()
    const routes = new Set([...text.matchAll(/vibes_http_requests_total\{instance="[^"]*",route="([^"]*)"/g)].map((x) => x[1]))
    expect(routes.has('/api/health/system')).toBe(true)
    expect(routes.has('/api/trpc/health.check')).toBe(true)
    expect(routes.has('/api/trpc/:batch')).toBe(true)
    expect(routes.has('unknown')).toBe(true)
    expect(routes.has('other')).toBe(false)
    expect([...routes].filter((r) => /bogus|junk|made-up/.test(r))).toEqual([])
    expect(routes.size).toBeLessThan(60)
  })
})
