// Who may call what, for the whole API: every REST route of the route table and every tRPC
// procedure of the router (read from the code, so a new one is in the matrix the day it lands),
// called with a valid request as anonymous, with a forged token, as a member addressing another
// member's things, as that owner, and as an admin. The expected answer comes from the procedure's
// tier (public / protected / admin, read from its middlewares): 401 without a valid session on
// protected and admin calls, 403 for members on admin calls, 404 for someone else's folder or
// play event, never someone else's data, and never a server fault.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import superjson from 'superjson'
import { ADMIN, adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import {
  fillPath,
  type Ids,
  leakIn,
  loadApiSurface,
  type ProcedureInfo,
  type RestRouteInfo,
  routeKey,
  SAMPLES,
  sampleInputs,
  TRPC_ONLY_SAMPLES,
} from '../helpers/api-surface'
import { sqlOn } from '../helpers/engine'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { loadRestMethods, REST_ADMIN_ONLY, REST_SAMPLES, type RestAnswer, type RestIds, type RestParams, restCall, restSample } from '../helpers/rest-surface'
import { startServer, type TestServer } from '../helpers/server'

const surface = await loadApiSurface()

type Caller = { name: string; token: () => string | undefined; refresh: () => Promise<void> }
type Answer = { status: number; body: any; text: string }

let server: TestServer
let owner: Member
let ownerIds: Ids
let victimIds: Ids
let loginUser: { email: string; password: string }
/** Strings only the owner's own answers may contain. */
let ownerMarkers: string[]

type Member = Awaited<ReturnType<typeof createMember>>

/** Some valid calls end the caller's session (logout): sign in again before the next one. */
async function reLogin(m: Member): Promise<Member> {
  if ((await api(server.url, 'GET', '/auth/session', { token: m.token })).status === 200) return m
  const login = await api(server.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password } })
  return { ...m, token: login.body.data.token as string }
}

function memberCaller(name: string, m: Member, onRefresh: (m: Member) => void = () => {}): Caller {
  return { name, token: () => m.token, refresh: async () => onRefresh((m = await reLogin(m))) }
}

/** A member with one library folder (its directory exists) and one play event. */
async function memberWithThings(label: string) {
  const m = await createMember(server.url)
  mkdirSync(path.join(server.mediaRoot, label), { recursive: true })
  const folder = await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label, path: `/${label}` } })
  expect(folder.status).toBe(201)
  const play = await api(server.url, 'POST', '/playlist/plays', {
    token: m.token,
    body: { trackUrl: `https://nas.example.com/${label}.mp3`, title: `${label} track`, duration: 30 },
  })
  expect(play.status).toBe(201)
  const playlist = await api(server.url, 'POST', '/user/playlists', { token: m.token, body: { name: `${label} playlist` } })
  expect(playlist.status).toBe(201)
  return { m, folderId: folder.body.data.id as string, playEventId: play.body.data.playEventId as string, playlistId: playlist.body.data.id as string }
}

beforeAll(async () => {
  server = await startServer(adminEnv)
  // The samples' library folder exists, so a folder save is judged on who asks, not on the path.
  mkdirSync(path.join(server.mediaRoot, 'sample'))
  const message = await api(server.url, 'POST', '/contact', {
    body: { fullName: 'Matrix Sender', email: 'matrix@example.com', message: 'A message the admin samples address.' },
  })
  expect(message.status).toBe(201)
  const messageId = message.body.data.id as string

  const ownerThings = await memberWithThings(`owner-secret-${Date.now()}`)
  owner = ownerThings.m
  ownerIds = { userId: owner.user.id, folderId: ownerThings.folderId, playEventId: ownerThings.playEventId, messageId, playlistId: ownerThings.playlistId }
  ownerMarkers = [owner.email, owner.username, 'owner-secret']
  const victim = await memberWithThings(`victim-${Date.now()}`)
  victimIds = { userId: victim.m.user.id, folderId: victim.folderId, playEventId: victim.playEventId, messageId, playlistId: victim.playlistId }
  const l = await createMember(server.url)
  loginUser = { email: l.email, password: l.password }
})
afterAll(async () => {
  await server?.stop()
})

// --- calling one route or procedure ----------------------------------------------------------

function sampleFor(info: RestRouteInfo, ids: Ids) {
  const sample = SAMPLES[info.key](ids)
  // The login sample signs in a third member, never the owner (whose data would then be due).
  return info.key === 'POST /auth/login' ? { ...sample, body: loginUser } : sample
}

type Addressing = 'direct' | 'nested' | false

/** Whether a request names the owner's folder or play event: as a path param or top-level field, or deeper. */
function addressing(direct: unknown[], whole: unknown): Addressing {
  const owned = [ownerIds.folderId, ownerIds.playEventId, ownerIds.playlistId]
  if (direct.some((v) => owned.includes(v as string))) return 'direct'
  const text = JSON.stringify(whole ?? null)
  return owned.some((id) => text.includes(id)) ? 'nested' : false
}
const topLevel = (v: unknown) => (v && typeof v === 'object' ? Object.values(v) : [])

async function callRest(info: RestRouteInfo, ids: Ids, token: string | undefined): Promise<Answer & { addressesOwner: Addressing }> {
  const sample = sampleFor(info, ids)
  const query = new URLSearchParams(sample.query).toString()
  const res = await api(server.url, info.route.method, `${fillPath(info.route.path, sample.params)}${query ? `?${query}` : ''}`, { token, body: sample.body })
  const addressesOwner = addressing([...Object.values(sample.params ?? {}), ...topLevel(sample.body)], sample)
  return { status: res.status, body: res.body, text: JSON.stringify(res.body), addressesOwner }
}

/** A valid input per procedure: the one its REST route sends, or its own sample. */
function procedureInput(proc: ProcedureInfo, ids: Ids): { found: boolean; input?: unknown } {
  if (proc.path in TRPC_ONLY_SAMPLES) return { found: true, input: TRPC_ONLY_SAMPLES[proc.path](ids) }
  for (const info of surface.routes) {
    if (!info.procedures.includes(proc.path) || !(info.key in SAMPLES)) continue
    const call = sampleInputs(info, sampleFor(info, ids)).find((c) => c.procedure === proc.path)
    if (call) return { found: true, input: call.input }
  }
  return { found: false }
}

async function callTrpc(proc: ProcedureInfo, ids: Ids, token: string | undefined): Promise<Answer & { addressesOwner: Addressing }> {
  const { input } = procedureInput(proc, ids)
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
  const encoded = input === undefined ? undefined : JSON.stringify(superjson.serialize(input))
  const res =
    proc.type === 'query'
      ? await fetch(`${server.url}/api/trpc/${proc.path}${encoded ? `?input=${encodeURIComponent(encoded)}` : ''}`, { headers })
      : await fetch(`${server.url}/api/trpc/${proc.path}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: encoded ?? '{}',
        })
  const text = await res.text()
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  return { status: res.status, body, text, addressesOwner: addressing(topLevel(input), input) }
}

/** What an answer must look like whatever the caller: JSON, no fault, no leak. */
function basicProblems(where: string, kind: 'rest' | 'trpc', a: Answer): string[] {
  const problems: string[] = []
  if (a.status >= 500) problems.push(`${where}: ${a.status} ${a.text.slice(0, 200)}`)
  const leak = leakIn(a.text)
  if (leak) problems.push(`${where}: answer leaks ${leak}: ${a.text.slice(0, 200)}`)
  if (kind === 'rest' && (typeof a.body !== 'object' || typeof a.body?.success !== 'boolean'))
    problems.push(`${where}: not a JSON envelope: ${a.text.slice(0, 200)}`)
  if (kind === 'trpc' && a.status >= 400 && a.body?.error?.json?.data?.httpStatus !== a.status)
    problems.push(`${where}: not a tRPC error: ${a.text.slice(0, 200)}`)
  return problems
}

const errorOf = (kind: 'rest' | 'trpc', a: Answer) => (kind === 'rest' ? a.body?.error : a.body?.error?.json?.message)

/** `info`: the REST route asked (none for a procedure). */
type Expectation = (tier: ProcedureInfo['tier'], a: Answer & { addressesOwner: Addressing }, kind: 'rest' | 'trpc', info?: RestRouteInfo) => string | null

/** Runs every REST route and every procedure as one caller; returns what broke the expectation. */
async function sweep(caller: Caller | null, ids: Ids, expectation: Expectation): Promise<string[]> {
  const problems: string[] = []
  for (const info of surface.routes) {
    const a = await callRest(info, ids, caller?.token())
    const where = `${caller?.name ?? 'anonymous'} ${info.key} (${info.tier})`
    problems.push(...basicProblems(where, 'rest', a))
    const wrong = expectation(info.tier, a, 'rest', info)
    if (wrong) problems.push(`${where}: ${wrong} — got ${a.status} ${a.text.slice(0, 160)}`)
    await caller?.refresh()
  }
  for (const proc of surface.procedures) {
    const a = await callTrpc(proc, ids, caller?.token())
    const where = `${caller?.name ?? 'anonymous'} trpc ${proc.path} (${proc.tier})`
    problems.push(...basicProblems(where, 'trpc', a))
    const wrong = expectation(proc.tier, a, 'trpc')
    if (wrong) problems.push(`${where}: ${wrong} — got ${a.status} ${a.text.slice(0, 160)}`)
    await caller?.refresh()
  }
  return problems
}

const reached = (a: Answer) => a.status !== 401 && a.status !== 403
const mustNotLeakOwner = (a: Answer) => {
  const marker = ownerMarkers.find((m) => a.text.includes(m))
  return marker ? `answer holds the owner's "${marker}"` : null
}

// --- the matrix ----------------------------------------------------------------------------

describe('the matrix covers the whole API', () => {
  test('every REST route has a sample request and every procedure a sample input; none is stale', () => {
    const keys = surface.routes.map((r) => r.key)
    expect(keys.filter((k) => !(k in SAMPLES))).toEqual([])
    expect(Object.keys(SAMPLES).filter((k) => !keys.includes(k))).toEqual([])
    const ids: Ids = { userId: 'u', folderId: 'f', playEventId: 'p', messageId: 'm', playlistId: 'l' }
    expect(surface.procedures.filter((p) => !procedureInput(p, ids).found).map((p) => p.path)).toEqual([])
    const reachedByRest = new Set(surface.routes.flatMap((r) => r.procedures))
    expect(Object.keys(TRPC_ONLY_SAMPLES).filter((p) => reachedByRest.has(p) || !surface.procedures.some((q) => q.path === p))).toEqual([])
  })

  test('tiers read from the middlewares agree with the rule: /admin, /analytics and the health panels are admin-only', () => {
    const tiers = new Set(surface.procedures.map((p) => p.tier))
    expect([...tiers].sort()).toEqual(['admin', 'protected', 'public'])
    const adminOnly = surface.routes.filter((r) => /^\/(admin|analytics)\/|^\/health\/(metrics|system)$/.test(r.route.path))
    expect(adminOnly.length).toBeGreaterThan(20)
    expect(adminOnly.filter((r) => r.tier !== 'admin').map((r) => r.key)).toEqual([])
    expect(surface.routes.filter((r) => r.route.path.startsWith('/user/')).every((r) => r.tier === 'protected')).toBe(true)
    expect(surface.routes.find((r) => r.key === routeKey({ method: 'POST', path: '/auth/login' }))?.tier).toBe('public')
  })
})

// Each sweep calls every route and procedure, or every /rest method, one after another (each wrong
// password costs an argon2id check): half a minute on an idle machine, up to two minutes on a busy
// one. Its time limit is generous because a test that times out takes the server down with it and
// fails every test after it.
describe('each caller gets the answer of its tier', () => {
  test('anonymous: 401 "No authentication token found. Please log in again." (or the path\'s own message) on every protected and admin call; public calls answer', async () => {
    const problems = await sweep(null, ownerIds, (tier, a, kind, info) => {
      if (tier === 'public') return reached(a) ? mustNotLeakOwner(a) : 'a public call refused an anonymous caller'
      const expected = info?.route.noTokenMessage ?? 'No authentication token found. Please log in again.'
      return a.status === 401 && errorOf(kind, a) === expected ? null : `expected 401 "${expected}"`
    })
    expect(problems).toEqual([])
  }, 240_000)

  test('a forged token: 401 "Authentication token is invalid or expired" on every protected and admin call', async () => {
    const forged = { name: 'forged token', token: () => 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOiJ4In0.bm90LWEtc2lnbmF0dXJl', refresh: async () => {} }
    const problems = await sweep(forged, ownerIds, (tier, a, kind) => {
      if (tier === 'public') return a.status >= 500 ? 'server fault' : mustNotLeakOwner(a)
      return a.status === 401 && errorOf(kind, a) === 'Authentication token is invalid or expired' ? null : 'expected 401 for the forged token'
    })
    expect(problems).toEqual([])
  }, 240_000)

  test('another member: 403 on admin calls, 404 for the owner’s folder, play event and private playlist, never the owner’s data, and the owner’s things unchanged', async () => {
    const before = await ownerSnapshot()
    const caller = memberCaller('other member', await createMember(server.url))
    const problems = await sweep(caller, ownerIds, (tier, a, kind) => {
      if (tier === 'admin') return a.status === 403 && errorOf(kind, a) === 'Admin access required' ? null : 'expected 403 "Admin access required"'
      if (!reached(a)) return `a ${tier} call refused a signed-in member`
      if (a.addressesOwner === 'direct') return a.status === 404 ? null : 'expected 404 for the owner’s id'
      if (a.addressesOwner === 'nested' && a.status < 400) return 'accepted a request naming the owner’s id'
      return mustNotLeakOwner(a)
    })
    expect(problems).toEqual([])
    expect(await ownerSnapshot()).toEqual(before)
  }, 240_000)

  test('the owner: every member call reaches its procedure; admin calls are 403', async () => {
    const caller = memberCaller('owner', owner, (m) => (owner = m))
    const problems = await sweep(caller, ownerIds, (tier, a, kind) => {
      if (tier === 'admin') return a.status === 403 && errorOf(kind, a) === 'Admin access required' ? null : 'expected 403 "Admin access required"'
      return reached(a) ? null : `a ${tier} call refused its owner`
    })
    expect(problems).toEqual([])
  }, 240_000)

  test('an admin reaches every call (addressing another member’s things), and the server is healthy afterwards', async () => {
    let token = await loginAdmin(server.url)
    const caller: Caller = {
      name: 'admin',
      token: () => token,
      refresh: async () => {
        if ((await api(server.url, 'GET', '/auth/session', { token })).status !== 200) token = await loginAdmin(server.url)
      },
    }
    const problems = await sweep(caller, victimIds, (_tier, a) => (reached(a) ? null : 'an admin was refused'))
    expect(problems).toEqual([])

    expect((await api(server.url, 'GET', '/health')).status).toBe(200)
    expect((await api(server.url, 'POST', '/auth/login', { body: loginUser })).status).toBe(200)
    expect(await sqlOn(server, 'SELECT count(*) AS n FROM server_errors')).toEqual([{ n: 0 }])
  }, 240_000)
})

/** What another member must not be able to change: the owner's folders, likes and play event. */
async function ownerSnapshot() {
  owner = await reLogin(owner)
  const folders = await api(server.url, 'GET', '/user/folders', { token: owner.token })
  const likes = await api(server.url, 'GET', '/playlist/likes', { token: owner.token })
  const [play] = await sqlOn(server, 'SELECT * FROM play_events WHERE id = ?', [ownerIds.playEventId])
  const playlists = await sqlOn(server, 'SELECT * FROM playlists WHERE user_id = ?', [owner.user.id])
  return { folders: folders.body, likes: likes.body, play, playlists }
}

// --- /rest: the OpenSubsonic API --------------------------------------------------------------
// Every method the handler knows (read from its tables), as anonymous, with wrong credentials of
// each kind, as the owner, as another member addressing the owner's playlists and folders, and as
// an admin. Subsonic answers HTTP 200 with an error code: 10 for missing credentials, 40 for a wrong
// password, 41 for token authentication, 44 for a wrong app key, 50 for a member on an admin
// method or another member's playlist, 70 for what the caller may not see; never a server fault.

const restMethods = await loadRestMethods()

type RestCaller = { name: string; key: string; ids: RestIds }

describe('/rest: every OpenSubsonic method, by caller', () => {
  let owner: RestCaller & { email: string; publicPlaylistId: string; create: (name: string) => Promise<string>; label: string }
  let other: RestCaller
  let admin: RestCaller
  /** What only the owner's own answers may hold: names and ids of the owner's private things. */
  let privateMarkers: string[]

  const rest = (method: string, params: RestParams, opts: { post?: boolean } = {}) => restCall(server.url, method, params, opts)
  const asCaller = (c: RestCaller, method: string, params: RestParams, opts: { post?: boolean } = {}) => rest(method, { apiKey: c.key, ...params }, opts)

  async function appKey(token: string, password: string) {
    const created = await api(server.url, 'POST', '/user/app-keys', { token, body: { name: 'Matrix app', currentPassword: password } })
    expect(created.status).toBe(201)
    return created.body.data.key as string
  }

  /** A caller with an app key, a library folder, a kept and a scratch playlist and a saved queue. */
  async function restCaller(
    name: string,
    token: string,
    password: string,
    username: string,
    label: string,
    library: Omit<RestIds, 'username' | 'playlistId' | 'scratchPlaylistId' | 'folderId'>,
  ) {
    const key = await appKey(token, password)
    const folder = await api(server.url, 'POST', '/user/folders', { token, body: { label: `${label} folder`, path: '/rest-lib' } })
    expect(folder.status).toBe(201)
    const create = async (listName: string, extra: RestParams = {}) => {
      const made = await rest('createPlaylist', { apiKey: key, f: 'json', name: listName, songId: library.songId, ...extra })
      expect(made.ok).toBe(true)
      return JSON.parse(made.text)['subsonic-response'].playlist.id as string
    }
    const playlistId = await create(`${label} list`)
    const scratchPlaylistId = await create(`${label} scratch`)
    expect((await rest('savePlayQueue', { apiKey: key, id: library.songId, current: library.songId, position: '1000', c: `${label} device` })).ok).toBe(true)
    return { name, key, ids: { ...library, username, playlistId, scratchPlaylistId, folderId: folder.body.data.id as string }, create }
  }

  beforeAll(async () => {
    const adminToken = await loginAdmin(server.url)
    makeTone(path.join(server.mediaRoot, 'rest-lib/Ada/Dawn/1 First Light.mp3'), {
      artist: 'Ada',
      album: 'Dawn',
      genre: 'Rock',
      title: 'First Light',
      seconds: 1,
      cover: true,
    })
    makeTone(path.join(server.mediaRoot, 'rest-lib/Ada/Dawn/2 Love.mp3'), { artist: 'Ada', album: 'Dawn', genre: 'Rock', title: 'Love', seconds: 1 })
    await scanLibraryNow(server.url, adminToken)
    const adminKey = await appKey(adminToken, ADMIN.password)
    const found = JSON.parse((await rest('search3', { apiKey: adminKey, f: 'json', query: 'First Light' })).text)['subsonic-response'].searchResult3
    const song = found.song[0]
    const library = { songId: song.id, albumId: song.albumId, artistId: song.artistId, artistName: 'Ada', genre: 'Rock' }

    const label = `owner-rest-secret-${Date.now()}`
    const a = await createMember(server.url)
    const aCaller = await restCaller('owner', a.token, a.password, a.username, label, library)
    const publicPlaylistId = await aCaller.create('Shared mix', { public: 'true' })
    expect((await rest('updatePlaylist', { apiKey: aCaller.key, playlistId: publicPlaylistId, public: 'true' })).ok).toBe(true)
    owner = { ...aCaller, email: a.email, publicPlaylistId, label }
    privateMarkers = [label, a.email, aCaller.ids.playlistId, aCaller.ids.scratchPlaylistId, aCaller.ids.folderId]

    const b = await createMember(server.url)
    other = await restCaller('other member', b.token, b.password, b.username, `other-rest-${Date.now()}`, library)
    const adminUser = (await api(server.url, 'GET', '/auth/session', { token: adminToken })).body.data.user
    admin = await restCaller('admin', adminToken, ADMIN.password, adminUser.username, `admin-rest-${Date.now()}`, library)
  })

  /** What every /rest answer must be: HTTP 200 (bytes or a subsonic-response), no fault, no leak. */
  function restProblems(where: string, a: RestAnswer): string[] {
    const problems: string[] = []
    if (a.status >= 500) problems.push(`${where}: ${a.status} ${a.text.slice(0, 200)}`)
    else if (a.ok === null && !/^(audio|image|video)\//.test(a.contentType))
      problems.push(`${where}: not a subsonic-response: ${a.status} ${a.text.slice(0, 200)}`)
    else if (a.ok !== null && a.status !== 200) problems.push(`${where}: envelope with HTTP ${a.status}`)
    const leak = leakIn(a.text)
    if (leak) problems.push(`${where}: answer leaks ${leak}`)
    return problems
  }
  const failedWith = (a: RestAnswer, code: number) => a.ok === false && a.code === code

  test('the table is read from the handler: implemented, public and not-implemented methods, and every sample names a known method', () => {
    expect(restMethods.implemented.length).toBeGreaterThan(40)
    expect(restMethods.implemented).toEqual(expect.arrayContaining(['getPlaylists', 'getPlaylist', 'getPlayQueue', 'stream', ...REST_ADMIN_ONLY]))
    expect(restMethods.publicMethods).toEqual(['getOpenSubsonicExtensions'])
    expect(Object.keys(REST_SAMPLES).filter((m) => !restMethods.implemented.includes(m))).toEqual([])
  })

  test('anonymous: error 10 on every implemented method, the public one answers, the rest "not implemented"; never a fault', async () => {
    const problems: string[] = []
    for (const method of restMethods.all) {
      for (const post of [false, true]) {
        const a = await rest(method, restSample(method, owner.ids), { post })
        const where = `anonymous ${post ? 'POST' : 'GET'} ${method}`
        problems.push(...restProblems(where, a))
        const expected = restMethods.publicMethods.includes(method)
          ? a.ok === true
          : restMethods.implemented.includes(method)
            ? failedWith(a, 10)
            : failedWith(a, 0)
        if (!expected) problems.push(`${where}: got ${a.status} ${a.text.slice(0, 200)}`)
      }
    }
    expect(problems).toEqual([])
  }, 60_000)

  test('wrong credentials: 44 for a wrong app key, 40 for a wrong password, 41 for a token, on every implemented method', async () => {
    const wrong: Array<{ name: string; params: RestParams; code: number }> = [
      { name: 'wrong app key', params: { apiKey: 'vibes_not-a-real-key' }, code: 44 },
      { name: 'wrong password', params: { u: owner.ids.username, p: 'not-the-password' }, code: 40 },
      { name: 'token and salt', params: { u: owner.ids.username, t: '26719a1196d2a940705a59634eb18eab', s: 'c19b2d' }, code: 41 },
      { name: 'key and user', params: { apiKey: owner.key, u: owner.ids.username }, code: 43 },
    ]
    const problems: string[] = []
    for (const method of restMethods.all) {
      for (const w of wrong) {
        const a = await rest(method, { ...restSample(method, owner.ids), ...w.params })
        const where = `${w.name} ${method}`
        problems.push(...restProblems(where, a))
        if (a.ok === true && !restMethods.publicMethods.includes(method)) problems.push(`${where}: answered ok`)
        if (restMethods.implemented.includes(method) && !failedWith(a, w.code)) problems.push(`${where}: expected error ${w.code}, got ${a.text.slice(0, 200)}`)
        for (const m of privateMarkers) if (a.text.includes(m)) problems.push(`${where}: answer holds the owner's "${m}"`)
      }
    }
    expect(problems).toEqual([])
  }, 300_000)

  test('the owner: every method reaches its work (no credential or permission error), admin-only methods are error 50', async () => {
    const problems: string[] = []
    for (const method of restMethods.implemented) {
      const a = await asCaller(owner, method, restSample(method, owner.ids))
      const where = `owner ${method}`
      problems.push(...restProblems(where, a))
      if (REST_ADMIN_ONLY.includes(method)) {
        if (!failedWith(a, 50)) problems.push(`${where}: expected error 50, got ${a.text.slice(0, 200)}`)
      } else if (a.ok === false && [10, 40, 41, 43, 44, 50].includes(a.code ?? -1)) problems.push(`${where}: refused its owner: ${a.text.slice(0, 200)}`)
    }
    expect(problems).toEqual([])
    // The owner's own things are theirs to read.
    expect((await asCaller(owner, 'getPlaylist', { id: owner.ids.playlistId })).ok).toBe(true)
    expect((await asCaller(owner, 'getPlaylist', { id: owner.ids.folderId })).ok).toBe(true)
    // The deletePlaylist sample took the scratch playlist: a new one for the next caller to aim at.
    expect((await asCaller(owner, 'getPlaylist', { id: owner.ids.scratchPlaylistId })).code).toBe(70)
    owner.ids.scratchPlaylistId = await owner.create(`${owner.label} scratch`)
    privateMarkers.push(owner.ids.scratchPlaylistId)
    // And the owner's queue as the owner left it (the savePlayQueue sample replaced it).
    const queue = { id: owner.ids.songId, current: owner.ids.songId, position: '4242', c: `${owner.label} device` }
    expect((await asCaller(owner, 'savePlayQueue', queue)).ok).toBe(true)
    // And a play just now, which getNowPlaying shows the owner (with the owner's name).
    expect((await asCaller(owner, 'scrobble', { id: owner.ids.songId, c: `${owner.label} app` })).ok).toBe(true)
    expect((await asCaller(owner, 'getNowPlaying', {})).text).toContain(owner.ids.username)
  }, 60_000)

  /** What another member must not change: the owner's playlists (each with its songs) and play queue. */
  async function ownerRestSnapshot() {
    const json = async (method: string, params: RestParams = {}) =>
      JSON.parse((await asCaller(owner, method, { f: 'json', ...params })).text)['subsonic-response']
    const ids = [owner.ids.playlistId, owner.ids.scratchPlaylistId, owner.publicPlaylistId, owner.ids.folderId]
    return {
      playlists: await json('getPlaylists'),
      each: await Promise.all(ids.map((id) => json('getPlaylist', { id }))),
      queue: await json('getPlayQueue'),
    }
  }

  test("another member with the owner's ids: never the owner's private playlists, folders or queue, and nothing of the owner's changes", async () => {
    const before = await ownerRestSnapshot()
    expect(before.each.map((p: { status: string }) => p.status)).toEqual(['ok', 'ok', 'ok', 'ok'])
    expect(before.queue.playQueue.position).toBe(4242)
    const problems: string[] = []
    const targets = [
      { name: 'private playlist', id: owner.ids.playlistId },
      { name: 'scratch playlist', id: owner.ids.scratchPlaylistId },
      { name: 'folder', id: owner.ids.folderId },
      { name: 'public playlist', id: owner.publicPlaylistId },
    ]
    for (const method of [...restMethods.implemented, ...restMethods.notImplemented]) {
      const sample = restSample(method, other.ids)
      const attempts: Array<{ name: string; params: RestParams; post?: boolean }> = [
        ...targets.flatMap((t) => [
          { name: t.name, params: { ...sample, id: t.id, playlistId: t.id } },
          {
            name: `${t.name} (form)`,
            params: { ...sample, id: t.id, playlistId: t.id, songIdToAdd: other.ids.songId, songIndexToRemove: '0', name: 'Taken' },
            post: true,
          },
        ]),
        { name: "owner's username", params: { ...sample, username: owner.ids.username } },
      ]
      for (const attempt of attempts) {
        const a = await asCaller(other, method, attempt.params, { post: attempt.post })
        const where = `other member ${method} → ${attempt.name}`
        problems.push(...restProblems(where, a))
        for (const m of privateMarkers) if (a.text.includes(m)) problems.push(`${where}: answer holds the owner's "${m}"`)
        // The owner's name is shown only as the owner of the public playlist.
        const showsPublicPlaylist = method === 'getPlaylists' || attempt.name.startsWith('public playlist')
        if (!showsPublicPlaylist && a.text.includes(owner.ids.username)) problems.push(`${where}: answer holds the owner's username`)
        if (a.text.includes('4242')) problems.push(`${where}: answer holds the owner's queue position`)
      }
    }
    // The refusals the spec names, one by one.
    const refused = async (method: string, params: RestParams, codes: number[]) => {
      const a = await asCaller(other, method, params)
      if (a.ok !== false || !codes.includes(a.code ?? -1))
        problems.push(`other member ${method} ${JSON.stringify(params)}: expected error ${codes.join('/')}, got ${a.text.slice(0, 200)}`)
    }
    await refused('getPlaylist', { id: owner.ids.playlistId }, [70])
    await refused('getPlaylist', { id: owner.ids.folderId }, [70])
    await refused('getPlaylists', { username: owner.ids.username }, [50])
    await refused('getUser', { username: owner.ids.username }, [50])
    for (const id of [owner.ids.playlistId, owner.publicPlaylistId]) {
      await refused('updatePlaylist', { playlistId: id, name: 'Taken' }, [50, 70])
      await refused('createPlaylist', { playlistId: id, songId: other.ids.songId }, [50, 70])
      await refused('deletePlaylist', { id }, [50, 70])
    }
    await refused('deletePlaylist', { id: owner.ids.folderId }, [50, 70])
    expect(problems).toEqual([])
    expect(await ownerRestSnapshot()).toEqual(before)
  }, 180_000)

  test('an admin reaches every method, admin-only ones included', async () => {
    const problems: string[] = []
    for (const method of restMethods.implemented) {
      const a = await asCaller(admin, method, restSample(method, admin.ids))
      const where = `admin ${method}`
      problems.push(...restProblems(where, a))
      if (a.ok === false && [10, 40, 41, 43, 44, 50].includes(a.code ?? -1)) problems.push(`${where}: refused: ${a.text.slice(0, 200)}`)
    }
    expect(problems).toEqual([])
  }, 60_000)
})
