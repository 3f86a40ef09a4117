// `bun run conformance:opensubsonic [schema-dir]`: every OpenSubsonic method the official OpenAPI
// schema describes, called on the real built server (a generated, scanned library; a member and
// an admin with app keys) with f=json, and each answer validated against that method's response
// schema with ajv — implemented methods and refusals alike (a refusal must be the schema's failed
// answer, with HTTP 200). Binary methods (stream, download, covers, avatars) are listed, not
// validated. Prints one line per method and `N valid, N invalid`; exits 1 on any invalid answer.
//
// The schema is not kept in this repository (it is another project's work): fetch
// opensubsonic/open-subsonic-api and give its `openapi/` folder as the argument or as
// OPENSUBSONIC_SCHEMA_DIR (default ../shared/opensubsonic-openapi/openapi). docs/decisions/068
// says why this is a script and which commit it was last run against.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import Ajv, { type ValidateFunction } from 'ajv'
import { adminEnv, api, createMember, loginAdmin } from '../tests/helpers/api'
import { makeTone } from '../tests/helpers/media'
import { scanLibraryNow } from '../tests/helpers/library-scan'
import { startServer } from '../tests/helpers/server'
import { startPodcastFeeds } from '../tests/helpers/podcast-feeds'

const root = path.resolve(import.meta.dir, '..')
const schemaDir = path.resolve(root, process.argv[2] ?? process.env.OPENSUBSONIC_SCHEMA_DIR ?? '../shared/opensubsonic-openapi/openapi')
if (!existsSync(path.join(schemaDir, 'openapi.json'))) {
  console.error(`No OpenSubsonic schema at ${schemaDir}: fetch opensubsonic/open-subsonic-api and pass its openapi/ folder.`)
  process.exit(2)
}

// Every schema file is registered under its own file URL, so the files' relative $refs resolve.
// OpenAPI 3.0 adds keywords JSON Schema does not know (nullable, example, externalDocs): ignored.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false })
function registerAll(dir: string) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) registerAll(file)
    else if (name.endsWith('.json') && file !== path.join(schemaDir, 'openapi.json')) {
      const schema = JSON.parse(readFileSync(file, 'utf8'))
      // Endpoint files are OpenAPI path items, not schemas: only their response schemas are used.
      if (!schema.get && !schema.post) ajv.addSchema({ ...schema, $id: pathToFileURL(file).href })
    }
  }
}
registerAll(schemaDir)

/** The JSON schema of a 200 answer, given inline or in a shared response file (both by $ref). */
function responseSchemaOf(response: { $ref?: string; content?: Record<string, { schema?: { $ref?: string } }> } | undefined, base: URL): string | undefined {
  if (response?.$ref) {
    const shared = new URL(response.$ref, base)
    return responseSchemaOf(JSON.parse(readFileSync(shared, 'utf8')), shared)
  }
  const ref = response?.content?.['application/json']?.schema?.$ref
  return ref && new URL(ref, base).href
}

type Endpoint = { method: string; responseSchema?: string; required: string[] }
const endpoints: Endpoint[] = readdirSync(path.join(schemaDir, 'endpoints'))
  .filter((name) => name.endsWith('.json'))
  .map((name) => {
    const file = path.join(schemaDir, 'endpoints', name)
    const get = JSON.parse(readFileSync(file, 'utf8')).get
    const required = (get?.parameters ?? []).filter((p: { required?: boolean }) => p.required).map((p: { name: string }) => p.name)
    return { method: name.slice(0, -'.json'.length), responseSchema: responseSchemaOf(get?.responses?.['200'], new URL(pathToFileURL(file).href)), required }
  })
  .sort((a, b) => a.method.localeCompare(b.method))

// Podcast feeds on loopback (tests/fixtures/podcasts), on the one host the server may reach there.
const feeds = await startPodcastFeeds('127.0.0.2')
const server = await startServer({ ...adminEnv, RATE_LIMIT: 'off', REMOTE_ALLOW_HOSTS: '127.0.0.2', PODCAST_REFRESH_MINUTES: '0' })
const lib = (p: string) => path.join(server.mediaRoot, p)
try {
  const dawn = { artist: 'Ada', album: 'Dawn', genre: 'Jazz', year: 1999 }
  makeTone(lib('Ada/Dawn/1 First Light.mp3'), { ...dawn, title: 'First Light', seconds: 1, cover: true, metadata: { track: '1' } })
  // Lyrics with word stamps (enhanced LRC), so getLyricsBySongId's enhanced answer (songLyrics
  // version 2: kind, cueLine, cue) is checked too.
  writeFileSync(lib('Ada/Dawn/1 First Light.lrc'), '[la:eng]\n[00:00.10]<00:00.10>First <00:00.40>light\n[00:00.80]눈을 <00:00.90>뜬<00:00.95>\n')
  makeTone(lib('Ada/Dawn/2 Love.mp3'), { ...dawn, title: 'Love', seconds: 1, metadata: { track: '2' } })
  makeTone(lib('Cleo/Blue/1 Sea.flac'), { artist: 'Cleo', album: 'Blue', genre: 'Jazz', year: 2001, title: 'Sea', seconds: 1 })
  const adminToken = await loginAdmin(server.url)
  await scanLibraryNow(server.url, adminToken)
  const member = await createMember(server.url)
  const keyOf = async (token: string, currentPassword: string) =>
    (await api(server.url, 'POST', '/user/app-keys', { token, body: { name: 'conformance', currentPassword } })).body.data.key as string
  const memberKey = await keyOf(member.token, member.password)
  const adminKey = await keyOf(adminToken, adminEnv.ADMIN_PASSWORD)
  await api(server.url, 'POST', '/user/folders', { token: member.token, body: { label: 'Ada', path: '/Ada' } })

  const call = async (method: string, params: Record<string, string>, key = memberKey) => {
    const url = new URL(`${server.url}/rest/${method}`)
    for (const [k, v] of Object.entries({ apiKey: key, c: 'conformance', v: '1.16.1', f: 'json', ...params })) url.searchParams.set(k, v)
    const res = await fetch(url)
    const type = res.headers.get('content-type') ?? ''
    return { status: res.status, type, body: type.includes('json') ? await res.json() : await res.arrayBuffer() }
  }

  // Ids the calls below need, read from the server's own answers.
  const first = <T>(list: T[] | undefined) => list?.[0]
  const ids: Record<string, string> = {}
  const artists = (await call('getArtists', {})).body['subsonic-response'].artists
  const artist = first(first(artists.index as { artist: { id: string; name: string }[] }[])?.artist)!
  ids.artist = artist.id
  ids.artistName = artist.name
  const album = first((await call('getArtist', { id: ids.artist })).body['subsonic-response'].artist.album as { id: string }[])!
  ids.album = album.id
  const song = first((await call('getAlbum', { id: ids.album })).body['subsonic-response'].album.song as { id: string; title: string }[])!
  ids.song = song.id
  ids.title = song.title
  const indexes = (await call('getIndexes', {})).body['subsonic-response'].indexes
  ids.folder = first(first(indexes.index as { artist: { id: string }[] }[])?.artist)!.id
  ids.playlist = first((await call('getPlaylists', {})).body['subsonic-response'].playlists.playlist as { id: string }[])?.id ?? 'none'
  const channel = (await api(server.url, 'POST', '/podcasts', { token: member.token, body: { url: feeds.url('show.xml') } })).body.data
  ids.channel = channel.id
  ids.episode = (await api(server.url, 'GET', `/podcasts/${channel.id}/episodes`, { token: member.token })).body.data.episodes[0].id

  const ADMIN_ONLY = new Set([
    'getUsers',
    'startScan',
    'createUser',
    'updateUser',
    'deleteUser',
    'createInternetRadioStation',
    'updateInternetRadioStation',
    'deleteInternetRadioStation',
  ])
  // What each method is asked; a method not named here gets its required parameters as "x"
  // (its answer must then be the schema's failed answer or a valid one).
  const PARAMS: Record<string, () => Record<string, string>> = {
    getArtist: () => ({ id: ids.artist }),
    getArtistInfo: () => ({ id: ids.artist }),
    getArtistInfo2: () => ({ id: ids.artist }),
    getTopSongs: () => ({ artist: ids.artistName }),
    getAlbum: () => ({ id: ids.album }),
    getAlbumInfo: () => ({ id: ids.album }),
    getAlbumInfo2: () => ({ id: ids.album }),
    getSong: () => ({ id: ids.song }),
    getSimilarSongs: () => ({ id: ids.song }),
    getSimilarSongs2: () => ({ id: ids.artist }),
    getMusicDirectory: () => ({ id: ids.folder }),
    getAlbumList: () => ({ type: 'newest' }),
    getAlbumList2: () => ({ type: 'newest' }),
    getSongsByGenre: () => ({ genre: 'Jazz' }),
    search: () => ({ any: 'a' }),
    search2: () => ({ query: 'a' }),
    search3: () => ({ query: 'a' }),
    getPlaylist: () => ({ id: ids.playlist }),
    createPlaylist: () => ({ name: 'Conformance', songId: ids.song }),
    updatePlaylist: () => ({ playlistId: ids.created ?? 'x', name: 'Renamed', songIdToAdd: ids.song }),
    deletePlaylist: () => ({ id: ids.created ?? 'x' }),
    getUser: () => ({ username: member.username }),
    scrobble: () => ({ id: ids.song, submission: 'false' }),
    star: () => ({ id: ids.song }),
    unstar: () => ({ id: ids.song }),
    setRating: () => ({ id: ids.song, rating: '4' }),
    createBookmark: () => ({ id: ids.song, position: '1000' }),
    deleteBookmark: () => ({ id: ids.song }),
    getLyrics: () => ({ artist: ids.artistName, title: ids.title }),
    getLyricsBySongId: () => ({ id: ids.song, enhanced: 'true' }),
    savePlayQueue: () => ({ id: ids.song, current: ids.song }),
    savePlayQueueByIndex: () => ({ id: ids.song, currentIndex: '0' }),
    reportPlayback: () => ({ mediaId: ids.song, mediaType: 'song', positionMs: '500', state: 'playing' }),
    createShare: () => ({ id: ids.song }),
    updateShare: () => ({ id: ids.share ?? 'x' }),
    deleteShare: () => ({ id: ids.share ?? 'x' }),
    getAvatar: () => ({ username: member.username }),
    // A public address literal: saved without a name lookup, never contacted.
    createInternetRadioStation: () => ({ name: 'Conformance FM', streamUrl: 'http://93.184.215.14/live', homepageUrl: 'http://93.184.215.14/' }),
    updateInternetRadioStation: () => ({ id: ids.station ?? 'x', name: 'Conformance FM 2', streamUrl: 'http://93.184.215.14/live' }),
    deleteInternetRadioStation: () => ({ id: ids.station ?? 'x' }),
    getCoverArt: () => ({ id: ids.album }),
    stream: () => ({ id: ids.song }),
    download: () => ({ id: ids.song }),
    createPodcastChannel: () => ({ url: feeds.url('atom.xml') }),
    getPodcastEpisode: () => ({ id: ids.episode }),
    downloadPodcastEpisode: () => ({ id: ids.episode }),
    deletePodcastEpisode: () => ({ id: ids.episode }),
    deletePodcastChannel: () => ({ id: ids.channel }),
  }
  // Creations first, deletions last, so each sees what the other made.
  const LAST = ['deleteBookmark', 'deleteShare', 'deletePlaylist', 'deletePodcastEpisode', 'deletePodcastChannel', 'deleteInternetRadioStation']
  const FIRST = ['createPlaylist', 'createShare', 'createBookmark', 'createPodcastChannel', 'createInternetRadioStation']
  const ordered = [
    ...FIRST.flatMap((m) => endpoints.filter((e) => e.method === m)),
    ...endpoints.filter((e) => !FIRST.includes(e.method) && !LAST.includes(e.method)),
    ...LAST.flatMap((m) => endpoints.filter((e) => e.method === m)),
  ]

  const validators = new Map<string, ValidateFunction>()
  let valid = 0
  let invalid = 0
  let refused = 0
  for (const endpoint of ordered) {
    const params = PARAMS[endpoint.method]?.() ?? Object.fromEntries(endpoint.required.map((name) => [name, 'x']))
    const answer = await call(endpoint.method, params, ADMIN_ONLY.has(endpoint.method) ? adminKey : memberKey)
    if (!answer.type.includes('json')) {
      console.log(`  ${endpoint.method}: binary answer (${answer.status}, ${answer.type})`)
      continue
    }
    const body = answer.body as {
      'subsonic-response'?: {
        status: string
        error?: { code: number; message: string }
        playlist?: { id: string }
        shares?: { share?: { id: string }[] }
        internetRadioStations?: { internetRadioStation?: { id: string }[] }
      }
    }
    const response = body['subsonic-response']
    if (endpoint.method === 'createPlaylist' && response?.playlist) ids.created = response.playlist.id
    if (endpoint.method === 'createShare' && response?.shares?.share?.[0]) ids.share = response.shares.share[0].id
    const station = response?.internetRadioStations?.internetRadioStation?.[0]?.id
    if (endpoint.method === 'getInternetRadioStations' && station) ids.station = station
    const schemaId = endpoint.responseSchema
    if (!schemaId) {
      console.log(`  ${endpoint.method}: no JSON schema in the spec (${answer.status})`)
      continue
    }
    let validate = validators.get(schemaId)
    if (!validate) {
      validate = ajv.getSchema(schemaId)
      if (!validate) throw new Error(`schema ${schemaId} not registered`)
      validators.set(schemaId, validate)
    }
    const ok = answer.status === 200 && validate(body)
    const outcome = response?.status === 'failed' ? `failed: ${response.error?.code} ${response.error?.message}` : 'ok'
    if (!ok) {
      invalid++
      const errors = (validate.errors ?? []).slice(0, 4).map((e) => `${e.instancePath} ${e.message}`)
      console.log(`✗ ${endpoint.method} (${answer.status}, ${outcome}): ${errors.join('; ')}`)
    } else {
      valid++
      if (response?.status === 'failed') refused++
      console.log(`✓ ${endpoint.method}: ${outcome}`)
    }
  }
  console.log(`${valid} valid (${valid - refused} answered, ${refused} refused), ${invalid} invalid — schema ${schemaDir}`)
  process.exitCode = invalid > 0 ? 1 : 0
} finally {
  await server.stop()
  await feeds.stop()
}
