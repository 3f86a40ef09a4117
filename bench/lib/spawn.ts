// Servers a bench starts as their own processes: on a free loopback port, from an empty data
// directory, with the start-up time and CPU read from outside (bench/run.ts, builds-side-by-side.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { cpuNanoseconds, processTree } from './wrk'

const root = path.resolve(import.meta.dir, '../..')

/** The AUTH_SECRET every spawned server signs with (a bench signs media URLs with it too). */
export const SECRET = 'bench-secret-'.repeat(4)

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port as number
  await probe.stop(true)
  return port
}

async function waitUp(url: string, timeoutMs = 30_000): Promise<number> {
  const started = performance.now()
  for (;;) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return performance.now() - started
    if (performance.now() - started > timeoutMs) throw new Error(`${url} did not answer`)
    await Bun.sleep(2)
  }
}

/** Resident memory of a process tree, MB. */
export function rssMb(pid: number): number {
  let kb = 0
  for (const p of processTree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0)
    } catch {}
  }
  return kb / 1024
}

export type Spawned = { url: string; pid: number; dataDir: string; startMs: number; startCpuMs: number; stop: () => Promise<number> }

/** Starts a server command from an empty data directory; startMs is spawn → first /api/health 200,
 *  startCpuMs the CPU the server used until then (all its threads; less disturbed by other work). */
export async function spawnServer(cmd: string[], env: Record<string, string>, cwd = root, existingDataDir?: string): Promise<Spawned> {
  const dataDir = existingDataDir ?? mkdtempSync(path.join(tmpdir(), 'vibes-bench-'))
  const port = await freePort()
  const started = performance.now()
  const proc = Bun.spawn(cmd, {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, MEDIA_ROOT: dataDir, AUTH_SECRET: SECRET, ...env },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  // Drain the log as a collector would (a full pipe would stall the server).
  void (async () => {
    for await (const _ of proc.stdout) {
    }
  })()
  const url = `http://127.0.0.1:${port}`
  await waitUp(`${url}/api/health`)
  const startMs = performance.now() - started
  return {
    url,
    pid: proc.pid,
    dataDir,
    startMs,
    startCpuMs: cpuNanoseconds(proc.pid) / 1e6,
    async stop() {
      proc.kill('SIGTERM')
      const code = await proc.exited
      if (!existingDataDir) rmSync(dataDir, { recursive: true, force: true })
      return code
    },
  }
}
