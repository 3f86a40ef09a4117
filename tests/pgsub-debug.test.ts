import { expect, test } from 'bun:test'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from './helpers/api'
import { makeTone } from './helpers/media'
import { scanLibraryNow } from './helpers/library-scan'
import { startServer } from './helpers/server'
test('debug', async () => {
  const server = await startServer({ ...adminEnv })
  try {
    makeTone(path.join(server.mediaRoot, 'Ada/Dawn/1 First.mp3'), {
      artist: 'Ada',
      album: 'Dawn',
      genre: 'Jazz',
      year: 1999,
      title: 'First',
      seconds: 1,
      cover: true,
    })
    const admin = await loginAdmin(server.url)
    const member = await createMember(server.url)
    await scanLibraryNow(server.url, admin)
    const key = (await api(server.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'x', currentPassword: member.password } })).body.data.key
    for (const m of (
      process.env.METHODS ??
      'getArtists,getIndexes,search3?query=fir,getAlbumList2?type=newest,getRandomSongs,getGenres,getPlaylists,getPlayQueue,getStarred2,getNowPlaying,getUser?username=' +
        member.username
    ).split(',')) {
      const [name, q] = m.split('?')
      const res = await fetch(`${server.url}/rest/${name}?apiKey=${key}&f=json&${q ?? ''}`)
      console.log(name, res.status, (await res.text()).slice(0, 300))
    }
  } catch (e) {
    console.log('ERR', e)
  } finally {
    await Bun.sleep(300)
    console.log(
      server.logs
        .filter((l) => l.includes('"level":50'))
        .map((l) => {
          const j = JSON.parse(l)
          return `${j.path} ${j.err?.message ?? j.msg}`
        })
        .join('\n'),
    )
    await server.stop().catch(() => {})
  }
  expect(1).toBe(1)
}, 120000)
