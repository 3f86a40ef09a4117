// Two server processes on one fresh PostgreSQL database, as N nodes behind a load balancer run:
// the same database and AUTH_SECRET on both, each its own DATA_DIR. Always on PostgreSQL,
// whatever VIBES_TEST_ENGINE says (the file's throwaway cluster starts by itself).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freshPostgresUrl, startServer, TEST_AUTH_SECRET, type TestServer } from './server'

export type TwoNodes = {
  a: TestServer
  b: TestServer
  /** What every node is started with: the database, the secret and the caller's own variables. */
  env: Record<string, string>
  /** The library every node mounts (sharedMedia), or null when each node has its own. */
  media: string | null
  /** Starts a node again on its DATA_DIR and media, as a node that crashed comes back; `a`/`b` follow. */
  restart: (node: TestServer) => Promise<TestServer>
  /** Stops both nodes and removes their directories. */
  stop: () => Promise<void>
}

export async function startTwoNodes(env: Record<string, string> = {}, options: { sharedMedia?: boolean } = {}): Promise<TwoNodes> {
  const shared = { DATABASE_URL: await freshPostgresUrl(), AUTH_SECRET: TEST_AUTH_SECRET, ...env }
  const media = options.sharedMedia ? mkdtempSync(path.join(tmpdir(), 'vibes-shared-media-')) : null
  const dirs: string[] = media ? [media] : []
  const node = () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-node-'))
    const mediaRoot = media ?? mkdtempSync(path.join(tmpdir(), 'vibes-media-'))
    dirs.push(dataDir, mediaRoot)
    return startServer(shared, { dataDir, mediaRoot })
  }
  const [a, b] = await Promise.all([node(), node()])
  const nodes: TwoNodes = {
    a,
    b,
    env: shared,
    media,
    async restart(old) {
      const started = await startServer(shared, { dataDir: old.dataDir, mediaRoot: old.mediaRoot })
      if (nodes.a === old) nodes.a = started
      if (nodes.b === old) nodes.b = started
      return started
    },
    async stop() {
      await Promise.all([nodes.a.stop(), nodes.b.stop()])
      for (const dir of new Set(dirs)) rmSync(dir, { recursive: true, force: true })
    },
  }
  return nodes
}
