// The command line of `bun run start`, `bun src/server/entry.ts` and the single binary: no
// arguments start the server; --help, --version, `backup <file>` and `db copy --to <url>` answer and exit. It
// runs before anything loads config.ts or the app, so help and version create nothing (loading
// the configuration creates DATA_DIR). The version is package.json's, bundled into the binary.
import { version } from '../../package.json'
import { CONFIG_VARIABLES } from './config-variables'

export type Command =
  | { kind: 'serve' }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'backup'; file: string }
  | { kind: 'db-copy'; to: string }
  | { kind: 'misuse'; message: string }

/** The command asked for by the arguments after the program name; anything else is a misuse. */
export function parseArgs(args: readonly string[]): Command {
  const [first, ...rest] = args
  if (first === undefined) return { kind: 'serve' }
  // `backup --help`, `db copy --help`: the usage, which covers every command (what backup does on PostgreSQL too).
  if ((first === 'backup' || first === 'db') && rest.some((a) => a === '--help' || a === '-h')) return { kind: 'help' }
  if (first === 'backup') {
    if (rest.length === 0) return { kind: 'misuse', message: 'backup needs the file to write: backup <file>' }
    if (rest.length > 1) return { kind: 'misuse', message: `backup takes one file, got also '${rest[1]}'` }
    if (rest[0].startsWith('-')) return { kind: 'misuse', message: `unknown option '${rest[0]}' for backup` }
    return { kind: 'backup', file: rest[0] }
  }
  if (first === 'db') {
    const [sub, option, url, ...more] = rest
    if (sub !== 'copy') return { kind: 'misuse', message: sub === undefined ? 'db needs a command: db copy --to postgres://…' : `unknown db command '${sub}'` }
    if (option !== '--to' || url === undefined)
      return { kind: 'misuse', message: 'db copy needs the target: db copy --to postgres://user:password@host/database' }
    if (!/^postgres(ql)?:\/\//.test(url)) return { kind: 'misuse', message: `db copy --to takes a postgres:// URL, got '${url}'` }
    if (more.length > 0) return { kind: 'misuse', message: `unknown argument '${more[0]}' for db copy` }
    return { kind: 'db-copy', to: url }
  }
  const simple = first === '--help' || first === '-h' ? 'help' : first === '--version' || first === '-v' ? 'version' : null
  if (simple && rest.length === 0) return { kind: simple }
  const odd = simple ? rest[0] : first
  return { kind: 'misuse', message: odd.startsWith('-') ? `unknown option '${odd}'` : `unknown command '${odd}'` }
}

/** `--help`: how to run it and every configuration variable with its default. */
export function usage(program: string): string {
  const commands = [
    ['', 'start the server (configured by the environment, below)'],
    ['backup <file>', 'copy the database to a new <file>, safe while the server runs (PostgreSQL: runs pg_dump)'],
    ['db copy --to <postgres-url>', 'move this instance to an empty PostgreSQL database (server stopped)'],
    ['--help', 'print this help'],
    ['--version', 'print the version'],
  ].map(([args, what]) => [`${program} ${args}`.trimEnd(), what])
  const commandWidth = Math.max(...commands.map(([line]) => line.length)) + 3
  const nameWidth = Math.max(...CONFIG_VARIABLES.map(([name]) => name.length)) + 2
  return [
    `Vibes ${version}: a self-hosted music and video streaming server.`,
    '',
    'Usage:',
    ...commands.map(([line, what]) => `  ${line.padEnd(commandWidth)}${what}`),
    '',
    'Environment variables (all optional):',
    ...CONFIG_VARIABLES.map(([name, fallback, meaning]) => `  ${name.padEnd(nameWidth)}${meaning} [default: ${fallback}]`),
    '',
    'Restore a backup: stop the server, replace DATA_DIR/vibes.db with the backup file, delete',
    'DATA_DIR/vibes.db-wal and DATA_DIR/vibes.db-shm, start the server.',
    'With DATABASE_URL=postgres://…, backup runs pg_dump (on PATH or in /usr/lib/postgresql/*/bin;',
    'install postgresql-client) and writes its custom format; restore with the nodes stopped:',
    'pg_restore --clean --if-exists --no-owner --dbname=postgres://… <file>.',
    '',
    'Move to PostgreSQL: stop the server, run db copy --to postgres://user:password@host/database',
    '(an empty database; it is migrated, copied in one transaction and verified table by table;',
    'members keep their passwords and sessions), then start the nodes against that database.',
  ].join('\n')
}

/**
 * Runs the command in `args`. Returns only when the server should start; help, version, backup
 * and misuse exit here (0 done, 1 failed, 2 misuse).
 */
export async function runCommandLine(args: readonly string[], program: string): Promise<void> {
  const command = parseArgs(args)
  switch (command.kind) {
    case 'serve':
      return
    case 'help':
      console.log(usage(program))
      return process.exit(0)
    case 'version':
      console.log(`vibes ${version}`)
      return process.exit(0)
    case 'misuse':
      console.error(`${command.message} (run '${program} --help' for usage)`)
      return process.exit(2)
    case 'backup': {
      const { runBackup } = await import('./backup')
      return process.exit(await runBackup(command.file))
    }
    case 'db-copy': {
      const { runDbCopy } = await import('../db/pg/copy')
      return process.exit(await runDbCopy(command.to))
    }
  }
}
