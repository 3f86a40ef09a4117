// Runs a library scan through the admin API and waits until it has finished: folder playlists
// and the library pages read the index, so a test that writes files scans before it lists them.
import { api } from './api'

export async function scanLibraryNow(base: string, adminToken: string, body: { full?: boolean } = {}) {
  const started = await api(base, 'POST', '/admin/library/scan', { token: adminToken, body })
  if (started.status !== 202) throw new Error(`scan not started: ${started.status}`)
  for (let i = 0; i < 600; i++) {
    if (!(await api(base, 'GET', '/admin/library/scan', { token: adminToken })).body.data.scanning) return
    await Bun.sleep(50)
  }
  throw new Error('scan did not finish')
}
