// A real Icecast server (Debian's icecast2) for one test file, fed by ffmpeg: a temp config
// listening on 127.0.0.2 (the loopback host the tests allow with REMOTE_ALLOW_HOSTS) and a free
// port. Icecast refuses to run as root, so when the tests are root it runs as the `icecast2` OS
// user (which Debian's package creates). `feed` starts an ffmpeg source client on a mount (a sine
// tone as MP3, with the station's name); `setTitle` sets the title the station sends as ICY
// metadata, through Icecast's admin interface, as a DJ's source client does.
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

export const ICECAST_HOST = '127.0.0.2'
const SOURCE_PASSWORD = 'source-pw'
const ADMIN_PASSWORD = 'admin-pw'

export type TestIcecast = {
  /** http://127.0.0.2:<port> */
  url: string
  /** Starts a source on `mount` ('/live.mp3'); resolves once listeners can hear it. */
  feed: (mount: string, name: string) => Promise<void>
  setTitle: (mount: string, title: string) => Promise<void>
  stop: () => Promise<void>
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function icecastUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined
  const uid = Bun.spawnSync(['id', '-u', 'icecast2']).stdout.toString().trim()
  const gid = Bun.spawnSync(['id', '-g', 'icecast2']).stdout.toString().trim()
  if (!uid) throw new Error('running as root but there is no `icecast2` OS user (apt-get install icecast2 creates it)')
  return { uid: Number(uid), gid: Number(gid) }
}

const config = (port: number, root: string) => `<icecast>
  <location>test</location><admin>test@localhost</admin>
  <limits><clients>20</clients><sources>4</sources><queue-size>524288</queue-size>
    <client-timeout>30</client-timeout><header-timeout>15</header-timeout><source-timeout>10</source-timeout>
    <burst-on-connect>1</burst-on-connect><burst-size>65535</burst-size></limits>
  <authentication><source-password>${SOURCE_PASSWORD}</source-password><relay-password>${SOURCE_PASSWORD}</relay-password>
    <admin-user>admin</admin-user><admin-password>${ADMIN_PASSWORD}</admin-password></authentication>
  <hostname>${ICECAST_HOST}</hostname>
  <listen-socket><port>${port}</port><bind-address>${ICECAST_HOST}</bind-address></listen-socket>
  <fileserve>1</fileserve>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>${root}</logdir><webroot>/usr/share/icecast2/web</webroot>
    <adminroot>/usr/share/icecast2/admin</adminroot><pidfile>${root}/icecast.pid</pidfile></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
  <security><chroot>0</chroot></security>
</icecast>
`

async function waitFor(check: () => Promise<boolean>, what: string, ms = 15_000) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (await check().catch(() => false)) return
    await Bun.sleep(100)
  }
  throw new Error(`${what} within ${ms} ms`)
}

export async function startIcecast(): Promise<TestIcecast> {
  if (!existsSync('/usr/bin/icecast2')) throw new Error('Icecast is not installed (apt-get install icecast2; .ci/run does)')
  const owner = icecastUser()
  const root = mkdtempSync(path.join(tmpdir(), 'vibes-icecast-'))
  mkdirSync(root, { recursive: true })
  const port = await freePort(ICECAST_HOST)
  const configPath = path.join(root, 'icecast.xml')
  writeFileSync(configPath, config(port, root))
  if (owner) {
    chownSync(root, owner.uid, owner.gid)
    chownSync(configPath, owner.uid, owner.gid)
  }
  const cmd = ['/usr/bin/icecast2', '-c', configPath]
  const server = Bun.spawn(owner ? ['runuser', '-u', 'icecast2', '--', ...cmd] : cmd, { stdout: 'ignore', stderr: 'pipe' })
  const url = `http://${ICECAST_HOST}:${port}`
  await waitFor(async () => (await fetch(`${url}/status-json.xsl`)).ok, 'Icecast did not answer')
  const sources: Array<ReturnType<typeof Bun.spawn>> = []
  const admin = `Basic ${btoa(`admin:${ADMIN_PASSWORD}`)}`

  return {
    url,
    async feed(mount, name) {
      const ffmpeg = Bun.spawn(
        [
          'ffmpeg',
          '-hide_banner',
          '-loglevel',
          'error',
          '-re',
          '-f',
          'lavfi',
          '-i',
          'sine=frequency=440:sample_rate=44100',
          '-c:a',
          'libmp3lame',
          '-b:a',
          '64k',
          '-content_type',
          'audio/mpeg',
          '-ice_name',
          name,
          '-ice_genre',
          'Test',
          '-f',
          'mp3',
          `icecast://source:${SOURCE_PASSWORD}@${ICECAST_HOST}:${port}${mount}`,
        ],
        { stdout: 'ignore', stderr: 'pipe' },
      )
      sources.push(ffmpeg)
      await waitFor(async () => {
        const status = (await (await fetch(`${url}/status-json.xsl`)).json()) as { icestats: { source?: { listenurl: string } | Array<{ listenurl: string }> } }
        const list = [status.icestats.source ?? []].flat()
        return list.some((s) => s.listenurl.endsWith(mount))
      }, `the ffmpeg source on ${mount} did not start`)
    },
    async setTitle(mount, title) {
      const q = new URLSearchParams({ mount, mode: 'updinfo', song: title, charset: 'UTF-8' })
      const res = await fetch(`${url}/admin/metadata?${q}`, { headers: { authorization: admin } })
      if (!res.ok) throw new Error(`Icecast refused the title: ${res.status} ${await res.text()}`)
    },
    async stop() {
      for (const s of sources) s.kill()
      await Promise.all(sources.map((s) => s.exited))
      server.kill()
      await server.exited
      rmSync(root, { recursive: true, force: true })
    },
  }
}
