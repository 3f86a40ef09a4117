// Scrobbling's rules on their own: what counts as a listen at each service, the Last.fm signature,
// credentials sealed per purpose and member; and the loopback stand-ins the integration tests rely
// on do refuse, loudly, a request that is wrong (a test that could not fail would prove nothing).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openSecret, SEAL_PURPOSE, sealSecret } from '~/server/auth/sealed-secret'
import { lastfmScrobble, lastfmSignature } from '~/server/scrobbling/lastfm'
import { submitListens } from '~/server/scrobbling/listenbrainz'
import { LastfmStandIn, ListenBrainzStandIn } from '../helpers/scrobble-services'

const SECRET = 'x'.repeat(40)
const lb = new ListenBrainzStandIn()
const lastfm = new LastfmStandIn()
const listen = { artist: 'Ada', title: 'First Light', album: 'Dawn', duration: 200, playedAt: new Date(Date.now() - 60_000) }

beforeAll(() => {
  lb.start()
  lastfm.start()
})
afterAll(async () => {
  await lb.stop()
  await lastfm.stop()
})

describe('what counts as a listen', () => {
  test('half the track or 4 minutes, whichever comes first; Last.fm also wants over 30 s', async () => {
    // services/scrobbling.ts reads the configuration, which needs a DATA_DIR.
    process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vibes-scrobbling-'))
    const { countsAsListen } = await import('~/server/services/scrobbling')
    const cases: [number, number, boolean, boolean][] = [
      // duration, listened, ListenBrainz, Last.fm
      [200, 99, false, false],
      [200, 100, true, true],
      [600, 239, false, false],
      [600, 240, true, true],
      [20, 10, true, false],
      [31, 15.5, true, true],
      [30, 30, true, false],
      [0, 0, false, false],
    ]
    for (const [duration, listened, atListenBrainz, atLastfm] of cases) {
      expect([duration, listened, countsAsListen('listenbrainz', duration, listened)]).toEqual([duration, listened, atListenBrainz])
      expect([duration, listened, countsAsListen('lastfm', duration, listened)]).toEqual([duration, listened, atLastfm])
    }
  })
})

describe('the Last.fm signature', () => {
  test('md5 of the parameters sorted by name, name then value, then the secret; format and callback left out', () => {
    const params = { token: 't0k', method: 'auth.getSession', api_key: 'k3y', format: 'json', callback: 'cb' }
    const expected = createHash('md5').update('api_keyk3ymethodauth.getSessiontokent0ks3cret').digest('hex')
    expect(lastfmSignature(params, 's3cret')).toBe(expected)
    // UTF-8, as Last.fm reads it.
    expect(lastfmSignature({ artist: 'Björk' }, 's')).toBe(createHash('md5').update('artistBjörks', 'utf8').digest('hex'))
  })
})

describe('sealed credentials', () => {
  test('open only for the same purpose, member and AUTH_SECRET', () => {
    const sealed = sealSecret(SECRET, SEAL_PURPOSE.scrobbling, 'member-1', 'lb-token')
    expect(sealed).not.toContain('lb-token')
    expect(openSecret(SECRET, SEAL_PURPOSE.scrobbling, 'member-1', sealed)).toBe('lb-token')
    expect(openSecret(SECRET, SEAL_PURPOSE.appKey, 'member-1', sealed)).toBeNull()
    expect(openSecret(SECRET, SEAL_PURPOSE.scrobbling, 'member-2', sealed)).toBeNull()
    expect(openSecret('y'.repeat(40), SEAL_PURPOSE.scrobbling, 'member-1', sealed)).toBeNull()
  })
})

describe('the stand-ins refuse what is wrong', () => {
  test('ListenBrainz: a listen without its time, a bad token, an empty artist', async () => {
    lb.tokens.set('good-token', 'ada')
    const post = (body: unknown, token = 'good-token') =>
      fetch(`${lb.url}/1/submit-listens`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const meta = { artist_name: 'Ada', track_name: 'First Light' }
    expect((await post({ listen_type: 'single', payload: [{ track_metadata: meta }] })).status).toBe(400)
    expect((await post({ listen_type: 'single', payload: [{ listened_at: 1_700_000_000, track_metadata: meta }] }, 'bad-token')).status).toBe(401)
    expect((await post({ listen_type: 'playing_now', payload: [{ track_metadata: { ...meta, artist_name: '' } }] })).status).toBe(400)
    expect((await post({ listen_type: 'playing_now', payload: [{ listened_at: 1_700_000_000, track_metadata: meta }] })).status).toBe(400)
    expect(lb.problems).toHaveLength(4)
    expect(lb.listens).toEqual([])
    // What Vibes sends is taken.
    lb.problems = []
    expect(await submitListens(lb.url, 'good-token', 'single', [listen])).toEqual({ ok: true })
    expect(lb.problems).toEqual([])
    expect(lb.listens).toEqual([
      {
        user: 'ada',
        artist: 'Ada',
        track: 'First Light',
        album: 'Dawn',
        durationMs: 200_000,
        listenedAt: Math.floor(listen.playedAt.getTime() / 1000),
        listenType: 'single',
      },
    ])
  })

  test('Last.fm: a wrong signature, a missing format, an unknown parameter, a session it never gave', async () => {
    const post = (params: Record<string, string>, sign = true) => {
      const all = { ...params, api_key: lastfm.apiKey }
      const sig = createHash('md5')
        .update(
          Object.keys(all)
            .filter((k) => k !== 'format')
            .sort()
            .map((k) => k + all[k as keyof typeof all])
            .join('') + (sign ? lastfm.secret : 'wrong-secret'),
        )
        .digest('hex')
      return fetch(`${lastfm.url}/2.0/`, { method: 'POST', body: new URLSearchParams({ ...all, api_sig: sig }) })
    }
    const scrobble = {
      method: 'track.scrobble',
      artist: 'Ada',
      track: 'First Light',
      timestamp: String(Math.floor(Date.now() / 1000) - 60),
      sk: 'no-such-session',
    }
    expect((await post({ ...scrobble, format: 'json' }, false)).status).toBe(400)
    expect((await post(scrobble)).status).toBe(400)
    expect((await post({ ...scrobble, format: 'json', colour: 'blue' })).status).toBe(400)
    expect(lastfm.problems).toHaveLength(3)
    const unknownSession = await post({ ...scrobble, format: 'json' })
    expect(unknownSession.status).toBe(403)
    expect(await unknownSession.json()).toMatchObject({ error: 9 })
    // What Vibes sends is taken, and Vibes reads the refusal of a revoked session as final.
    lastfm.problems = []
    lastfm.sessions.set('good-session', 'ada')
    const app = { apiUrl: lastfm.url, apiKey: lastfm.apiKey, apiSecret: lastfm.secret }
    expect(await lastfmScrobble(app, 'good-session', listen)).toEqual({ ok: true })
    expect(await lastfmScrobble(app, 'revoked-session', listen)).toMatchObject({ ok: false, retry: false })
    expect(lastfm.problems).toEqual([])
    expect(lastfm.scrobbles).toEqual([
      expect.objectContaining({
        account: 'ada',
        artist: 'Ada',
        track: 'First Light',
        album: 'Dawn',
        duration: 200,
        timestamp: Math.floor(listen.playedAt.getTime() / 1000),
      }),
    ])
  })
})

describe('the sender waits for a claim to run out', () => {
  test('a row another sender holds (or one that crashed holding it) is due when the claim ends, not now', async () => {
    process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vibes-scrobbling-'))
    const [{ openDb }, schema, { untilNextDue }] = await Promise.all([
      import('~/db/client'),
      import('~/db/schema'),
      import('~/server/services/scrobble-sender'),
    ])
    const db = openDb(':memory:', path.resolve(import.meta.dir, '../../src/db/migrations'))
    const now = Date.now()
    const [user] = await db.insert(schema.users).values({ username: 'ada', email: 'ada@example.com', passwordHash: 'x' }).returning({ id: schema.users.id })
    const row = {
      userId: user.id,
      service: 'listenbrainz',
      kind: 'listen',
      artist: 'Ada',
      title: 'First Light',
      duration: 200,
      playedAt: new Date(now - 60_000),
    }
    await db.insert(schema.scrobbleQueue).values({ ...row, playId: 'held', nextAttemptAt: new Date(now - 1000), claimedUntil: new Date(now + 25_000) })
    expect(await untilNextDue(db, now)).toBe(25_000)
    await db.insert(schema.scrobbleQueue).values({ ...row, playId: 'waiting', nextAttemptAt: new Date(now + 5_000) })
    expect(await untilNextDue(db, now)).toBe(5_000)
  })
})
