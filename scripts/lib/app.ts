/**
 * The production app on throwaway services, for `npm test`, `npm run bench` and `npm run lighthouse`: fresh Postgres
 * and Redis, a migrated database, the loopback fakes of every third-party service, the environment the app reads,
 * the build, and the web (and worker) processes. Each step registers its own cleanup; `runCleanups` undoes them
 * in reverse order. The low-level pieces are in ./services.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { RunningFakes } from '../../tests/fakes/index'
import { migrateDatabase } from './migrate'
import {
  ensureDatabase,
  freePort,
  run,
  startPostgres,
  startProcess,
  startRedis,
  stopProcess,
  type Service,
  tmpDir,
  waitForHttp,
} from './services'

export type Cleanups = Array<() => Promise<void>>

/** Runs the cleanups last-in first-out, each one even when another failed. */
export async function runCleanups(cleanups: Cleanups) {
  // Taken out of the list, so that running them again (a stage that stops processes early, then the run's end) is a no-op.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
}

/** Runs a script's `main`, then its cleanups, and exits: with 1 if `main` threw, else with process.exitCode. */
export async function runScript(cleanups: Cleanups, main: () => Promise<void>): Promise<never> {
  try {
    await main()
  } catch (error) {
    console.error(error)
    process.exitCode = 1
  } finally {
    await runCleanups(cleanups)
  }
  process.exit(process.exitCode ?? 0)
}

export type Services = {
  runId: string
  databaseUrl: string
  redisUrl: string
  port: number
  appUrl: string
  /** The web process's and the worker's /metrics ports (METRICS_PORT, WORKER_METRICS_PORT): free ones of this run. */
  metricsPort: number
  workerMetricsPort: number
  fakes: RunningFakes
  /** The build's own folder under .cache (REMIX_BUILD_DIR), when asked for; otherwise the app builds into build/. */
  buildDir?: string
  postgres: Service
  redis: Service
}

/**
 * Fresh Postgres and Redis (data in a scratch folder named after `purpose`), the database `rankwell_<runId>`
 * with every migration applied, a free port for the app, and the fakes (Stripe sends its webhooks to the app).
 * `ownBuildDir`: a build folder of this run only, so a concurrent run's build is never overwritten.
 * `dropDatabase`: drop the database at cleanup when it lives on a Postgres given by DATABASE_URL (an embedded one
 * goes away with the scratch folder).
 */
export async function provisionServices(opts: {
  purpose: string
  runId: string
  cleanups: Cleanups
  ownBuildDir?: boolean
  dropDatabase?: boolean
  /** Postgres and Redis keep their data over a restart (`services.postgres.restart()`, for the chaos soak). */
  restartable?: boolean
}): Promise<Services> {
  const { runId, cleanups } = opts
  const scratch = tmpDir(`rankwell-${opts.purpose}-`)
  cleanups.push(async () => fs.rmSync(scratch, { recursive: true, force: true }))
  const persistent = Boolean(opts.restartable)
  const pg = await startPostgres({ dataDir: path.join(scratch, 'postgres'), port: await freePort(), persistent })
  cleanups.push(pg.stop)
  const redis = await startRedis({ dataDir: path.join(scratch, 'redis'), port: await freePort(), persistent })
  cleanups.push(redis.stop)
  const databaseName = `rankwell_${runId}`
  const databaseUrl = await ensureDatabase(pg.url, databaseName)
  if (opts.dropDatabase && process.env.DATABASE_URL) {
    cleanups.push(async () => {
      const postgres = (await import('postgres')).default
      const admin = postgres(pg.url, { max: 1, onnotice: () => {} })
      await admin.unsafe(`drop database if exists "${databaseName}" with (force)`).catch(() => {})
      await admin.end()
    })
  }
  await migrateDatabase(databaseUrl)

  let buildDir: string | undefined
  if (opts.ownBuildDir) {
    // Inside the project (the server bundle resolves node_modules from its own folder), one folder per run.
    const dir = path.join(process.cwd(), '.cache', `build-${runId}`)
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }))
    buildDir = dir
  }
  return {
    runId,
    databaseUrl,
    redisUrl: redis.url,
    ...(await appAddresses(cleanups)),
    buildDir,
    postgres: pg,
    redis,
  }
}

/**
 * Free ports for an app's web process and its metrics (web and worker), its URL, and the fakes of every provider
 * (Stripe sends its webhooks to that app), closed by `cleanups`.
 */
export async function appAddresses(
  cleanups: Cleanups,
): Promise<Pick<Services, 'port' | 'appUrl' | 'metricsPort' | 'workerMetricsPort' | 'fakes'>> {
  const port = await freePort()
  const appUrl = `http://localhost:${port}`
  const [metricsPort, workerMetricsPort] = [await freePort(), await freePort()]
  const { startFakes } = await import('../../tests/fakes/index')
  const fakes = await startFakes({ stripeWebhookUrl: `${appUrl}/api/stripe/webhook` })
  cleanups.push(fakes.close)
  return { port, appUrl, metricsPort, workerMetricsPort, fakes }
}

/**
 * Issue 34: the fakes answer on loopback, which the SSRF guard refuses in production: each kind of outgoing request
 * that reaches one (webhooks; research pages, sitemaps and stock photos; CMS calls) has its switch on.
 */
export const LOOPBACK_FAKES_ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  RESEARCH_ALLOW_PRIVATE_NETWORKS: 'true',
  CMS_ALLOW_PRIVATE_NETWORKS: 'true',
} as const

/**
 * The environment of the app's processes on these services: this process's environment, the fakes' credentials
 * and URLs and their private-network switches, production mode, the services' URLs, the /metrics ports and token
 * (required in production), a queue prefix of the run's own, then `extra` (wins).
 */
export function appEnv(services: Services, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...services.fakes.env,
    ...LOOPBACK_FAKES_ENV,
    NODE_ENV: 'production',
    PORT: String(services.port),
    METRICS_PORT: String(services.metricsPort),
    WORKER_METRICS_PORT: String(services.workerMetricsPort),
    METRICS_TOKEN: `metrics-${services.runId}`,
    APP_URL: services.appUrl,
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    QUEUE_PREFIX: `rankwell-${services.runId}`,
    ...(services.buildDir ? { REMIX_BUILD_DIR: services.buildDir } : {}),
    ...extra,
  }
}

/** The worker's built entry in the build folder (REMIX_BUILD_DIR, else build/): `npm run build` writes it. */
export function workerEntry(env: NodeJS.ProcessEnv) {
  return path.resolve(env.REMIX_BUILD_DIR ?? 'build', 'worker', 'index.js')
}

/**
 * `npm run build` with this environment (REMIX_BUILD_DIR picks the folder); resolves to its exit code. `exec` runs
 * the command (`npm test` passes one that keeps the output while other stages run beside the build).
 */
export function buildApp(
  env: NodeJS.ProcessEnv,
  exec: (cmd: string, args: string[], env: NodeJS.ProcessEnv) => Promise<number> = run,
): Promise<number> {
  return exec('npm', ['run', 'build', '--silent'], env)
}

/**
 * The web process's built entry in the build folder (REMIX_BUILD_DIR, else build/): server.ts as plain JavaScript,
 * which `npm run build` writes (vite.server.config.ts; issue 39) and `npm start` runs.
 */
export function webEntry(env: NodeJS.ProcessEnv) {
  return path.resolve(env.REMIX_BUILD_DIR ?? 'build', 'web', 'server.js')
}

/** The node arguments that start the built web process (`npm start`), after any of node's own options. */
export function webArgs(env: NodeJS.ProcessEnv) {
  return ['--enable-source-maps', webEntry(env)]
}

/** The production web process (the built server.ts), stopped at cleanup. Wait for it with `waitForApp`. */
export function startWeb(env: NodeJS.ProcessEnv, opts: { quiet: boolean; cleanups: Cleanups; logFile?: string }) {
  // WEB_CPU_PROF_DIR (a folder): the web process writes a V8 CPU profile there when it exits, for `npm run bench`.
  const profile = process.env.WEB_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.WEB_CPU_PROF_DIR}`] : []
  const web = startProcess('web', process.execPath, [...profile, ...webArgs(env)], env, {
    quiet: opts.quiet,
    logFile: opts.logFile,
  })
  opts.cleanups.push(() => stopProcess(web))
  return web
}

/**
 * The built worker (worker/index.ts as plain JavaScript in the build's `worker` folder, as `npm run worker` and
 * fly.toml run it), stopped at cleanup.
 */
export function startWorker(env: NodeJS.ProcessEnv, opts: { quiet: boolean; cleanups: Cleanups; logFile?: string }) {
  const worker = startProcess('worker', process.execPath, ['--enable-source-maps', workerEntry(env)], env, {
    quiet: opts.quiet,
    logFile: opts.logFile,
  })
  opts.cleanups.push(() => stopProcess(worker))
  return worker
}

/** Resolves once the app at APP_URL answers its health check. */
export function waitForApp(env: NodeJS.ProcessEnv) {
  // A loaded machine (CI shares its cores) can take minutes to start the web process: APP_START_TIMEOUT_MS changes the wait.
  return waitForHttp(`${env.APP_URL}/healthz`, Number(process.env.APP_START_TIMEOUT_MS ?? 180_000))
}
