// `npm run soak -- --minutes=N [--chaos] [--build-dir=DIR]`: the production build on fresh, restartable Postgres
// and Redis with the fakes of every provider; two web processes behind a small health-checked balancer (as Fly's
// proxy) and one worker; virtual users driving mixed traffic (pages, the JSON API, sign-ups, keyword searches,
// posts, Auto Pilot, checkout, bad requests). With --chaos, faults on a fixed schedule: SIGKILL the worker, SIGKILL
// a web process, restart Redis, restart Postgres, the model provider hangs for 30 s, Stripe's API hangs for 30 s.
// Asserts: every request answered within 5 s with a non-5xx status (a 503 with Retry-After is fine), recovery within
// 10 s of each fault, no post lost or written twice, no quota unit lost or taken twice, memory bounded.
// Prints a table per fault and exits 1 on any violation.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { ChildProcess } from 'node:child_process'
import {
  appEnv,
  buildApp,
  provisionServices,
  runScript,
  startWeb,
  startWorker,
  waitForApp,
  type Cleanups,
  type Services,
} from './lib/app'
import { freePort, log, stopProcess } from './lib/services'
import { NOT_QUEUED_REASON } from '#app/features/content/posts'

const argv = process.argv.slice(2)
const arg = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const minutes = Number(arg('minutes') ?? 3)
const chaos = argv.includes('--chaos')
const givenBuild = arg('build-dir')
if (!Number.isFinite(minutes) || minutes <= 0) {
  console.error('usage: npm run soak -- --minutes=N [--chaos] [--build-dir=DIR]')
  process.exit(2)
}

const ANSWER_WITHIN_MS = 5_000
const RECOVER_WITHIN_MS = 10_000
const HANG_MS = 30_000
const VIRTUAL_USERS = Number(process.env.SOAK_USERS ?? 6)
/**
 * RSS ceiling of each app process (MiB): fly.toml gives each process a 1 GB machine; a quarter of it stays for the
 * system. Bounded also means not growing: see the memory check at the end.
 */
const MAX_RSS_MIB = Number(process.env.SOAK_MAX_RSS_MIB ?? 768)
const verbose = Boolean(process.env.SOAK_VERBOSE)
const cleanups: Cleanups = []
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const now = () => Date.now()

// ---------------------------------------------------------------------------------------------------------------
// Processes: two web processes and a worker, each restartable.
// ---------------------------------------------------------------------------------------------------------------
type Proc = {
  name: string
  child: ChildProcess
  start: () => ChildProcess
  /** Resolves once the (re)started process is up: its /healthz answers, or the worker logged that it started. */
  ready: () => Promise<void>
  url?: string
  killedAt?: number
  /** Set from the SIGKILL until the new process is up: a request sent meanwhile cannot have reached the app. */
  downSince?: number
  /** The child a fault killed (its exit is expected), and whether the cleanup is stopping the process. */
  killedChild?: ChildProcess
  stopping?: boolean
}

function supervised(
  name: string,
  start: () => ChildProcess,
  ready: (child: ChildProcess) => Promise<void>,
  url?: string,
) {
  const proc: Proc = { name, child: start(), start, ready: () => ready(proc.child), url }
  watchExit(proc)
  cleanups.push(() => {
    proc.stopping = true
    return stopProcess(proc.child)
  })
  return proc
}

/** Processes that exited without being killed by a fault or the cleanup (a crash): each is a violation. */
const unexpectedExits: Array<{ name: string; at: number; code: number | null; signal: NodeJS.Signals | null }> = []

function watchExit(proc: Proc) {
  const child = proc.child
  child.once('exit', (code, signal) => {
    if (proc.stopping || proc.killedChild === child) return
    unexpectedExits.push({ name: proc.name, at: now(), code, signal })
    log(`soak: ${proc.name} exited on its own (code ${code}, signal ${signal})`)
  })
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

/** Resolves once the child has printed `text` (within 3 minutes: a loaded machine starts processes slowly). */
function printed(child: ChildProcess, text: string) {
  return new Promise<void>((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(() => reject(new Error(`no '${text}' within 3 minutes`)), 180_000)
    child.stdout?.on('data', function onData(chunk: Buffer) {
      seen = (seen + chunk.toString()).slice(-4096)
      if (!seen.includes(text)) return
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      resolve()
    })
    child.once('exit', () => reject(new Error(`exited before printing '${text}'`)))
  })
}

/**
 * The fault as a process manager (Fly's) deals it: SIGKILL, then a new process. The fault lasts until the new
 * process is up (its start-up time is the machine's, not the app's recovery); recovery is measured from there.
 */
async function killAndRestart(proc: Proc) {
  proc.killedAt = now()
  proc.downSince = proc.killedAt
  // A process that already exited on its own (recorded as a violation by watchExit) is started again, as a process
  // manager would, instead of waiting for an exit that happened before.
  if (!hasExited(proc.child)) {
    const exited = new Promise((r) => proc.child.once('exit', r))
    proc.killedChild = proc.child
    proc.child.kill('SIGKILL')
    await exited
  }
  proc.child = proc.start()
  watchExit(proc)
  await proc.ready()
  proc.downSince = undefined
}

/** Resident memory of a process in MiB (Linux /proc), NaN when it is not running. */
function rssMiB(pid: number | undefined) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024
  } catch {
    return NaN
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The balancer: what Fly's proxy does for the soak's clients. It checks /healthz of each web process every 250 ms
// and sends a request to the next healthy one (any, when none looks healthy). A connection that is refused never
// reached the app, so it is tried on the other process; anything else is the app's answer.
// ---------------------------------------------------------------------------------------------------------------
/** `cut`: the process serving the request was SIGKILLed while it ran (nothing can answer that request). */
type Outcome = { status: number; retryAfter: boolean; ms: number; error?: string; body?: unknown; cut?: boolean }

function balancer(webs: Proc[]) {
  const healthy = new Map<Proc, boolean>(webs.map((w) => [w, true]))
  let next = 0
  let running = true
  const checker = (async () => {
    while (running) {
      await Promise.all(
        webs.map(async (w) => {
          try {
            const res = await fetch(`${w.url}/healthz`, { signal: AbortSignal.timeout(2_000) })
            const body = (await res.json().catch(() => ({}))) as { status?: string }
            // Out of rotation only while draining (or not answering): a 503 because Postgres or Redis is down is
            // still the best answer any process can give.
            healthy.set(w, body.status !== 'draining')
          } catch {
            healthy.set(w, false)
          }
        }),
      )
      await sleep(250)
    }
  })()

  async function request(pathname: string, init: RequestInit = {}): Promise<Outcome> {
    const started = now()
    const up = webs.filter((w) => healthy.get(w))
    const order = up.length ? up : webs
    const first = next++ % order.length
    const candidates = [...order.slice(first), ...order.slice(0, first), ...webs.filter((w) => !order.includes(w))]
    let lastError = ''
    let cut = false
    // Like a proxy: a request that never reached a process (connection refused) goes to the next one, and so does
    // an idempotent one (GET, or a POST with an Idempotency-Key) whose connection was cut.
    const idempotent = !init.method || init.method === 'GET' || new Headers(init.headers).has('Idempotency-Key')
    for (const web of candidates) {
      const sent = now()
      try {
        const headers = new Headers(init.headers)
        if (init.method && init.method !== 'GET') headers.set('Origin', web.url!)
        const res = await fetch(`${web.url}${pathname}`, {
          ...init,
          headers,
          redirect: 'manual',
          signal: AbortSignal.timeout(20_000),
        })
        const text = await res.text()
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {
          /* a page */
        }
        return { status: res.status, retryAfter: Boolean(res.headers.get('retry-after')), ms: now() - started, body }
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name
        lastError = cause
        // Sent to a process that was already dead (a kept-alive connection of the killed one, before the health
        // check noticed): it never reached the app, like a refused connection.
        const neverReached = cause === 'ECONNREFUSED' || (web.downSince !== undefined && sent >= web.downSince)
        cut = !neverReached && web.killedAt !== undefined && web.killedAt >= sent - 100
        if (!neverReached && !(cut && idempotent)) break
      }
    }
    return { status: 0, retryAfter: false, ms: now() - started, error: lastError, cut }
  }

  return {
    request,
    healthyCount: () => webs.filter((w) => healthy.get(w)).length,
    stop: async () => {
      running = false
      await checker
    },
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Records: every request, every fault.
// ---------------------------------------------------------------------------------------------------------------
type Sample = { at: number; kind: string; status: number; ms: number; ok: boolean; problem?: string; cut?: boolean }
const samples: Sample[] = []
type Fault = {
  name: string
  startedAt: number
  endedAt: number
  recoveredAt?: number
  recoveryProbe: string
}
const faults: Fault[] = []

/** A 5xx is an answer only as a 503 with Retry-After; anything slower than 5 s or unanswered is a violation. */
function judge(kind: string, outcome: Outcome, accepted: (status: number) => boolean) {
  let problem: string | undefined
  if (outcome.status === 0 && outcome.cut) {
    // In flight on a process that was SIGKILLed and not safe to send again: no server can answer it. Counted and
    // shown (the 'cut' column), not a violation.
    samples.push({ at: now(), kind, status: 0, ms: outcome.ms, ok: true, cut: true })
    return false
  }
  if (outcome.status === 0) problem = `no answer (${outcome.error})`
  else if (outcome.ms > ANSWER_WITHIN_MS) problem = `answered after ${outcome.ms} ms`
  else if (outcome.status === 503 && !outcome.retryAfter) problem = '503 without Retry-After'
  else if (outcome.status !== 503 && !accepted(outcome.status)) problem = `unexpected ${outcome.status}`
  samples.push({ at: now(), kind, status: outcome.status, ms: outcome.ms, ok: !problem, problem })
  return !problem
}

// ---------------------------------------------------------------------------------------------------------------
// Virtual users
// ---------------------------------------------------------------------------------------------------------------
type Lb = ReturnType<typeof balancer>
type SoakUser = { email: string; token: string; keywordIds: string[] }

/** Searches whose outcome the client knows (charged) or cannot know (no answer: maybe charged). */
const searches = new Map<string, { ok: number; unknown: number }>()
/** Posts the app accepted (202), by user e-mail. */
const acceptedPosts = new Map<string, Set<string>>()
/** Creations without an answer (maybe created). */
const unknownPosts = new Map<string, number>()
/**
 * Creations answered 503 (the queue was unreachable): the app keeps such a post as failed with the reason 'We could
 * not start writing this post.' and its unit given back, so that the user sees it and a retry with the same
 * Idempotency-Key starts that very post.
 */
const notStartedPosts = new Map<string, number>()
/** When each accepted post was accepted, to put it in the window of the fault it ran under. */
const acceptedAt = new Map<string, number>()
/** When each user was active (sign-up to last request), to put its quota counters in the faults' windows. */
const userSpans = new Map<string, { from: number; to: number }>()

const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1)

async function virtualUser(lb: Lb, n: number, until: () => boolean, premium: (email: string) => Promise<void>) {
  const ip = `10.77.${n}.${crypto.randomInt(1, 250)}`
  const json = (body: unknown, token?: string): RequestInit => ({
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-For': ip,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
  })
  const get = (token?: string): RequestInit => ({
    headers: { 'X-Forwarded-For': ip, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  })
  const ok2xx = (s: number) => s >= 200 && s < 400

  let user: SoakUser | null = null
  for (let i = 0; until(); i++) {
    if (!user || i % 40 === 0) {
      // A sign-up (a new account every so often, as new customers arrive).
      const email = `soak-${n}-${i}-${crypto.randomBytes(3).toString('hex')}@example.com`
      const res = await lb.request(
        '/api/signup',
        json({ name: `Soak ${n}`, email, password: 'correct-horse-battery-staple' }),
      )
      judge('sign-up', res, (s) => s === 201 || s === 429)
      if (res.status === 201) {
        user = { email, token: (res.body as { token: string }).token, keywordIds: [] }
        searches.set(email, { ok: 0, unknown: 0 })
        acceptedPosts.set(email, new Set())
        userSpans.set(email, { from: now(), to: now() })
        if (n % 3 === 0) await premium(email).catch(() => {})
      } else if (!user) {
        await sleep(500)
        continue
      }
    }
    const u = user!
    const step = i % 12
    if (step === 0) judge('page /', await lb.request('/', get()), ok2xx)
    else if (step === 1) judge('page /pricing', await lb.request('/pricing', get()), ok2xx)
    else if (step === 2) judge('page /blog', await lb.request('/blog', get()), ok2xx)
    else if (step === 3) judge('api user', await lb.request('/api/user', get(u.token)), ok2xx)
    else if (step === 4) {
      const res = await lb.request(
        '/api/search',
        json({ query: `soak topic ${n} ${i % 7}`, countryCode: '2840', languageCode: '1000' }, u.token),
      )
      judge('keyword search', res, (s) => s === 200 || s === 402)
      const record = searches.get(u.email)!
      if (res.status === 200) {
        record.ok++
        for (const k of (res.body as { data: Array<{ _id: string }> }).data.slice(0, 3)) u.keywordIds.push(k._id)
      } else if (res.status === 0 || res.ms > ANSWER_WITHIN_MS) record.unknown++
    } else if (step === 5 && i % 36 === 5 && u.keywordIds.length) {
      const keywordId = u.keywordIds[i % u.keywordIds.length]!
      const init = json({ keywordId }, u.token)
      ;(init.headers as Record<string, string>)['Idempotency-Key'] = crypto.randomUUID()
      const res = await lb.request('/api/creator', init)
      // 409: the keyword overlaps a post of the user's, or its post is still being written (the soak reuses keywords).
      // 200: a retry with the same Idempotency-Key (the balancer's, after a cut) reporting the post it created.
      judge('post', res, (s) => s === 202 || s === 200 || s === 402 || s === 409)
      if (res.status === 202 || res.status === 200) {
        const postId = (res.body as { post_id: string }).post_id
        acceptedPosts.get(u.email)!.add(postId)
        acceptedAt.set(postId, now())
      } else if (res.status === 0) bump(unknownPosts, u.email)
      else if (res.status === 503) bump(notStartedPosts, u.email)
    } else if (step === 6) judge('api posts', await lb.request('/api/blogposts', get(u.token)), ok2xx)
    else if (step === 7) {
      judge(
        'auto pilot toggle',
        await lb.request('/api/autopilot/toggle', json({ enabled: i % 24 < 12 }, u.token)),
        (s) => [200, 402, 409].includes(s),
      )
      judge('auto pilot list', await lb.request('/api/autopilot/status-list', get(u.token)), ok2xx)
    } else if (step === 8) {
      const res = await lb.request('/api/create-checkout-session', json({ priceId: 'price_monthly' }, u.token))
      // 409: a Premium user; 429: over 20 checkouts in 10 minutes (a user kept while its IP's sign-ups are limited).
      judge('checkout', res, (s) => s === 200 || s === 409 || s === 429)
    } else if (step === 9) {
      const res = await lb.request('/api/public/generate-titles', json({ keyword: `soak title ${n} ${i}` }))
      judge('free tool (model)', res, (s) => s === 200 || s === 429)
    } else if (step === 10) {
      judge('bad request', await lb.request('/api/search', json({ query: '' }, u.token)), (s) => s === 400)
      judge('bad request', await lb.request('/api/creator', json({ keywordId: 'nope' }, u.token)), (s) => s === 404)
      judge('bad request', await lb.request('/no-such-page', get()), (s) => s === 404)
    } else if (step === 11) judge('api keywords', await lb.request('/api/saved-keywords', get(u.token)), ok2xx)
    userSpans.get(u.email)!.to = now()
    await sleep(100)
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Faults and recovery probes
// ---------------------------------------------------------------------------------------------------------------

/** Polls `probe` from `from` until it succeeds; resolves with the time of success (or undefined after 60 s). */
async function recovery(probe: () => Promise<boolean>) {
  const deadline = now() + 60_000
  while (now() < deadline) {
    if (await probe().catch(() => false)) return now()
    await sleep(200)
  }
  return undefined
}

async function main() {
  // Chaos restarts Postgres and Redis: the soak always starts its own, even where DATABASE_URL/REDIS_URL name others.
  delete process.env.DATABASE_URL
  delete process.env.REDIS_URL
  const runId = `soak${Date.now().toString(36)}`
  const services: Services = await provisionServices({
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
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    TRUST_PROXY: '1',
    // A killed worker's jobs are picked up again within seconds; a post whose job Redis lost is queued again.
    WORKER_STALLED_INTERVAL_MS: '2000',
    WORKER_LOCK_DURATION_MS: '4000',
    POST_RECONCILE_EVERY_MS: '5000',
    POST_STALE_AFTER_MS: '60000',
    SHUTDOWN_DRAIN_DELAY_MS: '1000',
    ...(givenBuild ? { REMIX_BUILD_DIR: path.resolve(givenBuild) } : {}),
  })
  Object.assign(process.env, env)
  if (!givenBuild && (await buildApp(env)) !== 0) throw new Error('build failed')

  const [secondPort, secondMetricsPort] = [await freePort(), await freePort()]
  const webEnv = (port: number, metricsPort: number) => ({
    ...env,
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
  })
  const webReady = (url: string) => () => waitForApp({ ...env, APP_URL: url })
  const procs = [
    supervised(
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
    supervised(
      'web-2',
      () =>
        startWeb(webEnv(secondPort, secondMetricsPort), { quiet: !verbose, cleanups: [], logFile: logFile('web-2') }),
      webReady(`http://localhost:${secondPort}`),
      `http://localhost:${secondPort}`,
    ),
  ]
  const worker = supervised(
    'worker',
    () => startWorker(env, { quiet: !verbose, cleanups: [], logFile: logFile('worker') }),
    (child) => printed(child, 'worker started'),
  )
  await Promise.all([...procs, worker].map((p) => p.ready()))
  log(`soak: ${minutes} min, ${VIRTUAL_USERS} virtual users${chaos ? ', with chaos' : ''}`)

  // The soak's own Postgres access (the app's schema), to make some users Premium (Auto Pilot) and for the checks:
  // a fresh connection each time, closed after, and a bound on each use, so that no connection of the soak lives
  // through a Postgres restart (a client kept across one was seen waiting for ever).
  const { default: postgres } = await import('postgres')
  const { drizzle } = await import('drizzle-orm/postgres-js')
  const schema = await import('#app/platform/db/schema')
  const { eq, inArray, sql } = await import('drizzle-orm')
  type Db = ReturnType<typeof drizzle<typeof schema>>
  const withDb = async <T>(run: (db: Db) => Promise<T>, timeoutMs = 30_000): Promise<T> => {
    const client = postgres(services.databaseUrl, { max: 1, connect_timeout: 5, onnotice: () => {} })
    let timer: NodeJS.Timeout | undefined
    try {
      return await Promise.race([
        run(drizzle(client, { schema })),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the soak's Postgres query took over ${timeoutMs} ms`)), timeoutMs)
        }),
      ])
    } finally {
      clearTimeout(timer)
      await client.end({ timeout: 1 }).catch(() => {})
    }
  }
  const premium = (email: string) =>
    withDb(async (db) => {
      const [row] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email))
      if (!row) return
      await db.update(schema.users).set({ emailVerifiedAt: new Date() }).where(eq(schema.users.id, row.id))
      await db
        .update(schema.subscriptions)
        .set({ status: 'active', currentPeriodStart: new Date(), currentPeriodEnd: new Date(now() + 30 * 86_400_000) })
        .where(eq(schema.subscriptions.userId, row.id))
    }, 5_000)

  const lb = balancer(procs)
  const memory = new Map<string, Array<{ at: number; mib: number }>>()
  let sampling = true
  const sampler = (async () => {
    while (sampling) {
      for (const p of [...procs, worker]) {
        const mib = rssMiB(p.child.pid)
        if (Number.isFinite(mib)) memory.set(p.name, [...(memory.get(p.name) ?? []), { at: now(), mib }])
      }
      await sleep(2_000)
    }
  })()

  const fakes = services.fakes.env
  const control = (base: string | undefined, route: string, body: unknown) =>
    fetch(`${base}/__control/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.arrayBuffer())

  // A probe user: the app works end to end when /healthz is 200 on a web process and the worker runs a job.
  const probeEmail = `soak-probe-${runId}@example.com`
  const signup = await lb.request('/api/signup', {
    method: 'POST',
    body: JSON.stringify({ name: 'Probe', email: probeEmail, password: 'correct-horse-battery-staple' }),
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '10.99.0.1' },
  })
  if (signup.status !== 201) throw new Error(`the probe user could not sign up: ${signup.status}`)
  const probeToken = (signup.body as { token: string }).token
  const auth = { Authorization: `Bearer ${probeToken}`, 'X-Forwarded-For': '10.99.0.1' }
  const healthy = async () => {
    const res = await lb.request('/healthz')
    return res.status === 200
  }
  const jobRoundTrip = async () => {
    if (!(await healthy())) return false
    const res = await lb.request('/api/system/ping', { method: 'POST', headers: auth })
    if (res.status !== 202) return false
    const id = (res.body as { id: string }).id
    for (let i = 0; i < 10; i++) {
      const read = await lb.request(`/api/system/ping?id=${id}`, { headers: auth })
      if ((read.body as { processedAt?: string }).processedAt) return true
      await sleep(200)
    }
    return false
  }
  const modelAnswers = async () => {
    const res = await lb.request('/api/public/generate-titles', {
      method: 'POST',
      body: JSON.stringify({ keyword: `probe ${crypto.randomBytes(3).toString('hex')}` }),
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.98.${crypto.randomInt(0, 250)}.1` },
    })
    return res.status === 200
  }
  const stripeAnswers = async () => {
    const res = await lb.request('/api/create-checkout-session', {
      method: 'POST',
      body: JSON.stringify({ priceId: 'price_monthly' }),
      headers: { ...auth, 'Content-Type': 'application/json' },
    })
    return res.status === 200
  }

  const schedule: Array<{
    name: string
    run: () => Promise<void>
    probe: () => Promise<boolean>
    probeName: string
  }> = [
    {
      name: 'SIGKILL worker (restarted)',
      run: () => killAndRestart(worker),
      probe: jobRoundTrip,
      probeName: 'job round trip',
    },
    {
      // Users are served by web-2 meanwhile (the 'requests' columns); the fault ends when web-1 is back.
      name: 'SIGKILL web-1 (restarted)',
      run: () => killAndRestart(procs[0]!),
      probe: jobRoundTrip,
      probeName: 'job round trip',
    },
    {
      name: 'restart Redis',
      run: () => services.redis.restart!(),
      probe: jobRoundTrip,
      probeName: 'job round trip',
    },
    {
      name: 'restart Postgres',
      run: () => services.postgres.restart!(),
      probe: jobRoundTrip,
      probeName: 'job round trip',
    },
    {
      name: 'model provider hangs 30 s',
      run: async () => {
        await control(fakes.FAKE_OPENAI_URL, 'stall', { ms: HANG_MS })
        await sleep(HANG_MS)
      },
      probe: modelAnswers,
      probeName: 'free tool answers',
    },
    {
      name: "Stripe's API hangs 30 s",
      run: async () => {
        await control(fakes.FAKE_STRIPE_URL, 'hang', { on: true })
        await sleep(HANG_MS)
        await control(fakes.FAKE_STRIPE_URL, 'hang', { on: false })
      },
      probe: stripeAnswers,
      probeName: 'checkout answers',
    },
  ]

  const endAt = now() + minutes * 60_000
  let trafficOn = true
  const users = Array.from({ length: VIRTUAL_USERS }, (_, n) => virtualUser(lb, n, () => trafficOn, premium))

  if (chaos) {
    await sleep(5_000)
    // The schedule runs in order, again from the top while time is left; every fault runs at least once.
    for (let round = 0; round === 0 || now() < endAt - 30_000; round++) {
      for (const step of schedule) {
        if (round > 0 && now() >= endAt - 30_000) break
        const fault: Fault = { name: step.name, startedAt: now(), endedAt: 0, recoveryProbe: step.probeName }
        faults.push(fault)
        log(`soak: fault ${step.name}`)
        await step.run()
        fault.endedAt = now()
        fault.recoveredAt = await recovery(step.probe)
        log(
          `soak: ${step.name}: over after ${((fault.endedAt - fault.startedAt) / 1000).toFixed(1)} s, ` +
            `recovered ${fault.recoveredAt ? `${fault.recoveredAt - fault.endedAt} ms` : 'never'} after its end`,
        )
        await sleep(3_000)
      }
    }
  }
  while (now() < endAt) await sleep(1_000)
  trafficOn = false
  await Promise.all(users)
  const trafficEndedAt = now()
  log('soak: traffic stopped; waiting for every accepted post to finish')

  // No post lost: every post the app accepted ends completed or failed (failed posts give their unit back).
  const allAccepted = [...acceptedPosts.values()].flatMap((s) => [...s])
  const settleDeadline = now() + 180_000
  let unfinished: string[] = []
  while (now() < settleDeadline) {
    const rows = allAccepted.length
      ? await withDb((db) =>
          db
            .select({ id: schema.blogPosts.id, status: schema.blogPosts.status })
            .from(schema.blogPosts)
            .where(inArray(schema.blogPosts.id, allAccepted)),
        )
      : []
    unfinished = allAccepted.filter(
      (id) => !rows.some((r) => r.id === id && ['completed', 'failed'].includes(r.status)),
    )
    if (unfinished.length === 0) break
    log(`soak: ${unfinished.length} of ${allAccepted.length} accepted posts still running`)
    await sleep(2_000)
  }
  sampling = false
  await sampler
  await lb.stop()
  log('soak: checking posts and quotas in Postgres')

  // Every problem found, with the time it belongs to (a request's, a post's acceptance, a user's activity, a fault's
  // end, a memory sample), so that the table can show each assertion in the window of the fault it happened under.
  type Violation = { text: string; check: Check; from: number; to: number }
  type Check = 'requests' | 'recovery' | 'posts' | 'quota' | 'memory'
  const violations: Violation[] = []
  const violate = (check: Check, text: string, from: number, to = from) => violations.push({ text, check, from, to })
  const soakStartedAt = samples[0]?.at ?? now()
  for (const id of unfinished) {
    const at = acceptedAt.get(id) ?? soakStartedAt
    violate('posts', `post ${id} was accepted but never finished (lost)`, at)
  }

  // Written once: at most one 'generated' version per post, and posts only for requests the app accepted.
  const { soakUsers, posts, versions } = await withDb(async (db) => ({
    soakUsers: await db
      .select({
        id: schema.users.id,
        email: schema.users.email,
        blogPostCount: schema.subscriptions.blogPostCount,
        keywordSearchCount: schema.subscriptions.keywordSearchCount,
      })
      .from(schema.users)
      .innerJoin(schema.subscriptions, eq(schema.subscriptions.userId, schema.users.id))
      .where(sql`${schema.users.email} like 'soak-%' and ${schema.users.email} not like 'soak-probe-%'`),
    posts: await db
      .select({
        id: schema.blogPosts.id,
        userId: schema.blogPosts.userId,
        status: schema.blogPosts.status,
        quotaRefunded: schema.blogPosts.quotaRefunded,
        failureReason: schema.blogPosts.failureReason,
        createdAt: schema.blogPosts.createdAt,
      })
      .from(schema.blogPosts),
    versions: await db.execute<{ post_id: string; n: number }>(
      sql`select post_id, count(*)::int as n from post_versions where origin = 'generated' group by post_id having count(*) > 1`,
    ),
  }))
  const twice = new Set<string>()
  for (const v of versions) {
    twice.add(v.post_id)
    const at = acceptedAt.get(v.post_id) ?? posts.find((p) => p.id === v.post_id)?.createdAt.getTime() ?? soakStartedAt
    violate('posts', `post ${v.post_id} was written ${v.n} times`, at)
  }
  let postsCompleted = 0
  let postsFailed = 0
  for (const u of soakUsers) {
    const span = userSpans.get(u.email) ?? { from: soakStartedAt, to: trafficEndedAt }
    const own = posts.filter((p) => p.userId === u.id)
    postsCompleted += own.filter((p) => p.status === 'completed').length
    postsFailed += own.filter((p) => p.status === 'failed').length
    const accepted = acceptedPosts.get(u.email)?.size ?? 0
    const maybe = unknownPosts.get(u.email) ?? 0
    // Rows for requests answered 503: failed as not started, unit given back, never for an accepted request.
    const ownAccepted = acceptedPosts.get(u.email) ?? new Set<string>()
    const notStarted = Math.min(
      notStartedPosts.get(u.email) ?? 0,
      own.filter(
        (p) =>
          !ownAccepted.has(p.id) && p.status === 'failed' && p.quotaRefunded && p.failureReason === NOT_QUEUED_REASON,
      ).length,
    )
    if (own.length < accepted || own.length > accepted + maybe + notStarted)
      violate(
        'posts',
        `${u.email}: ${own.length} posts in Postgres for ${accepted} accepted (+${maybe} unanswered)`,
        span.from,
        span.to,
      )
    // A unit per post that was written; a failed post gives its unit back, a written one keeps it.
    for (const p of own) {
      const at = acceptedAt.get(p.id) ?? p.createdAt.getTime()
      if (p.status === 'completed' && p.quotaRefunded)
        violate('quota', `post ${p.id} was written and its unit given back (a unit lost to us)`, at)
      if (p.status === 'failed' && !p.quotaRefunded)
        violate('quota', `post ${p.id} failed and kept its unit (a unit lost to the user)`, at)
    }
    // The counter: one unit per post that did not give it back (trial users; Premium users' months do not roll here).
    const charged = own.filter((p) => !p.quotaRefunded).length
    if (u.blogPostCount !== charged)
      violate(
        'quota',
        `${u.email}: blog post quota ${u.blogPostCount} for ${charged} charged posts`,
        span.from,
        span.to,
      )
    const searched = searches.get(u.email) ?? { ok: 0, unknown: 0 }
    if (u.keywordSearchCount < searched.ok || u.keywordSearchCount > searched.ok + searched.unknown)
      violate(
        'quota',
        `${u.email}: keyword search quota ${u.keywordSearchCount} for ${searched.ok} answered searches (+${searched.unknown} unanswered)`,
        span.from,
        span.to,
      )
  }

  // Requests: every one answered within 5 s with an acceptable status (a 503 with Retry-After is an answer).
  for (const e of unexpectedExits)
    violate('recovery', `${e.name} exited on its own (code ${e.code}, signal ${e.signal})`, e.at)
  for (const sample of samples.filter((x) => !x.ok))
    violate('requests', `${sample.kind}: ${sample.problem}`, sample.at - sample.ms, sample.at)

  // Recovery within 10 s of the end of each fault.
  for (const f of faults) {
    if (!f.recoveredAt) violate('recovery', `${f.name}: not recovered within 60 s of its end`, f.endedAt)
    else if (f.recoveredAt - f.endedAt > RECOVER_WITHIN_MS)
      violate('recovery', `${f.name}: recovered ${f.recoveredAt - f.endedAt} ms after its end`, f.endedAt)
  }

  // Memory: each process under its ceiling at every sample; the last third of the run no higher than the middle
  // third + 25% (bounded, not growing with the traffic).
  const memoryRows: string[] = []
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
  for (const [name, values] of memory) {
    const mibs = values.map((v) => v.mib)
    for (const v of values)
      if (v.mib > MAX_RSS_MIB)
        violate('memory', `${name}: RSS ${v.mib.toFixed(0)} MiB over the ceiling of ${MAX_RSS_MIB} MiB`, v.at)
    const third = Math.floor(values.length / 3)
    const middle = median(mibs.slice(third, 2 * third))
    const last = median(mibs.slice(2 * third))
    memoryRows.push(
      `${name.padEnd(8)} max ${Math.max(...mibs)
        .toFixed(0)
        .padStart(4)} MiB   median middle third ${middle.toFixed(0).padStart(4)} MiB   last third ${last
        .toFixed(0)
        .padStart(4)} MiB`,
    )
    if (third > 2 && last > middle * 1.25)
      violate(
        'memory',
        `${name}: RSS grew from ${middle.toFixed(0)} to ${last.toFixed(0)} MiB`,
        values[2 * third]!.at,
        values.at(-1)!.at,
      )
  }

  // The report: a row per fault, its window running from its start to the next fault's (the first row is the
  // traffic before any fault), with every assertion of the soak counted in that window.
  const windows = [
    { name: chaos ? 'before the first fault' : 'no fault (without --chaos)', from: soakStartedAt, fault: undefined },
    ...faults.map((f) => ({ name: f.name, from: f.startedAt, fault: f })),
  ]
    .map((w, i, all) => ({ ...w, to: all[i + 1]?.from ?? trafficEndedAt }))
    .filter((w) => w.to > w.from)
  const inWindow = (w: { from: number; to: number }, from: number, to = from) => from < w.to && to >= w.from
  const columns: Array<[string, number]> = [
    ['fault (window: until the next)', 32],
    ['at s', 6],
    ['lasted s', 9],
    ['requests', 9],
    ['503+RA', 7],
    ['cut', 4],
    ['max ms', 7],
    ['>5s/5xx', 8],
    ['recovered', 10],
    ['posts', 6],
    ['lost', 5],
    ['twice', 6],
    ['quota', 6],
    ['RSS MiB', 8],
    ['', 6],
  ]
  const row = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(columns[i]![1]) : c.padStart(columns[i]![1]))).join('')
  console.log(
    `\nSoak: ${minutes} min, ${VIRTUAL_USERS} virtual users, ${samples.length} requests${chaos ? ', chaos' : ''}` +
      ` (limits: answer within ${ANSWER_WITHIN_MS} ms or 503 + Retry-After, recovery within ${RECOVER_WITHIN_MS} ms` +
      ` of the fault's end, RSS under ${MAX_RSS_MIB} MiB)`,
  )
  console.log(row(columns.map(([title]) => title)))
  for (const w of windows) {
    const reqs = samples.filter((x) => x.at >= w.from && x.at < w.to)
    const own = violations.filter((v) => inWindow(w, v.from, v.to))
    const count = (check: Check, pattern?: RegExp) =>
      own.filter((v) => v.check === check && (!pattern || pattern.test(v.text))).length
    const accepted = [...acceptedAt].filter(([, at]) => at >= w.from && at < w.to).map(([id]) => id)
    const rss = [...memory.values()].flat().filter((v) => v.at >= w.from && v.at < w.to)
    const f = w.fault
    console.log(
      row([
        w.name,
        ((w.from - soakStartedAt) / 1000).toFixed(0),
        f ? ((f.endedAt - f.startedAt) / 1000).toFixed(1) : '-',
        String(reqs.length),
        String(reqs.filter((x) => x.status === 503).length),
        String(reqs.filter((x) => x.cut).length),
        String(Math.max(0, ...reqs.map((x) => x.ms))),
        String(count('requests')),
        f ? (f.recoveredAt ? `${f.recoveredAt - f.endedAt} ms` : 'never') : '-',
        String(accepted.length),
        String(accepted.filter((id) => unfinished.includes(id)).length),
        String(count('posts', /written \d+ times|posts in Postgres/)),
        String(count('quota')),
        rss.length ? Math.max(...rss.map((v) => v.mib)).toFixed(0) : '-',
        own.length ? 'FAIL' : 'ok',
      ]),
    )
  }
  console.log(
    '\nrecovered: from the end of the fault until the probe passed (' +
      [...new Set(faults.map((f) => `${f.name}: ${f.recoveryProbe}`))].join('; ') +
      '). cut: in flight on a SIGKILLed process and not safe to send again (a POST without an Idempotency-Key):' +
      ' no process can answer it; counted, not a violation. lost: accepted posts that never finished. twice: posts' +
      ' written more than once or rows beyond the accepted requests (and the failed, refunded rows of requests answered' +
      ' 503 because the queue was away). quota: units lost or taken twice (posts and' +
      ' keyword searches).',
  )
  const kinds = [...new Set(samples.map((x) => x.kind))].sort()
  console.log(
    '\n' +
      'request'.padEnd(22) +
      'count'.padStart(7) +
      'p50 ms'.padStart(8) +
      'p99 ms'.padStart(8) +
      'max ms'.padStart(8) +
      'bad'.padStart(6),
  )
  for (const kind of kinds) {
    const of = samples
      .filter((x) => x.kind === kind)
      .map((x) => x.ms)
      .sort((a, b) => a - b)
    const pct = (p: number) => of[Math.min(of.length - 1, Math.floor(of.length * p))] ?? 0
    console.log(
      kind.padEnd(22) +
        String(of.length).padStart(7) +
        String(pct(0.5)).padStart(8) +
        String(pct(0.99)).padStart(8) +
        String(of.at(-1) ?? 0).padStart(8) +
        String(samples.filter((x) => x.kind === kind && !x.ok).length).padStart(6),
    )
  }
  console.log(
    `\nposts: ${allAccepted.length} accepted, ${postsCompleted} completed, ${postsFailed} failed (unit given back), ${unfinished.length} unfinished, ${twice.size} written twice; users: ${soakUsers.length}`,
  )
  for (const line of memoryRows) console.log(`memory ${line}`)
  if (violations.length) {
    const byText = new Map<string, number>()
    for (const v of violations) bump(byText, `[${v.check}] ${v.text}`)
    console.log(`\nVIOLATIONS (${violations.length}):`)
    for (const [text, n] of [...byText].slice(0, 60)) console.log(`  - ${n > 1 ? `${n} × ` : ''}${text}`)
    process.exitCode = 1
  } else console.log('\nno violations')
}

await runScript(cleanups, main)
