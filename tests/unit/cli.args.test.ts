// The command line's parser (src/server/cli.ts): which argv starts the server, answers, or is a
// misuse (exit 2). The processes themselves are tried in tests/integration/cli.commands.test.ts.
import { expect, test } from 'bun:test'
import { parseArgs } from '~/server/cli'

test('no arguments serve; help, version and backup <file> are commands', () => {
  expect(parseArgs([])).toEqual({ kind: 'serve' })
  for (const a of ['--help', '-h']) expect(parseArgs([a])).toEqual({ kind: 'help' })
  for (const a of ['--version', '-v']) expect(parseArgs([a])).toEqual({ kind: 'version' })
  expect(parseArgs(['backup', 'nightly.db'])).toEqual({ kind: 'backup', file: 'nightly.db' })
  expect(parseArgs(['db', 'copy', '--to', 'postgres://vibes:pw@db/vibes'])).toEqual({ kind: 'db-copy', to: 'postgres://vibes:pw@db/vibes' })
  expect(parseArgs(['db', 'copy', '--to', 'postgresql://db/vibes'])).toEqual({ kind: 'db-copy', to: 'postgresql://db/vibes' })
  // Help asked of a command is the usage, which covers every command.
  for (const args of [
    ['backup', '--help'],
    ['backup', '-h'],
    ['db', '--help'],
    ['db', 'copy', '--help'],
    ['db', 'copy', '-h'],
  ])
    expect(parseArgs(args)).toEqual({ kind: 'help' })
})

test('anything else is a misuse naming the odd argument', () => {
  const cases: [string[], string][] = [
    [['--port', '80'], "unknown option '--port'"],
    [['start'], "unknown command 'start'"],
    [['--help', 'me'], "unknown command 'me'"],
    [['--version', '--json'], "unknown option '--json'"],
    [['backup'], 'backup needs the file to write: backup <file>'],
    [['backup', 'a.db', 'b.db'], "backup takes one file, got also 'b.db'"],
    [['backup', '--force'], "unknown option '--force' for backup"],
    [['db'], 'db needs a command: db copy --to postgres://…'],
    [['db', 'move'], "unknown db command 'move'"],
    [['db', 'copy'], 'db copy needs the target: db copy --to postgres://user:password@host/database'],
    [['db', 'copy', '--to', 'mysql://db/vibes'], "db copy --to takes a postgres:// URL, got 'mysql://db/vibes'"],
    [['db', 'copy', '--to', 'postgres://db/vibes', '--fast'], "unknown argument '--fast' for db copy"],
  ]
  for (const [args, message] of cases) expect(parseArgs(args)).toEqual({ kind: 'misuse', message })
})
