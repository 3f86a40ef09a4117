// The whole API as data, read from the code itself: every REST route of the route table and every
// procedure of the tRPC router, each with its tier (public / protected / admin) and, for REST, the
// procedures it calls. The hostile sweep and the authorization matrix iterate over this, so a new
// path or procedure is tested the day it is added. A valid sample request per REST route (below)
// lets the matrix reach the ownership checks; a test asserts every route has one.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { RestRoute } from '~/server/rest/define'

export type Tier = 'public' | 'protected' | 'admin'
export type ProcedureInfo = { path: string; type: 'query' | 'mutation'; tier: Tier }
export type RestRouteInfo = { route: RestRoute; key: string; procedures: string[]; tier: Tier }

type ProcedureDef = { _def: { type: 'query' | 'mutation' | 'subscription'; middlewares: unknown[] } }

/** Loads the router and route table in this process (config needs a DATA_DIR; a temporary one). */
export async function loadApiSurface() {
  process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vibes-surface-'))
  const [{ appRouter }, { restRoutes }, init] = await Promise.all([import('~/server/trpc/root'), import('~/server/rest/routes'), import('~/server/trpc/init')])

  // The tier is read from the middlewares a procedure was built with: protectedProcedure's own,
  // and the ones adminProcedure adds on top of it.
  const protectedMw = (init.protectedProcedure as unknown as ProcedureDef)._def.middlewares
  const adminMw = (init.adminProcedure as unknown as ProcedureDef)._def.middlewares.filter((m) => !protectedMw.includes(m))
  const tierOf = (p: ProcedureDef): Tier => {
    const has = (mws: unknown[]) => mws.length > 0 && mws.every((m) => p._def.middlewares.includes(m))
    return has(adminMw) ? 'admin' : has(protectedMw) ? 'protected' : 'public'
  }

  const procedureDefs = (appRouter as unknown as { _def: { procedures: Record<string, ProcedureDef> } })._def.procedures
  const procedures: ProcedureInfo[] = Object.entries(procedureDefs).map(([name, p]) => {
    if (p._def.type === 'subscription') throw new Error(`${name}: subscriptions are not swept yet`)
    return { path: name, type: p._def.type, tier: tierOf(p) }
  })
  const byPath = new Map(procedures.map((p) => [p.path, p]))

  const routes: RestRouteInfo[] = restRoutes.map((route) => {
    const key = routeKey(route)
    const called = proceduresCalledBy(route)
    if (called.length === 0) throw new Error(`${key} calls no procedure`)
    const tiers = new Set(called.map((name) => byPath.get(name)?.tier))
    if (tiers.size !== 1 || tiers.has(undefined)) throw new Error(`${key} reaches procedures of tiers ${[...tiers].join(', ')}`)
    return { route, key, procedures: called, tier: [...tiers][0]! }
  })
  return { procedures, routes }
}

export const routeKey = (route: Pick<RestRoute, 'method' | 'path'>) => `${route.method} ${route.path}`

export type RecordedCall = { procedure: string; input: unknown }

/** A stand-in caller that records which procedure a route calls, with which input. */
export function recordingCaller(calls: RecordedCall[]) {
  const node = (names: string[]): unknown =>
    new Proxy(() => {}, {
      get: (_, key) => (typeof key === 'string' ? node([...names, key]) : undefined),
      apply: (_, __, args) => {
        calls.push({ procedure: names.join('.'), input: args[0] })
        return Promise.resolve({})
      },
    })
  return node([]) as never
}

/** Every procedure a route may call: a GET route is also asked as HEAD (hits answers those with a read). */
function proceduresCalledBy(route: RestRoute): string[] {
  const calls: RecordedCall[] = []
  const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]
  for (const method of methods) {
    const request = new Request(`http://surface.test/api${route.path}`, { method })
    void route.call(recordingCaller(calls), { params: new Proxy({}, { get: () => 'x' }), query: {}, body: {}, request })
  }
  return [...new Set(calls.map((c) => c.procedure))]
}

/** The ids the sample requests point at: one user's own things. */
export type Ids = { userId: string; folderId: string; playEventId: string; messageId: string; playlistId: string }
export type Sample = { params?: Record<string, string>; query?: Record<string, string>; body?: unknown }

let unique = 0
const fresh = () => `${Date.now().toString(36)}${(unique++).toString(36)}`

/**
 * A valid request for every REST route, addressed at `ids`. The matrix sends these as each caller;
 * the sweep mutates them. A route added to the table without a sample fails the coverage test.
 */
export const SAMPLES: Record<string, (ids: Ids) => Sample> = {
  'POST /auth/signup': () => ({ body: { username: `sample${fresh()}`, email: `sample${fresh()}@example.com`, password: 'tune-in-2-vibes' } }),
  'POST /auth/login': () => ({ body: { email: 'nobody@example.com', password: 'password123' } }),
  'POST /auth/logout': () => ({}),
  'POST /auth/forgot-password': () => ({ body: { email: 'nobody@example.com' } }),
  'POST /auth/reset-password/:token': () => ({ params: { token: 'no-such-reset-token' }, body: { password: 'password456' } }),
  'GET /auth/session': () => ({}),
  'GET /health': () => ({ query: { t: '1' } }),
  'GET /health/auth': () => ({}),
  'GET /health/system': () => ({}),
  'GET /health/metrics': () => ({}),
  'POST /contact': () => ({ body: { fullName: 'Sample Sender', email: 'sender@example.com', message: 'A sample message for the inbox.' } }),
  'GET /charts/:region': () => ({ params: { region: 'us' } }),
  'GET /hits/page-hits': () => ({ query: { page: 'about' } }),
  'GET /user/folders': () => ({}),
  'POST /user/folders': () => ({ body: { label: 'Sample folder', path: '/sample' } }),
  'PUT /user/folders/reorder': (ids) => ({ body: { folderIds: [ids.folderId] } }),
  'PATCH /user/folders/:id': (ids) => ({ params: { id: ids.folderId }, body: { label: 'Renamed folder', path: '/sample' } }),
  'DELETE /user/folders/:id': (ids) => ({ params: { id: ids.folderId } }),
  'GET /user/folders/:id/playlist': (ids) => ({ params: { id: ids.folderId } }),
  // A loopback URL: refused by the address policy without any network call.
  'GET /playlist': () => ({ query: { url: 'http://127.0.0.1:9/list.m3u' } }),
  'POST /playlist/plays': () => ({ body: { trackUrl: 'https://nas.example.com/a.mp3', title: 'Sample track', duration: 10 } }),
  'PUT /playlist/plays/:id': (ids) => ({ params: { id: ids.playEventId }, body: { completed: true, listenDuration: 5 } }),
  'POST /playlist/interactions': () => ({ body: { trackId: 'https://nas.example.com/a.mp3', interactionType: 'share' } }),
  'GET /playlist/likes': () => ({}),
  'PUT /playlist/likes': () => ({ body: { title: 'Sample track', liked: true } }),
  'GET /playlist/queue': () => ({}),
  'PUT /playlist/queue': () => ({
    body: { tracks: [{ url: 'https://nas.example.com/a.mp3', title: 'Sample track', duration: 10 }], index: 0, positionSec: 3, device: 'Sample device' },
  }),
  'GET /library/search': () => ({ query: { q: 'sample', limit: '10' } }),
  'GET /library/albums': () => ({ query: { sort: 'name', limit: '10' } }),
  'GET /library/albums/:id': () => ({ params: { id: 'no-such-album' } }),
  'GET /library/artists': () => ({ query: { limit: '10' } }),
  'GET /library/artists/:id': () => ({ params: { id: 'no-such-artist' } }),
  'GET /library/genres': () => ({}),
  'GET /library/songs': () => ({ query: { sort: 'title', limit: '10' } }),
  'GET /library/folders': () => ({ query: { path: '/' } }),
  'GET /library/liked': () => ({}),
  'GET /library/lyrics': () => ({ query: { url: '/media/no/such.mp3' } }),
  'GET /library/ratings': () => ({}),
  'PUT /library/ratings': () => ({ body: { id: 'no-such-song', rating: 3 } }),
  'GET /library/bookmarks': () => ({ query: { url: '/media/no/such-song.mp3' } }),
  'PUT /library/bookmarks': () => ({ body: { url: '/media/no/such-song.mp3', positionMs: 1000 } }),
  'DELETE /library/bookmarks': () => ({ query: { url: '/media/no/such-song.mp3' } }),
  'GET /user/app-keys': () => ({}),
  'POST /user/app-keys': () => ({ body: { name: 'Sample app', currentPassword: 'not-the-password' } }),
  'DELETE /user/app-keys/:id': () => ({ params: { id: 'no-such-app-key' } }),
  'GET /user/scrobbling': () => ({}),
  // Not a token's shape: refused before the server would call ListenBrainz.
  'POST /user/scrobbling/listenbrainz': () => ({ body: { token: 'not a token!' } }),
  'POST /user/scrobbling/lastfm/start': () => ({}),
  'POST /user/scrobbling/lastfm': () => ({ body: { token: 'sampletoken', state: 'not-a-state' } }),
  'DELETE /user/scrobbling/:service': () => ({ params: { service: 'listenbrainz' } }),
  'GET /user/shares': () => ({}),
  'POST /user/shares': () => ({ body: { target: { kind: 'album', id: 'no-such-album' }, expiresIn: '1d' } }),
  'DELETE /user/shares/:id': () => ({ params: { id: 'AAAAAAAAAAAAAAAAAAAAAAAA' } }),
  // Not a station: the lookups answer 404, no station is changed; the new one is a public address literal, never contacted.
  'GET /radio/stations': () => ({}),
  'GET /radio/stations/:id/now-playing': () => ({ params: { id: 'no-such-station' } }),
  'PUT /radio/stations/:id/favourite': () => ({ params: { id: 'no-such-station' }, body: { favourite: true } }),
  'POST /admin/radio/stations': () => ({ body: { name: 'Sample FM', streamUrl: 'http://93.184.215.14/stream' } }),
  'PUT /admin/radio/stations/:id': () => ({ params: { id: 'no-such-station' }, body: { name: 'Sample FM', streamUrl: 'http://93.184.215.14/stream' } }),
  'DELETE /admin/radio/stations/:id': () => ({ params: { id: 'no-such-station' } }),
  'GET /admin/library/scan': () => ({}),
  'POST /admin/library/scan': () => ({ body: { full: false } }),
  'GET /promotions': () => ({}),
  'GET /admin/users': () => ({}),
  'DELETE /admin/users/:id': (ids) => ({ params: { id: ids.userId } }),
  'PATCH /admin/users/:id/role': (ids) => ({ params: { id: ids.userId }, body: { isAdmin: false } }),
  'GET /admin/users/:id/folders': (ids) => ({ params: { id: ids.userId } }),
  'POST /admin/users/:id/folders': (ids) => ({ params: { id: ids.userId }, body: { label: 'Admin sample', path: '/sample' } }),
  'PATCH /admin/users/:userId/folders/:folderId': (ids) => ({
    params: { userId: ids.userId, folderId: ids.folderId },
    body: { label: 'Admin renamed', path: '/sample' },
  }),
  'DELETE /admin/users/:userId/folders/:folderId': (ids) => ({ params: { userId: ids.userId, folderId: ids.folderId } }),
  'POST /admin/folders/bulk-add': (ids) => ({ body: { label: 'Bulk sample', path: '/sample', userIds: [ids.userId] } }),
  'GET /admin/messages': () => ({ query: { filter: 'unread', limit: '10' } }),
  'GET /admin/messages/:id': (ids) => ({ params: { id: ids.messageId } }),
  'PATCH /admin/messages/:id': (ids) => ({ params: { id: ids.messageId }, body: { read: true } }),
  'DELETE /admin/messages/:id': (ids) => ({ params: { id: ids.messageId } }),
  'GET /admin/adverts': () => ({}),
  'PUT /admin/adverts': () => ({ body: { enabled: true, chancePercent: 30 } }),
  'POST /admin/promotions': () => ({
    body: {
      title: 'Sample',
      description: 'A sample promotion',
      linkUrl: '/about',
      imageUrl: '/promotions/charts.svg',
      backgroundColor: '#0c4a6e',
      textColor: '#f0f9ff',
    },
  }),
  'PATCH /admin/promotions/:id': () => ({ params: { id: 'no-such-promotion' }, body: { active: false } }),
  'DELETE /admin/promotions/:id': () => ({ params: { id: 'no-such-promotion' } }),
  'GET /admin/activity': () => ({ query: { limit: '5' } }),
  'GET /admin/audit': () => ({ query: { limit: '5' } }),
  'GET /admin/dashboard': () => ({}),
  'GET /admin/stats': () => ({ query: { forceFresh: 'true' } }),
  'GET /admin/stats/dau': () => ({}),
  'GET /admin/stats/top-tracks': () => ({ query: { days: '7', limit: '5' } }),
  'GET /admin/stats/user-activity-summary': () => ({ query: { fresh: 'true' } }),
  'GET /admin/stats/top-pages': () => ({ query: { days: '30', limit: '5' } }),
  'GET /admin/metrics/daily-activity': () => ({ query: { days: '30' } }),
  'GET /admin/analytics/hits': () => ({ query: { days: '30', page: 'about' } }),
  'DELETE /admin/clear/hit-data': () => ({}),
  'GET /admin/errors': () => ({ query: { hours: '1', limit: '10' } }),
  'GET /analytics/listening-overview': () => ({ query: { days: '7' } }),
  'GET /analytics/user-listening-behavior': () => ({ query: { days: '30', limit: '10' } }),
  'GET /analytics/listening-patterns': () => ({ query: { days: '7' } }),
  'GET /analytics/geographic-listening': () => ({ query: { days: '7' } }),
  'GET /analytics/playlist-analytics': () => ({ query: { days: '7', limit: '10' } }),
  'GET /analytics/user-engagement': () => ({ query: { days: '90' } }),
  // A wrong current password: the call reaches the confirmation and changes nothing (400).
  'PATCH /user/profile/username': () => ({ body: { username: `renamed${fresh()}`, currentPassword: 'not-the-password' } }),
  'PATCH /user/profile/email': () => ({ body: { email: `moved${fresh()}@example.com`, currentPassword: 'not-the-password' } }),
  'PUT /user/profile/password': () => ({ body: { currentPassword: 'not-the-password', newPassword: 'password456' } }),
  'GET /user/sessions': () => ({}),
  'DELETE /user/sessions/:id': () => ({ params: { id: 'no-such-session' } }),
  'GET /user/sign-ins': () => ({}),
  'DELETE /user/sign-ins/:provider/:subject': () => ({ params: { provider: 'oidc', subject: 'no-such-subject' } }),
  'DELETE /user/account': () => ({ body: { currentPassword: 'not-the-password' } }),
  'GET /user/playlists': () => ({}),
  'POST /user/playlists': () => ({ body: { name: 'Sample playlist', comment: 'A sample', public: false, trackIds: [] } }),
  'POST /user/playlists/import': () => ({ body: { name: 'Sample import', m3u8: '#EXTM3U\nsample/a.mp3\n' } }),
  'GET /user/playlists/:id': (ids) => ({ params: { id: ids.playlistId } }),
  'PATCH /user/playlists/:id': (ids) => ({ params: { id: ids.playlistId }, body: { name: 'Renamed playlist' } }),
  'DELETE /user/playlists/:id': (ids) => ({ params: { id: ids.playlistId } }),
  'GET /user/playlists/:id/m3u8': (ids) => ({ params: { id: ids.playlistId } }),
  'POST /user/playlists/:id/tracks': (ids) => ({ params: { id: ids.playlistId }, body: { trackIds: [] } }),
  'PUT /user/playlists/:id/tracks': (ids) => ({ params: { id: ids.playlistId }, body: { trackIds: [] } }),
  'DELETE /user/playlists/:id/tracks': (ids) => ({ params: { id: ids.playlistId }, body: { indexes: [0] } }),
  'POST /user/playlists/:id/tracks/move': (ids) => ({ params: { id: ids.playlistId }, body: { from: 0, to: 0 } }),
  // Podcasts: no feed is followed in the sweep; ids that look right reach the lookup (404), a
  // feed on loopback is refused by the address policy (400), so nothing is fetched.
  'GET /podcasts': () => ({}),
  'POST /podcasts': () => ({ body: { url: 'http://127.0.0.1:9/feed.xml' } }),
  'POST /podcasts/refresh': () => ({}),
  'GET /podcasts/settings': () => ({}),
  'PUT /podcasts/settings': () => ({ body: { feedsBy: 'everyone' } }),
  'GET /podcasts/:channelId': () => ({ params: { channelId: 'pc-0123456789abcdef' } }),
  'DELETE /podcasts/:channelId': () => ({ params: { channelId: 'pc-0123456789abcdef' } }),
  'POST /podcasts/:channelId/refresh': () => ({ params: { channelId: 'pc-0123456789abcdef' } }),
  'POST /podcasts/:channelId/visit': () => ({ params: { channelId: 'pc-0123456789abcdef' } }),
  'GET /podcasts/:channelId/episodes': () => ({ params: { channelId: 'pc-0123456789abcdef' }, query: { search: 'a', limit: '10' } }),
  'GET /podcasts/episodes/:episodeId': () => ({ params: { episodeId: 'pe-0123456789abcdef' } }),
  'PUT /podcasts/episodes/:episodeId/progress': () => ({ params: { episodeId: 'pe-0123456789abcdef' }, body: { positionMs: 1000 } }),
  'POST /podcasts/episodes/:episodeId/download': () => ({ params: { episodeId: 'pe-0123456789abcdef' } }),
  'DELETE /podcasts/episodes/:episodeId/download': () => ({ params: { episodeId: 'pe-0123456789abcdef' } }),
}

/** Inputs for procedures no REST route reaches (the REST samples supply the others). */
export const TRPC_ONLY_SAMPLES: Record<string, (ids: Ids) => unknown> = {
  'folders.byId': (ids) => ({ id: ids.folderId }),
  // The playlist page's first paint, read by its route loader during the server render.
  'playlists.opening': (ids) => ({ id: ids.playlistId }),
  'charts.defaultRegion': () => undefined,
  'shares.open': () => ({ id: 'AAAAAAAAAAAAAAAAAAAAAAAA' }),
  'shares.play': () => ({ id: 'AAAAAAAAAAAAAAAAAAAAAAAA', index: 0 }),
  // The web app's own picture; /api/user/avatar itself takes the upload (PUT) and DELETE.
  'profile.avatar': () => undefined,
  // The login page's sign-in buttons; the sign-in itself is a browser's trip through /auth, outside /api.
  'auth.signInOptions': () => undefined,
}

/** The URL path of a route with its params filled in (each encoded as one path segment). */
export function fillPath(routePath: string, params: Record<string, string> = {}, encode: (value: string) => string = encodeURIComponent): string {
  return routePath.replace(/:(\w+)/g, (_, key: string) => {
    if (!(key in params)) throw new Error(`no value for :${key} in ${routePath}`)
    return encode(params[key])
  })
}

/** The procedure inputs a route's sample request turns into, through the route's own call. */
export function sampleInputs(info: RestRouteInfo, sample: Sample): RecordedCall[] {
  const calls: RecordedCall[] = []
  const url = new URL(`http://surface.test/api${fillPath(info.route.path, sample.params)}`)
  for (const [k, v] of Object.entries(sample.query ?? {})) url.searchParams.append(k, v)
  const methods = info.route.method === 'GET' ? ['GET', 'HEAD'] : [info.route.method]
  for (const method of methods) {
    void info.route.call(recordingCaller(calls), {
      params: sample.params ?? {},
      query: sample.query ?? {},
      body: sample.body,
      request: new Request(url, { method }),
    })
  }
  return calls
}

// Signs of a leaked server fault: a stack frame, a source or dependency path, or the engine's own
// words for a crash (a TypeError or a stack overflow reported as if it were the client's mistake).
const LEAKS = [
  /\bat .{0,200}:\d+:\d+/,
  /\/src\//,
  /node_modules/,
  /\.tsx?:\d+/,
  /Maximum call stack size/,
  /is not a function|is not iterable|Cannot read propert|(undefined|null) is not an object|\((In|evaluating) '/,
]
/** The first sign of a leak in an answer's text, or undefined. */
export const leakIn = (text: string) => LEAKS.map((re) => re.exec(text)?.[0]).find(Boolean)
