// `npm run soak -- --minutes=N [--chaos] [--hang-seconds=S] [--build-dir=DIR]`: the production build on fresh,
// restartable Postgres and Redis with the fakes of every provider; two web processes behind a small health-checked
// balancer (as Fly's proxy) and one worker; virtual users driving mixed traffic (pages, the JSON API, sign-ups,
// keyword searches, posts, Auto Pilot, checkout, bad requests). With --chaos, faults on a fixed schedule: SIGKILL the
// worker, SIGKILL a web process, restart Redis, restart Postgres, the model provider hangs, Stripe's API hangs (30 s
// each, or --hang-seconds). Asserts: every request answered within 5 s with a non-5xx status (a 503 with Retry-After
// is fine), recovery within 10 s of each fault, no post lost or written twice, no quota unit lost or taken twice,
// memory bounded. Prints a table per fault and exits 1 on any violation.
//
// The parts: ./processes (supervised, restartable processes), ./balancer, ./virtual-users, ./faults (the schedule and
// the recovery probes), ./checks (recording answers, memory, what Postgres holds), ./judge (pure: pass or fail from
// the figures) and ./report.
import fs from 'node:fs'
import path from 'node:path'
import {
  appEnv,
  buildApp,
  provisionServices,
  runScript,
  startWeb,
  startWorker,
  waitForApp,
  type Cleanups,
} from '../lib/app'
import { freePort, log } from '../lib/services'
import { balancer } from './balancer'
import { createTraffic, makePremium, readStored, sampleMemory, soakDb, waitForPosts } from './checks'
import { faultSchedule, probes, runFaults } from './faults'
import { judge, type Fault, type Limits } from './judge'
import { now, printed, sleep, supervisor } from './processes'
import { printReport } from './report'
import { virtualUser } from './virtual-users'

const argv = process.argv.slice(2)
const arg = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const minutes = Number(arg('minutes') ?? 3)
const chaos = argv.includes('--chaos')
const hangMs = Number(arg('hang-seconds') ?? 30) * 1000
const givenBuild = arg('build-dir')
if (!Number.isFinite(minutes) || minutes <= 0 || !Number.isFinite(hangMs) || hangMs <= 0) {
  console.error('usage: npm run soak -- --minutes=N [--chaos] [--hang-seconds=S] [--build-dir=DIR]')
  process.exit(2)
}

const limits: Limits = {
  answerWithinMs: 5_000,
  recoverWithinMs: 10_000,
  // RSS ceiling of each app process (MiB): fly.toml gives each process a 1 GB machine; a quarter of it stays for the
  // system. Bounded also means not growing: see the memory check of the judge.
  maxRssMiB: Number(process.env.SOAK_MAX_RSS_MIB ?? 768),
}
const VIRTUAL_USERS = Number(process.env.SOAK_USERS ?? 6)
const verbose = Boolean(process.env.SOAK_VERBOSE)
const cleanups: Cleanups = []

async function main() {
  // Chaos restarts Postgres and Redis: the soak always starts its own, even where DATABASE_URL/REDIS_URL name others.
  delete process.env.DATABASE_URL
  delete process.env.REDIS_URL
  const runId = `soak${Date.now().toString(36)}`
  const services = await provisionServices({
    purpose: 'soak',
    runId,
    cleanups,
    ownBuildDir: !givenBuild,
    restartable: true,
  })
  // Each process keeps its output here (appended across restarts), so that a crash can be read after the run.
  const logDir = path.join(process.cwd(), '.cache', `soak-logs-${runId}`)
  fs.mkdirSync(logDir, { recursive: true })
  const logFile = (name: string) => path.join(logDir, `${name}.log`)
  log(`soak: process logs in ${path.relative(process.cwd(), logDir)}`)
  const env = appEnv(services, {
    SESSION_SECRET: `soak-secret-${runId}`,
    ENCRYPTION_KEY: `soak-encryption-key-${runId}-0123456789abcdef`,
    // The three private-network switches (the fakes are on loopback) and METRICS_TOKEN come with appEnv.
    TRUST_PROXY: '1',
    // A killed worker's jobs are picked up again within seconds; a post whose job Redis lost is queued again.
    WORKER_STALLED_INTERVAL_MS: '2000',
    WORKER_LOCK_DURATION_MS: '4000',
    POST_RECONCILE_EVERY_MS: '5000',
    POST_STALE_AFTER_MS: '60000',
    SHUTDOWN_DRAIN_DELAY_MS: '1000',
    // A model call that gets no answer is given up after as long as the provider hangs (90 s in production): the
    // posts caught in the hang are retried within the soak instead of holding its end for a minute and a half.
    POST_MODEL_TIMEOUT_MS: String(Math.min(90_000, hangMs)),
    ...(givenBuild ? { REMIX_BUILD_DIR: path.resolve(givenBuild) } : {}),
  })
  Object.assign(process.env, env)
  if (!givenBuild && (await buildApp(env)) !== 0) throw new Error('build failed')

  // Two web processes and a worker, each restartable.
  const supervise = supervisor(cleanups)
  const [secondPort, secondMetricsPort] = [await freePort(), await freePort()]
  const webEnv = (port: number, metricsPort: number) => ({
    ...env,
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
  })
  const webReady = (url: string) => () => waitForApp({ ...env, APP_URL: url })
  const webs = [
    supervise.supervised(
      'web-1',
      () =>
        startWeb(webEnv(services.port, services.metricsPort), {
          quiet: !verbose,
          cleanups: [],
          logFile: logFile('web-1'),
        }),
      webReady(services.appUrl),
      services.appUrl,
    ),
    supervise.supervised(
      'web-2',
      () =>
        startWeb(webEnv(secondPort, secondMetricsPort), { quiet: !verbose, cleanups: [], logFile: logFile('web-2') }),
      webReady(`http://localhost:${secondPort}`),
      `http://localhost:${secondPort}`,
    ),
  ]
  const worker = supervise.supervised(
    'worker',
    () => startWorker(env, { quiet: !verbose, cleanups: [], logFile: logFile('worker') }),
    (child) => printed(child, 'worker started'),
  )
  await Promise.all([...webs, worker].map((p) => p.ready()))
  log(
    `soak: ${minutes} min, ${VIRTUAL_USERS} virtual users${chaos ? `, with chaos (hangs of ${hangMs / 1000} s)` : ''}`,
  )

  const withDb = soakDb(services.databaseUrl)
  const lb = balancer(webs)
  const memory = sampleMemory([...webs, worker])
  const schedule = faultSchedule({
    services,
    webs,
    worker,
    supervisor: supervise,
    probes: await probes(lb, runId),
    hangMs,
  })

  const traffic = createTraffic()
  const faults: Fault[] = []
  const endAt = now() + minutes * 60_000
  let trafficOn = true
  const users = Array.from({ length: VIRTUAL_USERS }, (_, n) =>
    virtualUser({
      lb,
      n,
      traffic,
      answerWithinMs: limits.answerWithinMs,
      until: () => trafficOn,
      premium: (email) => makePremium(withDb, email),
    }),
  )
  if (chaos) await runFaults(schedule, endAt, faults)
  while (now() < endAt) await sleep(1_000)
  trafficOn = false
  await Promise.all(users)
  const trafficEndedAt = now()
  log('soak: traffic stopped; waiting for every accepted post to finish')

  // No post lost: every post the app accepted ends completed or failed (failed posts give their unit back).
  const allAccepted = [...traffic.acceptedPosts.values()].flatMap((s) => [...s])
  const unfinished = await waitForPosts(withDb, allAccepted)
  log(`soak: ${allAccepted.length - unfinished.length} of ${allAccepted.length} accepted posts finished`)
  await memory.stop()
  await lb.stop()
  log('soak: checking posts and quotas in Postgres')
  const stored = await readStored(withDb)

  const figures = {
    limits,
    soakStartedAt: traffic.samples[0]?.at ?? now(),
    trafficEndedAt,
    traffic,
    faults,
    unexpectedExits: supervise.unexpectedExits,
    unfinished,
    stored,
    memory: memory.memory,
  }
  const verdict = judge(figures)
  printReport({ figures, verdict, minutes, virtualUsers: VIRTUAL_USERS, chaos })
  if (!verdict.passed) process.exitCode = 1
}

await runScript(cleanups, main)
