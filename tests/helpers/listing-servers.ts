// Real directory-listing servers on loopback for the remote-folder tests: nginx (autoindex),
// Python's http.server, Apache (mod_autoindex) and Caddy (file_server browse). Each runs from a
// temp dir with its own config, pid and logs, on a free port, and is stopped by its process id.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** `pid` is the server's own process (nginx's master; bench/run.ts reads its workers' CPU from it). */
export type ListingServer = { url: string; port: number; pid: number; stop: () => Promise<void>; logs: () => string }

export async function freePort(host = '127.0.0.1'): Promise<number> {
  const s = Bun.listen({ hostname: host, port: 0, socket: { data() {} } })
  const port = s.port
  s.stop(true)
  return port
}

async function waitUp(url: string, proc: ReturnType<typeof Bun.spawn>, logs: () => string) {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`listing server exited (${proc.exitCode}):\n${logs()}`)
    try {
      await fetch(url, { signal: AbortSignal.timeout(500) })
      return
    } catch {
      await Bun.sleep(50)
    }
  }
  throw new Error(`listing server did not start at ${url}:\n${logs()}`)
}

type ServerRecipe = {
  /** Temp dir name prefix. */
  name: string
  /** The command line, given the server's own temp dir and port. */
  command: (dir: string, port: number) => string[]
  /** Log files (relative to the temp dir) shown when the server fails to start. */
  logFiles: string[]
  stopSignal?: 'SIGTERM' | 'SIGQUIT'
  env?: (dir: string) => Record<string, string | undefined>
  /** Before the spawn: writes the server's config into its temp dir. */
  prepare?: (dir: string, port: number) => void
}

/** The one way each server runs: its own temp dir and free port, up when it answers, stopped by its pid. */
async function startListingServer(recipe: ServerRecipe, host: string): Promise<ListingServer> {
  const dir = mkdtempSync(path.join(tmpdir(), `vibes-${recipe.name}-`))
  const port = await freePort(host)
  recipe.prepare?.(dir, port)
  const proc = Bun.spawn(recipe.command(dir, port), {
    cwd: dir,
    env: recipe.env?.(dir) ?? process.env,
    stdout: Bun.file(path.join(dir, 'stdout.log')),
    stderr: Bun.file(path.join(dir, 'stderr.log')),
  })
  const logs = () => Bun.spawnSync(['cat', ...recipe.logFiles.map((file) => path.join(dir, file))]).stdout.toString()
  const url = `http://${host}:${port}`
  await waitUp(url, proc, logs)
  return {
    url,
    port,
    pid: proc.pid,
    logs,
    async stop() {
      proc.kill(recipe.stopSignal ?? 'SIGTERM')
      await proc.exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Lets worker processes that drop root (nginx, Apache) read the served tree. */
export function openUp(dir: string) {
  chmodSync(dir, 0o755)
}

/** nginx with autoindex on `root`; `extra` adds server-block directives (redirect locations), `httpExtra` http-block ones (an upstream).
 *  Worker connections for a proxy under load: each proxied request holds two (bench/nodes-nginx.ts). */
export function startNginx(root: string, host: string, extra = '', httpExtra = ''): Promise<ListingServer> {
  return startListingServer(
    {
      name: 'nginx',
      logFiles: ['error.log', 'stderr.log'],
      stopSignal: 'SIGQUIT',
      prepare: (dir, port) =>
        writeFileSync(
          path.join(dir, 'nginx.conf'),
          `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
user root;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  sendfile on; tcp_nopush on;
  types { text/html html; audio/mpeg mp3; audio/x-mpegurl m3u m3u8; audio/x-scpls pls; application/json json; text/plain txt; }
  default_type application/octet-stream;
  ${httpExtra}
  server {
    listen ${host}:${port};
    root ${root};
    autoindex on;
    ${extra}
  }
}`,
        ),
      command: (dir) => ['/usr/sbin/nginx', '-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'],
    },
    host,
  )
}

export function startPython(root: string, host: string): Promise<ListingServer> {
  return startListingServer(
    {
      name: 'py',
      logFiles: ['stderr.log'],
      command: (_dir, port) => ['python3', '-m', 'http.server', '--bind', host, '--directory', root, String(port)],
    },
    host,
  )
}

export const APACHE_BIN = '/usr/sbin/apache2'

/** Apache httpd with mod_autoindex (FancyIndexing, Debian's modules). */
export function startApache(root: string, host: string): Promise<ListingServer> {
  const mods = '/usr/lib/apache2/modules'
  return startListingServer(
    {
      name: 'apache',
      logFiles: ['error.log', 'stderr.log'],
      prepare: (dir, port) => {
        openUp(dir)
        writeFileSync(
          path.join(dir, 'apache.conf'),
          `
ServerRoot "${dir}"
ServerName localhost
Listen ${host}:${port}
PidFile ${dir}/apache.pid
DefaultRuntimeDir ${dir}
Mutex file:${dir} default
ErrorLog ${dir}/error.log
LogLevel warn
LoadModule mpm_event_module ${mods}/mod_mpm_event.so
LoadModule authz_core_module ${mods}/mod_authz_core.so
LoadModule dir_module ${mods}/mod_dir.so
LoadModule autoindex_module ${mods}/mod_autoindex.so
LoadModule mime_module ${mods}/mod_mime.so
User nobody
Group nogroup
TypesConfig /etc/mime.types
DocumentRoot "${root}"
<Directory "${root}">
  Options +Indexes
  Require all granted
</Directory>
IndexOptions FancyIndexing HTMLTable
`,
        )
      },
      command: (dir) => [APACHE_BIN, '-f', path.join(dir, 'apache.conf'), '-DFOREGROUND'],
    },
    host,
  )
}

export const CADDY_BIN = '/usr/bin/caddy'

/**
 * Caddy's `file_server browse` on `root`: plain HTTP, admin API and automatic HTTPS off, its
 * storage in the temp dir. Caddy answers a listing as JSON when the client accepts
 * application/json (as our reader does), else as HTML.
 */
export function startCaddy(root: string, host: string): Promise<ListingServer> {
  return startListingServer(
    {
      name: 'caddy',
      logFiles: ['stderr.log'],
      env: (dir) => ({ ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }),
      prepare: (dir, port) =>
        writeFileSync(
          path.join(dir, 'Caddyfile'),
          `{
  admin off
  auto_https off
  storage file_system ${dir}/storage
}
http://${host}:${port} {
  bind ${host}
  root * ${root}
  file_server browse
}
`,
        ),
      command: (dir) => [CADDY_BIN, 'run', '--adapter', 'caddyfile', '--config', path.join(dir, 'Caddyfile')],
    },
    host,
  )
}
