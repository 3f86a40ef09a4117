// `bun run test`: build once, then unit + integration (bun test) and browser tests (bun test with
// playwright-core), and close with one line `N passed, N failed` summed over every run.
const root = new URL('..', import.meta.url).pathname

function run(cmd: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawnSync(cmd, { cwd: root, stdout: 'inherit', stderr: 'pipe', env: { ...process.env, ...env } })
  const stderr = proc.stderr.toString()
  process.stderr.write(stderr)
  return { code: proc.exitCode ?? 1, stderr }
}

function counts(output: string) {
  const pass = Number(/^\s*(\d+) pass$/m.exec(output)?.[1] ?? 0)
  const fail = Number(/^\s*(\d+) fail$/m.exec(output)?.[1] ?? 0)
  return { pass, fail }
}

const args = process.argv.slice(2)
const only = args.find((a) => ['unit', 'integration', 'e2e'].includes(a))

let passed = 0
let failed = 0
let broken = false

console.log('▶ build')
if (run(['bun', 'run', 'build']).code !== 0) {
  console.log('0 passed, 1 failed')
  process.exit(1)
}

// The whole tree typechecks (TypeScript 7, about a second); counted as one test.
if (!only) {
  console.log('▶ typecheck')
  if (run(['bun', 'run', 'typecheck']).code === 0) passed += 1
  else failed += 1
}

const suites: Array<{ name: string; cmd: string[] }> = [
  { name: 'unit', cmd: ['bun', 'test', './tests/unit'] },
  { name: 'integration', cmd: ['bun', 'test', '--timeout', '30000', './tests/integration'] },
  { name: 'e2e', cmd: ['bun', 'test', '--timeout', '90000', ...e2eFiles()] },
]

function e2eFiles(): string[] {
  const glob = new Bun.Glob('tests/e2e/**/*.e2e.ts')
  return [...glob.scanSync({ cwd: root })].sort().map((f) => `./${f}`)
}

for (const suite of suites) {
  if (only && suite.name !== only) continue
  if (suite.cmd.length === 4 && suite.name === 'e2e') continue // no browser test files
  console.log(`▶ ${suite.name}`)
  const { code, stderr } = run(suite.cmd)
  const c = counts(stderr)
  passed += c.pass
  failed += c.fail
  // A runner that crashed before counting still fails the run.
  if (code !== 0 && c.fail === 0) broken = true
}

if (broken) failed += 1
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
