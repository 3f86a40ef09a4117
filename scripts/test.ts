// `bun run test`: build once, typecheck, lint (Biome), then unit + integration (bun test), browser tests
// (bun test with playwright-core, one process per file) and the files of tests/postgres-suite.txt once
// more on PostgreSQL, and close with one line `N passed, N failed` summed over every run.
// `bun run test unit|integration|e2e|postgres` runs one suite.
//
// A browser test file that fails is run once more, as Playwright's CI retries do: a real-browser
// test on a loaded 2-core machine can lose a race that a user never would. The retry is reported
// by name, and only the second run's counts are added; a file failing twice fails the run.
const root = new URL('..', import.meta.url).pathname

function run(cmd: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawnSync(cmd, { cwd: root, stdout: 'inherit', stderr: 'pipe', env: { ...process.env, ...env } })
  const stderr = proc.stderr.toString()
  process.stderr.write(stderr)
  const result = { code: proc.exitCode ?? 1, ...counts(stderr) }
  // Named, so that a run failing without a failed test (a crash, a signal) is found in the log.
  if (result.code !== 0) console.log(`✗ ${cmd.join(' ')} exited with ${proc.exitCode ?? proc.signalCode} (${result.fail} failed)`)
  return result
}

function counts(output: string) {
  const pass = Number(/^\s*(\d+) pass$/m.exec(output)?.[1] ?? 0)
  const fail = Number(/^\s*(\d+) fail$/m.exec(output)?.[1] ?? 0)
  return { pass, fail }
}

const only = process.argv.slice(2).find((a) => ['unit', 'integration', 'e2e', 'postgres'].includes(a))
let passed = 0
let failed = 0
const retried: string[] = []

/** Adds a run's counts; a runner that exited non-zero without counting a failure still fails. */
function tally(r: { code: number; pass: number; fail: number }) {
  passed += r.pass
  failed += r.fail
  if (r.code !== 0 && r.fail === 0) failed += 1
}

console.log('▶ build')
if (run(['bun', 'run', 'build']).code !== 0) {
  console.log('0 passed, 1 failed')
  process.exit(1)
}

if (!only) {
  // The whole tree typechecks (TypeScript 7, about a second); counted as one test.
  console.log('▶ typecheck')
  if (run(['bun', 'run', 'typecheck']).code === 0) passed += 1
  else failed += 1
  // Biome: formatting and lint, including the rule that keeps client and shared code away from
  // server and database modules; counted as one test.
  console.log('▶ lint')
  if (run(['bun', 'run', 'lint']).code === 0) passed += 1
  else failed += 1
}

if (!only || only === 'unit') {
  console.log('▶ unit')
  tally(run(['bun', 'test', './tests/unit']))
}

if (!only || only === 'integration') {
  console.log('▶ integration')
  tally(run(['bun', 'test', '--timeout', '30000', './tests/integration']))
}

if (!only || only === 'e2e') {
  const files = [...new Bun.Glob('tests/e2e/**/*.e2e.ts').scanSync({ cwd: root })].sort()
  for (const file of files) {
    console.log(`▶ e2e ${file}`)
    let result = run(['bun', 'test', '--timeout', '90000', `./${file}`])
    if (result.code !== 0) {
      console.log(`↻ retrying ${file} once`)
      retried.push(file)
      result = run(['bun', 'test', '--timeout', '90000', `./${file}`])
    }
    tally(result)
  }
}

if (!only || only === 'postgres') {
  // The same files on a real PostgreSQL (tests/helpers/server.ts starts a throwaway cluster).
  const listed = (await Bun.file(`${root}tests/postgres-suite.txt`).text())
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
  const engine = { VIBES_TEST_ENGINE: 'postgres' }
  const integration = listed.filter((file) => !file.endsWith('.e2e.ts'))
  console.log('▶ postgres integration')
  tally(run(['bun', 'test', '--timeout', '30000', ...integration.map((file) => `./${file}`)], engine))
  for (const file of listed.filter((f) => f.endsWith('.e2e.ts'))) {
    console.log(`▶ postgres e2e ${file}`)
    let result = run(['bun', 'test', '--timeout', '90000', `./${file}`], engine)
    if (result.code !== 0) {
      console.log(`↻ retrying ${file} on PostgreSQL once`)
      retried.push(`${file} (PostgreSQL)`)
      result = run(['bun', 'test', '--timeout', '90000', `./${file}`], engine)
    }
    tally(result)
  }
}

if (retried.length) console.log(`Retried browser test files: ${retried.join(', ')}`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
