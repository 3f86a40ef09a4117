// `bun run test`: build once, typecheck, lint (Biome), then unit + integration (bun test), browser tests
// (bun test with playwright-core, one process per file) and the files of tests/postgres-suite.txt once
// more on PostgreSQL, and close with one line `N passed, N failed` summed over every run.
// `bun run test unit|integration|e2e|postgres` runs one suite.
//
// After the unit tests, the runs go two at a time (TEST_LANES, default 2): a browser test spends
// most of its time waiting on real audio and video, so two lanes fill the machine where one left
// it half idle, and the SQLite and PostgreSQL suites finish together. Each run's output is printed
// whole when it ends. The files that measure what the tab outputs against the clock run alone.
//
// A browser test file that fails is run once more, as Playwright's CI retries do: a real-browser
// test on a loaded 2-core machine can lose a race that a user never would. The retry is reported
// by name, and only the second run's counts are added; a file failing twice fails the run.
const root = new URL('..', import.meta.url).pathname
const LANES = Math.max(1, Number(process.env.TEST_LANES ?? 2))
/** Browser test files that time audio in the tab: nothing else runs beside them. */
const ALONE = /gapless/

type Result = { code: number; pass: number; fail: number }
type Job = { title: string; cmd: string[]; env?: Record<string, string>; retry?: string }

async function run(title: string, cmd: string[], env: Record<string, string> = {}): Promise<Result> {
  const proc = Bun.spawn(cmd, { cwd: root, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } })
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  await proc.exited
  const result = { code: proc.exitCode ?? 1, ...counts(stderr) }
  let report = `▶ ${title}\n${stdout}${stderr}`
  // Named, so that a run failing without a failed test (a crash, a signal) is found in the log.
  if (result.code !== 0) report += `✗ ${cmd.join(' ')} exited with ${proc.exitCode ?? proc.signalCode} (${result.fail} failed)\n`
  process.stdout.write(report)
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
function tally(r: Result) {
  passed += r.pass
  failed += r.fail
  if (r.code !== 0 && r.fail === 0) failed += 1
}

async function runJob(job: Job) {
  let result = await run(job.title, job.cmd, job.env)
  if (result.code !== 0 && job.retry) {
    console.log(`↻ retrying ${job.retry} once`)
    retried.push(job.retry)
    result = await run(`${job.title} (retry)`, job.cmd, job.env)
  }
  tally(result)
}

/** Runs the jobs LANES at a time, in order of the list (the longest first). */
async function inLanes(jobs: Job[]) {
  const queue = [...jobs]
  await Promise.all(
    Array.from({ length: Math.min(LANES, jobs.length) }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) await runJob(job)
    }),
  )
}

if ((await run('build', ['bun', 'run', 'build'])).code !== 0) {
  console.log('0 passed, 1 failed')
  process.exit(1)
}

if (!only) {
  // The whole tree typechecks (TypeScript 7, about a second); counted as one test.
  if ((await run('typecheck', ['bun', 'run', 'typecheck'])).code === 0) passed += 1
  else failed += 1
  // Biome: formatting and lint, including the rule that keeps client and shared code away from
  // server and database modules; counted as one test.
  if ((await run('lint', ['bun', 'run', 'lint'])).code === 0) passed += 1
  else failed += 1
}

if (!only || only === 'unit') tally(await run('unit', ['bun', 'test', './tests/unit']))

const postgres = { VIBES_TEST_ENGINE: 'postgres' }
const e2e = (file: string, engine?: typeof postgres): Job => ({
  title: `${engine ? 'postgres ' : ''}e2e ${file}`,
  cmd: ['bun', 'test', '--timeout', '90000', `./${file}`],
  env: engine,
  retry: engine ? `${file} (PostgreSQL)` : file,
})

const jobs: Job[] = []
if (!only || only === 'integration') jobs.push({ title: 'integration', cmd: ['bun', 'test', '--timeout', '30000', './tests/integration'] })
// The same files on a real PostgreSQL (tests/helpers/server.ts starts a throwaway cluster).
const listed = (await Bun.file(`${root}tests/postgres-suite.txt`).text())
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
if (!only || only === 'postgres') {
  const integration = listed.filter((file) => !file.endsWith('.e2e.ts'))
  jobs.push({ title: 'postgres integration', cmd: ['bun', 'test', '--timeout', '30000', ...integration.map((file) => `./${file}`)], env: postgres })
}
const browserFiles = [...new Bun.Glob('tests/e2e/**/*.e2e.ts').scanSync({ cwd: root })].sort()
const browserJobs: Job[] = []
if (!only || only === 'e2e') browserJobs.push(...browserFiles.map((file) => e2e(file)))
if (!only || only === 'postgres') browserJobs.push(...listed.filter((f) => f.endsWith('.e2e.ts')).map((file) => e2e(file, postgres)))

await inLanes([...jobs, ...browserJobs.filter((job) => !ALONE.test(job.title))])
for (const job of browserJobs.filter((job) => ALONE.test(job.title))) await runJob(job)

if (retried.length) console.log(`Retried browser test files: ${retried.join(', ')}`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
