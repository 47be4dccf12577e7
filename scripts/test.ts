// `npm test`: typecheck, lint, unit tests, then — against fresh Postgres and Redis, the production build and
// local fakes of every third-party service — integration tests over HTTP and the Playwright suite in Chromium.
// Usage: npm test [-- --only=unit|integration|e2e] [-- --grep=pattern]
import fs from 'node:fs'
import path from 'node:path'
import { migrateDatabase } from './lib/migrate'
import {
  ensureChromium,
  ensureDatabase,
  freePort,
  log,
  run,
  startPostgres,
  startProcess,
  startRedis,
  stopProcess,
  tmpDir,
  waitForHttp,
} from './lib/services'

const root = process.cwd()
const bin = (name: string) => path.join(root, 'node_modules/.bin', name)
const argv = process.argv.slice(2)
const only = argv.find((a) => a.startsWith('--only='))?.slice(7)
const grep = argv.find((a) => a.startsWith('--grep='))?.slice(7)
const want = (stage: string) => !only || only.split(',').includes(stage)
const artifacts = tmpDir('rankwell-test-reports-')
log(`reports and browser traces: ${artifacts}`)

const totals = { passed: 0, failed: 0, skipped: 0 }
const failures: string[] = []
const cleanups: Array<() => Promise<void>> = []

function countVitest(file: string) {
  if (!fs.existsSync(file)) return
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number }
  totals.passed += report.numPassedTests
  totals.failed += report.numFailedTests
  totals.skipped += report.numPendingTests + report.numTodoTests
}

function countPlaywright(file: string) {
  if (!fs.existsSync(file)) return
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } }
  totals.passed += report.stats.expected + report.stats.flaky
  totals.failed += report.stats.unexpected
  totals.skipped += report.stats.skipped
}

async function stage(name: string, fn: () => Promise<number>) {
  log(`── ${name}`)
  const started = Date.now()
  const code = await fn()
  log(`── ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  if (code !== 0) failures.push(name)
}

async function main() {
  if (want('static')) {
    await stage('typecheck', () => run(bin('tsc'), ['--noEmit']))
    await stage('lint', () => run(bin('eslint'), ['.', '--max-warnings=0']))
  }
  if (want('unit')) {
    const out = path.join(artifacts, 'unit.json')
    await stage('unit tests', () =>
      run(bin('vitest'), ['run', '--config', 'vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile=${out}`, ...(grep ? ['-t', grep] : [])]),
    )
    countVitest(out)
  }
  if (!want('integration') && !want('e2e')) return

  // Fresh services for this run only: nothing is shared with `npm run dev` or with another run.
  const scratch = tmpDir('rankwell-test-')
  cleanups.push(async () => fs.rmSync(scratch, { recursive: true, force: true }))
  const pg = await startPostgres({ dataDir: path.join(scratch, 'postgres'), port: await freePort(), persistent: false })
  cleanups.push(pg.stop)
  const redis = await startRedis({ dataDir: path.join(scratch, 'redis'), port: await freePort(), persistent: false })
  cleanups.push(redis.stop)
  const runId = `t${Date.now().toString(36)}${process.pid}`
  const databaseUrl = await ensureDatabase(pg.url, `rankwell_${runId}`)
  if (process.env.DATABASE_URL) {
    cleanups.push(async () => {
      const postgres = (await import('postgres')).default
      const admin = postgres(pg.url, { max: 1, onnotice: () => {} })
      await admin.unsafe(`drop database if exists "rankwell_${runId}" with (force)`).catch(() => {})
      await admin.end()
    })
  }
  await migrateDatabase(databaseUrl)

  const buildDir = path.join(root, '.cache', `build-${runId}`)
  cleanups.push(async () => fs.rmSync(buildDir, { recursive: true, force: true }))
  const port = await freePort()
  const appUrl = `http://localhost:${port}`
  const { startFakes } = await import('../tests/fakes/index')
  const fakes = await startFakes({ stripeWebhookUrl: `${appUrl}/api/stripe/webhook` })
  cleanups.push(fakes.close)

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...fakes.env,
    NODE_ENV: 'production',
    PORT: String(port),
    APP_URL: appUrl,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `rankwell-${runId}`,
    SESSION_SECRET: `test-secret-${runId}`,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    // Tests stand in for many clients by sending X-Forwarded-For.
    TRUST_FORWARDED_FOR: 'true',
    SUPPORT_EMAIL: 'support@rankwell.test',
    // Short stall detection so that a killed worker's job is picked up again within the test's time.
    // Inside the project (the server bundle resolves node_modules from its own folder), one folder per run.
    REMIX_BUILD_DIR: buildDir,
    WORKER_STALLED_INTERVAL_MS: '2000',
    WORKER_LOCK_DURATION_MS: '4000',
  }

  await stage('build', () => run('npm', ['run', 'build', '--silent'], env))
  if (failures.includes('build')) return

  const web = startProcess('web', process.execPath, ['--import', 'tsx', 'server.ts'], env, { quiet: !process.env.TEST_VERBOSE })
  const worker = startProcess('worker', process.execPath, ['--import', 'tsx', 'worker/index.ts'], env, { quiet: !process.env.TEST_VERBOSE })
  cleanups.push(() => stopProcess(web), () => stopProcess(worker))
  await waitForHttp(`${appUrl}/healthz`)

  if (want('integration')) {
    const out = path.join(artifacts, 'integration.json')
    await stage('integration tests', () =>
      run(
        bin('vitest'),
        ['run', '--config', 'vitest.integration.config.ts', '--reporter=default', '--reporter=json', `--outputFile=${out}`, ...(grep ? ['-t', grep] : [])],
        env,
      ),
    )
    countVitest(out)
  }
  if (want('e2e')) {
    const chromium = ensureChromium()
    const out = path.join(artifacts, 'e2e.json')
    await stage('end-to-end tests (Playwright)', () =>
      run(bin('playwright'), ['test', ...(grep ? ['--grep', grep] : [])], {
        ...env,
        BASE_URL: appUrl,
        CHROMIUM_PATH: chromium ?? '',
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
        PLAYWRIGHT_OUTPUT_DIR: path.join(artifacts, 'playwright'),
      }),
    )
    countPlaywright(out)
  }
}

let crashed = false
try {
  await main()
} catch (error) {
  crashed = true
  console.error(error)
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
}
if (failures.length) log(`failed stages: ${failures.join(', ')}`)
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(crashed || failures.length || totals.failed ? 1 : 0)
