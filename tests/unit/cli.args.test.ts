// The command line's parser (src/server/cli.ts): which argv starts the server, answers, or is a
// misuse (exit 2). The processes themselves are tried in tests/integration/cli.commands.test.ts.
import { expect, test } from 'bun:test'
import { parseArgs } from '~/server/cli'

test('no arguments serve; help, version and backup <file> are commands', () => {
  expect(parseArgs([])).toEqual({ kind: 'serve' })
  for (const a of ['--help', '-h']) expect(parseArgs([a])).toEqual({ kind: 'help' })
  for (const a of ['--version', '-v']) expect(parseArgs([a])).toEqual({ kind: 'version' })
  expect(parseArgs(['backup', 'nightly.db'])).toEqual({ kind: 'backup', file: 'nightly.db' })
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
  ]
  for (const [args, message] of cases) expect(parseArgs(args)).toEqual({ kind: 'misuse', message })
})
