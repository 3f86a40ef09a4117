// Charts that play: for a signed-in member each chart entry the server library holds carries that
// library track (matched by title and artist, case and accents aside); visitors get the chart
// alone; the Charts page opens on the instance's DEFAULT_COUNTRY (the worldwide chart when that is
// not a chart region), and on the United States when none is set.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let member: Awaited<ReturnType<typeof createMember>>

beforeAll(async () => {
  server = await startServer({ ...adminEnv, DEFAULT_COUNTRY: 'gr' })
  makeTone(path.join(server.mediaRoot, 'pop', 'Joga.mp3'), { title: 'Jóga', artist: 'Björk', seconds: 1 })
  makeTone(path.join(server.mediaRoot, 'pop', 'Hyperballad.mp3'), { title: 'Hyperballad', artist: 'Björk', seconds: 1 })
  // Same title, another artist: must not be taken for the chart's entry.
  makeTone(path.join(server.mediaRoot, 'pop', 'Other Joga.mp3'), { title: 'Joga', artist: 'Someone Else', seconds: 1 })
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  member = await createMember(server.url)
  const plays: [string, string, number][] = [
    ['JOGA', 'bjork', 3], // typed without accents, in capitals: still the library's Jóga
    ['Not In The Library', 'Nobody', 2],
    ['Hyperballad (Remix)', 'Björk', 1], // another recording: no match
  ]
  for (const [title, artist, n] of plays) {
    for (let i = 0; i < n; i++) {
      const res = await api(server.url, 'POST', '/playlist/plays', {
        token: member.token,
        body: { trackUrl: `https://x.example/${i}.mp3`, title, artist, duration: 60 },
      })
      expect(res.status).toBe(201)
    }
  }
})
afterAll(async () => {
  await server?.stop()
})

describe('charts and the library', () => {
  test('a member sees which chart entries the library holds, as playable library tracks', async () => {
    const res = await api(server.url, 'GET', '/charts/ww', { token: member.token })
    expect(res.status).toBe(200)
    const tracks = res.body.data.tracks as { title: string; play?: { title: string; artist: string; url: string } }[]
    expect(tracks.map((t) => t.title)).toEqual(['JOGA', 'Not In The Library', 'Hyperballad (Remix)'])
    expect(tracks[0].play).toMatchObject({ title: 'Jóga', artist: 'Björk' })
    expect(tracks[0].play?.url).toContain('/media/pop/Joga.mp3')
    expect(tracks[1].play).toBeUndefined()
    expect(tracks[2].play).toBeUndefined()
    // The matched file streams.
    const media = await fetch(new URL(tracks[0].play?.url ?? '', server.url))
    expect(media.status).toBe(200)
  })

  test('a visitor gets the chart without library tracks', async () => {
    const res = await api(server.url, 'GET', '/charts/ww')
    expect(res.status).toBe(200)
    expect(res.body.data.tracks.length).toBe(3)
    expect(res.body.data.tracks.every((t: object) => !('play' in t))).toBe(true)
  })

  test('the Charts page opens on DEFAULT_COUNTRY when it is a chart region, else worldwide; on the United States when none is set', async () => {
    const answer = await fetch(`${server.url}/api/trpc/charts.defaultRegion`)
    expect(answer.status).toBe(200)
    expect(JSON.stringify(await answer.json())).toContain('"region":"gr"')
    const [other, unset] = await Promise.all([startServer({ DEFAULT_COUNTRY: 'BR' }), startServer()])
    try {
      expect(JSON.stringify(await (await fetch(`${other.url}/api/trpc/charts.defaultRegion`)).json())).toContain('"region":"ww"')
      expect(JSON.stringify(await (await fetch(`${unset.url}/api/trpc/charts.defaultRegion`)).json())).toContain('"region":"us"')
    } finally {
      await Promise.all([other.stop(), unset.stop()])
    }
  })
})
