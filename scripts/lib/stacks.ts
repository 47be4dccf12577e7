/**
 * The integration stage's app stacks: vitest runs test files in parallel, one worker per stack, and every vitest
 * worker (VITEST_POOL_ID) talks to an app of its own, so that a test never sees another file's requests, jobs, rows
 * or fake settings. A stack is a database created from a migrated template (`CREATE DATABASE … TEMPLATE`), a Redis of
 * its own, its own loopback fakes, and the built web process and worker on free ports, with the environment of
 * `appEnv` (the same variables as the run's own app, only the addresses differ). tests/setup/stack.ts hands a vitest
 * worker its stack's environment.
 */
import fs from 'node:fs'
import path from 'node:path'
import postgres from 'postgres'
import { appAddresses, appEnv, startWeb, startWorker, waitForApp, type Cleanups, type Services } from './app'
import { migrateDatabase } from './migrate'
import { freePort, startRedis, tmpDir, type Service } from './services'

/** The environment variable that carries the stacks' environments (a JSON array, the first for VITEST_POOL_ID 1). */
export const STACKS_ENV = 'RANKWELL_TEST_STACKS'

/** A database of every migration, only ever copied (Postgres copies a template only while nobody is connected). */
export async function createTemplateDatabase(serverUrl: string, name: string, cleanups: Cleanups) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`)
    await admin.unsafe(`create database "${name}"`)
  } finally {
    await admin.end()
  }
  cleanups.push(() => dropDatabase(serverUrl, name))
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  await migrateDatabase(url.toString())
  return name
}

async function dropDatabase(serverUrl: string, name: string) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {})
  await admin.end()
}

/** A new database `name`, a copy of `template`; dropped at cleanup. Returns its URL. */
async function cloneDatabase(serverUrl: string, template: string, name: string, cleanups: Cleanups) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  try {
    await admin.unsafe(`create database "${name}" template "${template}"`)
  } finally {
    await admin.end()
  }
  cleanups.push(() => dropDatabase(serverUrl, name))
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/**
 * A Redis of the stack's own: a redis-server in `dataDir`, or, on a Redis given by REDIS_URL, a logical database of
 * its own (rate-limit windows and claims are keyed outside the queue prefix).
 */
async function stackRedis(dataDir: string, index: number): Promise<Service> {
  if (process.env.REDIS_URL) {
    const url = new URL(process.env.REDIS_URL)
    url.pathname = `/${index}`
    return { url: url.toString(), stop: async () => {} }
  }
  return startRedis({ dataDir, port: await freePort(), persistent: false })
}

/**
 * Stack number `index` (2, 3…; the run's own app is the first): its database from `template`, its Redis, fakes, web
 * process and worker, all stopped and removed by `cleanups`. Its environment is `base` (the run's app's) with the
 * addresses `appEnv` derives from the services replaced by its own. Resolves once the app answers its health check.
 */
export async function startStack(opts: {
  /** The run's services, and the environment of its app. */
  services: Services
  base: NodeJS.ProcessEnv
  template: string
  index: number
  cleanups: Cleanups
  /** The processes' output is appended to these files (the run's own app writes there too). */
  logs: { web: string; worker: string }
  quiet: boolean
}): Promise<NodeJS.ProcessEnv> {
  const { services, index, cleanups } = opts
  const runId = `${services.runId}s${index}`
  const scratch = tmpDir(`rankwell-stack${index}-`)
  cleanups.push(async () => fs.rmSync(scratch, { recursive: true, force: true }))
  const redis = await stackRedis(path.join(scratch, 'redis'), index)
  cleanups.push(redis.stop)
  const databaseUrl = await cloneDatabase(services.postgres.url, opts.template, `rankwell_${runId}`, cleanups)
  const stack: Services = {
    ...services,
    runId,
    databaseUrl,
    redisUrl: redis.url,
    ...(await appAddresses(cleanups)),
    redis,
  }
  const env = { ...opts.base, ...envChanges(appEnv(services), appEnv(stack)) }
  startWeb(env, { quiet: opts.quiet, cleanups, logFile: opts.logs.web })
  startWorker(env, { quiet: opts.quiet, cleanups, logFile: opts.logs.worker })
  await waitForApp(env)
  return env
}

/** What a stack's environment changes in `base` (the addresses): the value of STACKS_ENV holds only that. */
export function envChanges(base: NodeJS.ProcessEnv, env: NodeJS.ProcessEnv): Record<string, string> {
  const changes: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined && base[key] !== value) changes[key] = value
  return changes
}
