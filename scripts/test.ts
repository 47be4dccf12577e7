// `npm test`: typecheck, lint, unit tests, then — against fresh Postgres and Redis, the production build and
// local fakes of every third-party service — integration tests over HTTP and the Playwright suite in Chromium.
// Last, after the other stages and on its own (the run's web process and worker are stopped first), a 3-minute chaos
// soak (scripts/soak.ts) on services of its own, reusing this run's build.
// Usage: npm test [-- --only=static|unit|integration|eval|e2e|soak] [-- --grep=pattern] [-- --skip-soak]
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
import { ensureChromium, ensureWordPress, log, run, tmpDir } from './lib/services'
import { createTemplateDatabase, envChanges, startStack, STACKS_ENV } from './lib/stacks'

const root = process.cwd()
const bin = (name: string) => path.join(root, 'node_modules/.bin', name)
const argv = process.argv.slice(2)
const only = argv.find((a) => a.startsWith('--only='))?.slice(7)
const grep = argv.find((a) => a.startsWith('--grep='))?.slice(7)
// The publishing tests against a real WordPress install it first (about 2 minutes once per machine).
const skipWordPress = argv.includes('--skip-wordpress')
// The chaos soak (3 minutes) is part of a full run; --skip-soak leaves it out of a local one.
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

async function stage(name: string, fn: () => Promise<number>) {
  log(`── ${name}`)
  const started = Date.now()
  const code = await fn()
  log(`── ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  if (code !== 0) {
    failures.push(name)
    printServerErrors()
  }
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

async function main() {
  if (want('static')) {
    await stage('typecheck', () => run(bin('tsc'), ['--noEmit']))
    await stage('lint', () => run(bin('eslint'), ['.', '--max-warnings=0']))
    await stage('format', () => run(bin('prettier'), ['--check', '.', '--log-level=warn']))
    // The Dockerfile installs with `npm ci`: fail here when the lockfile is out of step with package.json.
    await stage('lockfile', () => run('npm', ['ci', '--dry-run', '--no-audit', '--no-fund', '--loglevel=error']))
  }
  if (want('unit')) {
    const out = path.join(artifacts, 'unit.json')
    await stage('unit tests', () =>
      run(bin('vitest'), [
        'run',
        '--config',
        'vitest.config.ts',
        '--reporter=default',
        '--reporter=json',
        `--outputFile=${out}`,
        ...(grep ? ['-t', grep] : []),
      ]),
    )
    countVitest(out)
  }
  if (!want('integration') && !want('e2e') && !want('eval') && !want('soak')) return

  // Fresh services for this run only: nothing is shared with `npm run dev` or with another run.
  const runId = `t${Date.now().toString(36)}${process.pid}`
  const services = await provisionServices({ purpose: 'test', runId, cleanups, ownBuildDir: true, dropDatabase: true })
  const env = appEnv(services, {
    SESSION_SECRET: `test-secret-${runId}`,
    // Credentials at rest (Search Console refresh tokens) are encrypted; production mode requires a key.
    ENCRYPTION_KEY: `test-encryption-key-${runId}-0123456789abcdef`,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
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

  await stage('build', () => buildApp(env))
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

  if (want('integration')) {
    if (!skipWordPress && !ensureWordPress()) log('WordPress could not be installed: its publishing tests will say so')
    if (skipWordPress) env.RANKWELL_SKIP_WORDPRESS = '1'
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
    const chromium = ensureChromium()
    const out = path.join(artifacts, 'e2e.json')
    await stage('end-to-end tests (Playwright)', () =>
      run(bin('playwright'), ['test', ...(grep ? ['--grep', grep] : [])], {
        ...env,
        BASE_URL: services.appUrl,
        CHROMIUM_PATH: chromium ?? '',
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
        PLAYWRIGHT_OUTPUT_DIR: path.join(artifacts, 'playwright'),
      }),
    )
    countPlaywright(out)
  }
  if (want('soak')) {
    await runCleanups(appProcesses)
    // Its own Postgres and Redis (it restarts them), so it gets this process's environment, not the app's.
    await stage('chaos soak (3 minutes)', () =>
      run(bin('tsx'), ['scripts/soak.ts', '--minutes=3', '--chaos', `--build-dir=${services.buildDir}`], process.env),
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
printFailedTests()
if (failures.length) log(`failed stages: ${failures.join(', ')}`)
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(crashed || failures.length || totals.failed ? 1 : 0)
