// `npm test`: the static checks (typecheck, lint, format, lockfile, migrations) and the unit tests, side by side with starting
// fresh Postgres and Redis and building the app; then, against those services, the production build and local fakes
// of every third-party service, integration tests over HTTP and the Playwright suite in Chromium. Last, after the
// other stages and on its own (the run's web process and worker are stopped first), a 90-second chaos soak
// (scripts/soak/) on services of its own, reusing this run's build (`npm run soak` runs a longer one).
// It ends with a table of each stage's wall time, then the line `N passed, N failed, N skipped`, always the last.
// Usage: npm test [-- --only=static|unit|build|integration|eval|e2e|soak] [-- --grep=pattern] [-- --skip-soak]
//   [-- --skip-wordpress] [-- --skip-ghost] (leave out the publishing tests against a real WordPress / Ghost)
//   (`build`: only the services and the build, to time them; every later stage implies it)
// TEST_JOBS=N: how many of the static checks and the unit tests run at once (default 2; see runGroup).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import {
  appEnv,
  buildApp,
  provisionServices,
  runCleanups,
  startWeb,
  startWorker,
  waitForApp,
  type Cleanups,
} from './lib/app'
import { announceGhostSite, GHOST_SITE_ENV, startGhost, type GhostSite } from '../tests/setup/ghost'
import { ensureGhost, ensureHeadlessChromium, ensureWordPress, GHOST_VERSION, log, run, tmpDir } from './lib/services'
import { createTemplateDatabase, envChanges, startStack, STACKS_ENV } from './lib/stacks'

const root = process.cwd()
const bin = (name: string) => path.join(root, 'node_modules/.bin', name)
const DEPCRUISE_ARGS = ['app', 'worker', 'server.ts', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']
const argv = process.argv.slice(2)
const only = argv.find((a) => a.startsWith('--only='))?.slice(7)
const grep = argv.find((a) => a.startsWith('--grep='))?.slice(7)
// The publishing tests against a real WordPress install it first (about 2 minutes once per machine).
const skipWordPress = argv.includes('--skip-wordpress')
// The publishing tests against a real Ghost: installed from npm into ~/.cache/rankwell once per machine (minutes,
// beside the other stages) and started for the integration stage. --skip-ghost leaves them out.
const skipGhost = argv.includes('--skip-ghost')
// The chaos soak (90 s) is part of a full run; --skip-soak leaves it out of a local one.
const skipSoak = argv.includes('--skip-soak')
const want = (stage: string) => (!only || only.split(',').includes(stage)) && !(stage === 'soak' && skipSoak)
const artifacts = tmpDir('rankwell-test-reports-')
log(`reports and browser traces: ${artifacts}`)

const totals = { passed: 0, failed: 0, skipped: 0 }
const failures: string[] = []
const cleanups: Cleanups = []

function countVitest(file: string) {
  if (!fs.existsSync(file)) return
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    numPassedTests: number
    numFailedTests: number
    numPendingTests: number
    numTodoTests: number
    testResults?: Array<{
      name: string
      assertionResults?: Array<{ status: string; fullName: string; failureMessages?: string[] }>
    }>
  }
  totals.passed += report.numPassedTests
  totals.failed += report.numFailedTests
  totals.skipped += report.numPendingTests + report.numTodoTests
  for (const file of report.testResults ?? [])
    for (const test of file.assertionResults ?? [])
      if (test.status === 'failed')
        failedTests.push({
          name: `${path.relative(root, file.name)} › ${test.fullName}`,
          error: test.failureMessages?.[0] ?? '',
        })
}

function countPlaywright(file: string) {
  if (!fs.existsSync(file)) return
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number }
    suites?: PlaywrightSuite[]
  }
  totals.passed += report.stats.expected + report.stats.flaky
  totals.failed += report.stats.unexpected
  totals.skipped += report.stats.skipped
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === 'unexpected') {
          const last = test.results?.at(-1)
          failedTests.push({
            name: `[${test.projectName}] ${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`,
            error: last?.error?.message ?? '',
          })
        }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title])
  }
  // The top-level suites are the files (their title is the file name, already in the spec's location).
  for (const suite of report.suites ?? []) walk(suite, [])
}

type PlaywrightSuite = {
  title: string
  specs?: Array<{
    title: string
    file: string
    line: number
    tests?: Array<{ projectName: string; status: string; results?: Array<{ error?: { message?: string } }> }>
  }>
  suites?: PlaywrightSuite[]
}

/**
 * The failed tests of every stage, printed again at the very end of the run with the start of their error: CI keeps
 * only the tail of a long run's output, where a failure of an early stage would otherwise be out of sight.
 */
const failedTests: Array<{ name: string; error: string }> = []
function printFailedTests() {
  if (!failedTests.length) return
  log(`failed tests (${failedTests.length}):`)
  for (const test of failedTests) {
    const error = stripVTControlCharacters(test.error).split('\n').slice(0, 6).join('\n    ').slice(0, 800)
    console.log(`  ✘ ${test.name}\n    ${error}`)
  }
}

/** Runs a command; its output goes to `out` (printed when the stage ends) instead of the terminal. */
type Exec = (cmd: string, args: string[], env?: NodeJS.ProcessEnv) => Promise<number>
function buffered(out: string[]): Exec {
  return (cmd, args, env = process.env) =>
    new Promise((resolve) => {
      const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => out.push(chunk.toString()))
      child.on('error', (error) => out.push(`${error.message}\n`))
      child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
    })
}

/** Each stage's wall time, for the table at the end of the run. */
const runStartedAt = Date.now()
const timings: Array<{ name: string; startedAt: number; seconds: number; result: string }> = []
const seconds = (ms: number) => (ms / 1000).toFixed(1)

/**
 * A stage: its result counts towards the run (a failed one fails the run) and its wall time goes into the table.
 * `sideBySide`: the stage runs beside others, so its command's output is kept and printed in one piece when it ends.
 */
async function stage(name: string, fn: (exec: Exec) => Promise<number>, opts: { sideBySide?: boolean } = {}) {
  const out: string[] = []
  log(`── ${name}${opts.sideBySide ? ' (started)' : ''}`)
  const started = Date.now()
  const code = await fn(opts.sideBySide ? buffered(out) : run).catch((error: unknown) => {
    out.push(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return 1
  })
  const ms = Date.now() - started
  if (out.length) {
    log(`── ${name}: output`)
    process.stdout.write(out.join('').replace(/\n?$/, '\n'))
  }
  log(`── ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds(ms)} s`)
  timings.push({ name, startedAt: started, seconds: ms / 1000, result: code === 0 ? 'ok' : `FAILED (${code})` })
  if (code !== 0) {
    failures.push(name)
    printServerErrors()
  }
  return code
}

/**
 * Runs the stages `jobs` at a time, in the given order (the longest first), each reporting on its own. On CI's two
 * cores, two at a time beside the services' start and the build was the fastest (see the README's Quick start).
 */
async function runGroup(stages: Array<() => Promise<unknown>>, jobs: number) {
  const queue = [...stages]
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(jobs, queue.length)) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift())
        // A stage reports its own failure; anything it throws besides (e.g. an unreadable report) fails the run too.
        await next().catch((error: unknown) => {
          console.error(error)
          failures.push('a stage beside the others crashed')
        })
    }),
  )
}

function printTimings() {
  if (!timings.length) return
  log('stage times (wall clock; stages that overlap ran side by side):')
  const rows = [...timings].sort((a, b) => a.startedAt - b.startedAt)
  const width = Math.max(24, ...rows.map((t) => t.name.length + 2))
  console.log(`  ${'stage'.padEnd(width)}${'from s'.padStart(8)}${'took s'.padStart(8)}  result`)
  for (const t of rows)
    console.log(
      `  ${t.name.padEnd(width)}${seconds(t.startedAt - runStartedAt).padStart(8)}${t.seconds.toFixed(1).padStart(8)}  ${t.result}`,
    )
  console.log(
    `  ${'total (the whole run)'.padEnd(width)}${''.padStart(8)}${seconds(Date.now() - runStartedAt).padStart(8)}`,
  )
}

/** The run's web process and worker log here (quietly); a failed stage prints the error lines they wrote. */
const serverLogs = { web: path.join(artifacts, 'web.log'), worker: path.join(artifacts, 'worker.log') }
const printed = { web: 0, worker: 0 }
function printServerErrors() {
  for (const name of ['web', 'worker'] as const) {
    let text = ''
    try {
      text = fs.readFileSync(serverLogs[name], 'utf8')
    } catch {
      continue
    }
    const lines = text.split('\n')
    const errors = lines.slice(printed[name]).filter((l) => /error|exception|unhandled/i.test(l))
    printed[name] = lines.length
    if (errors.length === 0) continue
    log(
      `${name} process: ${errors.length} error line(s) during the stage (all output in ${serverLogs[name]}), the last 40:`,
    )
    for (const line of errors.slice(-40)) process.stdout.write(`[${name}] ${line.slice(0, 2000)}\n`)
  }
}

/**
 * The real Ghost for the integration stage, from the start of the run on: its install (minutes on a new machine, such
 * as CI's) and the site's first start overlap the static checks, the unit tests, the build and, when still running,
 * the other integration test files; the Ghost tests wait for the announcement file. A failure fails the run (the
 * Ghost tests fail with the reason too): only --skip-ghost leaves them out.
 */
function prepareGhost(announceFile: string): Promise<GhostSite | null> {
  const holder: { site: GhostSite | null } = { site: null }
  const ready = (async () => {
    await stage(
      `Ghost ${GHOST_VERSION} (install, start)`,
      async () => {
        try {
          await ensureGhost()
          const started = Date.now()
          const site = await startGhost()
          holder.site = site
          log(`Ghost ${GHOST_VERSION}: a fresh site at ${site.url}, started in ${seconds(Date.now() - started)} s`)
          announceGhostSite(announceFile, site)
          return 0
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error)
          announceGhostSite(announceFile, { error: message })
          console.error(`[rankwell] Ghost: ${message}`)
          return 1
        }
      },
      { sideBySide: true },
    )
    return holder.site
  })()
  cleanups.push(async () => {
    await (await ready)?.stop()
  })
  return ready
}

async function main() {
  const needsApp = ['build', 'integration', 'e2e', 'eval', 'soak'].some(want)
  const ghostFile = path.join(artifacts, 'ghost-site.json')
  const ghost = want('integration') && !skipGhost ? prepareGhost(ghostFile) : null

  // The static checks and the unit tests, `jobs` at a time, side by side with the services' start and the build: they
  // are independent of each other. Each reports its own result; the output of each is printed when it ends.
  const checks: Array<() => Promise<unknown>> = []
  if (want('static')) {
    checks.push(
      () => stage('typecheck', (exec) => exec(bin('tsc'), ['--noEmit']), { sideBySide: true }),
      () => stage('lint', (exec) => exec(bin('eslint'), ['.', '--max-warnings=0']), { sideBySide: true }),
    )
  }
  if (want('unit')) {
    const out = path.join(artifacts, 'unit.json')
    checks.push(async () => {
      await stage(
        'unit tests',
        (exec) =>
          exec(bin('vitest'), [
            'run',
            '--config',
            'vitest.config.ts',
            '--reporter=default',
            '--reporter=json',
            `--outputFile=${out}`,
            ...(grep ? ['-t', grep] : []),
          ]),
        { sideBySide: true },
      )
      countVitest(out)
    })
  }
  if (want('static')) {
    checks.push(
      () =>
        stage('format', (exec) => exec(bin('prettier'), ['--check', '.', '--log-level=warn']), { sideBySide: true }),
      // The Dockerfile installs with `npm ci`: fail here when the lockfile is out of step with package.json.
      () =>
        stage('lockfile', (exec) => exec('npm', ['ci', '--dry-run', '--no-audit', '--no-fund', '--loglevel=error']), {
          sideBySide: true,
        }),
      // The migrations check (issue 31 item 4): `npm run db:generate` would write nothing (drizzle/ agrees with the schema).
      () => stage('migrations', (exec) => exec(bin('tsx'), ['scripts/check-migrations.ts']), { sideBySide: true }),
      // Issue 38: clients/rankwell-api.ts is what `npm run api:client` generates from the OpenAPI document.
      () => stage('api client', (exec) => exec(bin('tsx'), ['scripts/api-client.ts', '--check']), { sideBySide: true }),
      // The import boundaries (issue 31 item 2): .dependency-cruiser.cjs, the picture in docs/contracts.md.
      () => stage('boundaries', (exec) => exec(bin('depcruise'), DEPCRUISE_ARGS), { sideBySide: true }),
    )
  }
  const jobs = Number(process.env.TEST_JOBS ?? 2)
  const checksDone = runGroup(checks, Number.isFinite(jobs) && jobs > 0 ? jobs : 2)
  try {
    if (needsApp) await appStages(checksDone, ghost ? ghostFile : null)
  } finally {
    // Their results count even when a later stage crashed, and their processes end before the run's cleanups.
    await checksDone
    await ghost
  }
}

/** The services, the build (beside the static checks), then the stages that run against the app. */
async function appStages(checksDone: Promise<void>, ghostFile: string | null) {
  // Fresh services for this run only: nothing is shared with `npm run dev` or with another run.
  const runId = `t${Date.now().toString(36)}${process.pid}`
  const servicesStarted = Date.now()
  const services = await provisionServices({
    purpose: 'test',
    runId,
    cleanups,
    ownBuildDir: true,
    dropDatabase: true,
  })
  const servicesTook = Date.now() - servicesStarted
  log(`── services (Postgres, Redis, migrations, fakes): ok in ${seconds(servicesTook)} s`)
  timings.push({ name: 'services', startedAt: servicesStarted, seconds: servicesTook / 1000, result: 'ok' })
  const env = appEnv(services, {
    SESSION_SECRET: `test-secret-${runId}`,
    // Credentials at rest (Search Console refresh tokens) are encrypted; production mode requires a key.
    ENCRYPTION_KEY: `test-encryption-key-${runId}-0123456789abcdef`,
    // The three private-network switches (the fakes are on loopback) and METRICS_TOKEN come with appEnv.
    // One trusted proxy: tests stand in for many clients with X-Forwarded-For (the rightmost entry counts).
    TRUST_PROXY: '1',
    SUPPORT_EMAIL: 'support@rankwell.test',
    // Short stall detection so that a killed worker's job is picked up again within the test's time.
    WORKER_STALLED_INTERVAL_MS: '2000',
    WORKER_LOCK_DURATION_MS: '4000',
    // Publishing: quick retries and a short claim lease, so that retries and a killed worker finish in test time.
    PUBLISH_RETRY_BASE_MS: '300',
    PUBLISH_CLAIM_LEASE_MS: '3000',
    PUBLISH_SWEEP_EVERY_MS: '2000',
    // Tests run extra workers on queue prefixes of their own against this one database: the main worker must not
    // take their posts for lost ones, so a post counts as stale after 15 minutes here (a minute by default).
    POST_STALE_AFTER_MS: '900000',
  })

  await stage('build', (exec) => buildApp(env, exec), { sideBySide: true })
  if (failures.includes('build')) return

  // The soak runs processes of its own on this build: the run's web process and worker are for the other stages,
  // and are stopped before it (they would take CPU from the soak's processes on a small machine).
  const appProcesses: Cleanups = []
  if (want('integration') || want('e2e') || want('eval')) {
    const quiet = !process.env.TEST_VERBOSE
    startWeb(env, { quiet, cleanups: appProcesses, logFile: serverLogs.web })
    startWorker(env, { quiet, cleanups: appProcesses, logFile: serverLogs.worker })
    cleanups.push(() => runCleanups(appProcesses))
    await waitForApp(env)
  }
  // The later stages need the machine to themselves (and the static checks' results first).
  await checksDone

  // The publishing tests against a real WordPress (integration) and the first-run walk (e2e, issue 35) start one each.
  if (want('integration') || want('e2e')) {
    if (!skipWordPress && !ensureWordPress()) log('WordPress could not be installed: its publishing tests will say so')
    if (skipWordPress) env.RANKWELL_SKIP_WORDPRESS = '1'
  }
  if (want('integration')) {
    // The Ghost site may still be on its way (a new machine's install): its tests wait for this file.
    if (ghostFile) env[GHOST_SITE_ENV] = ghostFile
    if (skipGhost) env.RANKWELL_SKIP_GHOST = '1'
    const out = path.join(artifacts, 'integration.json')
    // Test files run in parallel, each vitest worker on an app stack of its own (scripts/lib/stacks.ts): the run's app
    // for the first, and for each other one a database copied from a migrated template, a Redis, fakes, a web process
    // and a worker. INTEGRATION_WORKERS sets how many (2 by default: this machine and CI have 2 cores).
    const workers = Math.max(1, Number(process.env.INTEGRATION_WORKERS ?? 2))
    const stackCleanups: Cleanups = []
    cleanups.push(() => runCleanups(stackCleanups))
    await stage('integration tests', async () => {
      let stacks: NodeJS.ProcessEnv[]
      try {
        const template = await createTemplateDatabase(services.postgres.url, `rankwell_${runId}_tpl`, stackCleanups)
        const quiet = !process.env.TEST_VERBOSE
        stacks = await Promise.all(
          Array.from({ length: workers - 1 }, (_, i) =>
            startStack({
              services,
              base: env,
              template,
              index: i + 2,
              cleanups: stackCleanups,
              logs: serverLogs,
              quiet,
            }),
          ),
        )
      } catch (error) {
        console.error(error)
        return 1
      }
      log(`integration tests: ${workers} worker(s), each on an app of its own`)
      return run(
        bin('vitest'),
        [
          'run',
          '--config',
          'vitest.integration.config.ts',
          '--reporter=default',
          '--reporter=json',
          `--outputFile=${out}`,
          ...(grep ? ['-t', grep] : []),
        ],
        {
          ...env,
          RANKWELL_INTEGRATION_WORKERS: String(workers),
          [STACKS_ENV]: JSON.stringify(stacks.map((stack) => envChanges(env, stack))),
        },
      )
    })
    // The other stacks' processes would take CPU from the later stages.
    await runCleanups(stackCleanups)
    countVitest(out)
  }
  // The prompt evaluation (npm run eval:posts) on two keywords against the fakes, so that it cannot rot.
  if (want('eval') && (!grep || only?.split(',').includes('eval')))
    await stage('eval:posts (quick)', () => run(bin('tsx'), ['scripts/eval-posts.ts', '--env', '--quick'], env))
  if (want('e2e')) {
    const chromium = ensureHeadlessChromium()
    const out = path.join(artifacts, 'e2e.json')
    await stage('end-to-end tests (Playwright)', () =>
      run(bin('playwright'), ['test', ...(grep ? ['--grep', grep] : [])], {
        ...env,
        BASE_URL: services.appUrl,
        CHROMIUM_PATH: chromium ?? '',
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
        PLAYWRIGHT_OUTPUT_DIR: path.join(artifacts, 'playwright'),
        // A whole run records no traces (CI keeps only the console; recording cost about a third of the stage); a
        // narrowed run (--grep, to look into a failure) keeps a failed test's trace. PLAYWRIGHT_TRACE=on|off decides.
        PLAYWRIGHT_TRACE: process.env.PLAYWRIGHT_TRACE ?? (grep ? 'on' : 'off'),
      }),
    )
    countPlaywright(out)
  }
  if (want('soak')) {
    await runCleanups(appProcesses)
    // Its own Postgres and Redis (it restarts them), so it gets this process's environment, not the app's.
    // 90 s of traffic with every fault once (the model's and Stripe's hangs 20 s each); `npm run soak` runs longer.
    await stage('chaos soak (90 s)', () =>
      run(
        bin('tsx'),
        ['scripts/soak/index.ts', '--minutes=1.5', '--chaos', '--hang-seconds=20', `--build-dir=${services.buildDir}`],
        process.env,
      ),
    )
  }
}

let crashed = false
try {
  await main()
} catch (error) {
  crashed = true
  console.error(error)
} finally {
  await runCleanups(cleanups)
}
printTimings()
printFailedTests()
if (failures.length) log(`failed stages: ${failures.join(', ')}`)
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(crashed || failures.length || totals.failed ? 1 : 0)
