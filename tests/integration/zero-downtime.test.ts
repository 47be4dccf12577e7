import crypto from 'node:crypto'
import http from 'node:http'
import type { Socket } from 'node:net'
import { Queue } from 'bullmq'
import { eq } from 'drizzle-orm'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { jobId, QUEUES } from '#app/platform/queue/queues.server'
import { db, schema } from '#app/platform/db/client.server'
import { fakeControl } from '#tests/fakes/client'
import type { RecordedRequest } from '#tests/fakes/http'
import { createTestUser, uniqueIp, waitFor, type TestUser } from '#tests/setup/app'
import { chatCompletion } from '#tests/setup/openai'
import { startWeb, startWorker, type WebProcess } from '#tests/setup/processes'

/**
 * Deploys nobody notices (issue 20, point 2). A web process on SIGTERM drains: /healthz answers 503 'draining' while
 * the port still accepts, every response closes its connection, then the port closes, in-flight requests finish and
 * the process exits within its bound. A worker on SIGTERM takes no new job and finishes its running ones, or hands
 * them back to the queue when they outlast its bound; either way the post is written exactly once.
 */
const openai = fakeControl('openai')
const SECTION_MARK = 'Write the body of the section'
const DRAIN_MS = 2_000
const BOUND_MS = 15_000
/**
 * The test run's workers hold job locks for 4 s (so that the outage tests see a killed worker's job again quickly);
 * these workers hold them as long as in production. A lock that short can lapse while a loaded machine holds the
 * event loop (a module loaded mid-job), and a job whose lock lapsed cannot be completed or handed back by its worker:
 * it waits in 'active' for another worker's stalled check, which is not what these tests are about.
 */
const PRODUCTION_LOCKS = { WORKER_LOCK_DURATION_MS: '30000', WORKER_STALLED_INTERVAL_MS: '30000' }

const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
})

const tag = () => `zd${crypto.randomBytes(4).toString('hex')}`

/**
 * A load balancer in miniature, like Fly's proxy: it checks every backend's /healthz every 100 ms and sends each
 * request to the next healthy one, over keep-alive connections. It never retries: a request that fails, is cut or
 * answers 5xx counts as failed.
 */
function balancer(backends: WebProcess[], user: TestUser) {
  const healthy = new Map(backends.map((b) => [b.url, true]))
  const served = new Map(backends.map((b) => [b.url, 0]))
  const failures: string[] = []
  let total = 0
  let running = true
  let next = 0
  const ip = uniqueIp()

  const checker = (async () => {
    while (running) {
      await Promise.all(
        backends.map(async (b) => {
          try {
            const res = await fetch(`${b.url}/healthz`, { signal: AbortSignal.timeout(2_000) })
            await res.arrayBuffer()
            healthy.set(b.url, res.ok)
          } catch {
            healthy.set(b.url, false)
          }
        }),
      )
      await new Promise((r) => setTimeout(r, 100))
    }
  })()

  const requests: Array<[string, RequestInit]> = [
    ['/', {}],
    ['/pricing', {}],
    ['/api/user', { headers: { Authorization: `Bearer ${user.token}` } }],
    ['/api/blogposts', { headers: { Authorization: `Bearer ${user.token}` } }],
    ['/blogposts', { headers: { Cookie: user.cookie } }],
    ['/signin', { method: 'POST', body: new URLSearchParams({ email: 'nobody@example.com', password: '' }) }],
  ]

  async function client(n: number) {
    for (let i = n; running; i++) {
      const up = backends.filter((b) => healthy.get(b.url))
      if (up.length === 0) {
        await new Promise((r) => setTimeout(r, 20))
        continue
      }
      const backend = up[next++ % up.length]!
      const [path, init] = requests[i % requests.length]!
      total++
      try {
        const headers = new Headers(init.headers)
        headers.set('X-Forwarded-For', ip)
        if (init.method === 'POST') headers.set('Origin', backend.url)
        const res = await fetch(`${backend.url}${path}`, { ...init, headers, redirect: 'manual' })
        await res.arrayBuffer()
        if (res.status >= 500) failures.push(`${backend.url}${path} → ${res.status}`)
        else served.set(backend.url, served.get(backend.url)! + 1)
      } catch (error) {
        failures.push(`${backend.url}${path} → ${(error as Error).message} (${String((error as Error).cause)})`)
      }
    }
  }
  const clients = Array.from({ length: 6 }, (_, n) => client(n))

  return {
    served,
    failures,
    total: () => total,
    stop: async () => {
      running = false
      await Promise.all([checker, ...clients])
    },
  }
}

/** A request over node:http (to read the Connection header fetch hides), on a keep-alive agent of its own. */
function rawRequest(
  url: string,
  opts: { method?: string; body?: string; headers?: Record<string, string>; agent: http.Agent },
) {
  return new Promise<{
    status: number
    headers: http.IncomingHttpHeaders
    body: string
    socket: Socket
  }>((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent: opts.agent }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, socket: req.socket! }))
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

describe('zero-downtime deploys: the web process', () => {
  it('a second web process takes over under load while the first drains on SIGTERM: no request fails', async () => {
    const user = await createTestUser()
    const settings = { SHUTDOWN_DRAIN_DELAY_MS: String(DRAIN_MS), SHUTDOWN_TIMEOUT_MS: String(BOUND_MS) }
    const [first, second] = await Promise.all([startWeb(settings), startWeb(settings)])
    cleanups.push(
      () => first.stop('SIGKILL'),
      () => second.stop('SIGKILL'),
    )

    const load = balancer([first, second], user)
    await new Promise((r) => setTimeout(r, 1_500))

    // An idle keep-alive connection to the first process, and a slow request in flight on it when the signal comes.
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const slowAgent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    cleanups.push(async () => {
      idleAgent.destroy()
      slowAgent.destroy()
    })
    const idle = await rawRequest(`${first.url}/pricing`, { agent: idleAgent })
    expect(idle.status).toBe(200)
    const idleClosed = new Promise<boolean>((resolve) => idle.socket.once('close', (hadError) => resolve(hadError)))
    const keyword = `slow titles ${tag()}`
    await openai.enqueue({
      status: 200,
      path: '/chat/completions',
      bodyIncludes: keyword,
      delayMs: 3_000,
      body: chatCompletion(JSON.stringify({ titles: [`A slow title about ${keyword}`] })),
    })
    const slow = rawRequest(`${first.url}/api/public/generate-titles`, {
      method: 'POST',
      body: JSON.stringify({ keyword }),
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': uniqueIp() },
      agent: slowAgent,
    })
    await waitFor(async () =>
      (await openai.requests({ method: 'POST', path: '/chat/completions' })).some((r: RecordedRequest) =>
        JSON.stringify(r.body).includes(keyword),
      ),
    )

    const servedBefore = load.served.get(first.url)!
    const signalled = Date.now()
    first.signal('SIGTERM')

    // At once (as soon as the process has the signal): the health check says 'draining' with a 503, while the port
    // still accepts, so that the proxy can see it.
    const health = await waitFor(
      async () => {
        const res = await fetch(`${first.url}/healthz`)
        return res.status === 503 ? res : null
      },
      { timeout: DRAIN_MS, interval: 20 },
    )
    expect(await health.json()).toMatchObject({ ok: false, status: 'draining' })

    // The request in flight finishes, and its response closes the connection.
    const slowRes = await slow
    expect(slowRes.status).toBe(200)
    expect(JSON.parse(slowRes.body).titles).toEqual([`A slow title about ${keyword}`])
    expect(slowRes.headers.connection).toBe('close')

    const exit = await first.exited
    const tookMs = Date.now() - signalled
    expect(exit).toEqual({ code: 0, signal: null })
    expect(tookMs).toBeGreaterThanOrEqual(DRAIN_MS)
    expect(tookMs).toBeLessThan(BOUND_MS)
    // The idle keep-alive connection was closed by the server, cleanly (a FIN, not an error).
    expect(await idleClosed).toBe(false)

    // The second process carries on alone.
    const servedSecond = load.served.get(second.url)!
    await new Promise((r) => setTimeout(r, 1_000))
    await load.stop()
    expect(load.failures).toEqual([])
    expect(servedBefore).toBeGreaterThan(0)
    expect(load.served.get(second.url)!).toBeGreaterThan(servedSecond)
    expect(load.total()).toBeGreaterThan(10)
    expect(first.output()).toContain('Rankwell web stopped')
  }, 240_000)
})

// ---------------------------------------------------------------------------------------------------------------
// The worker
// ---------------------------------------------------------------------------------------------------------------

async function postRow(postId: string) {
  const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, postId))
  return row
}

async function modelRequests(needle: string) {
  const all = await openai.requests({ method: 'POST', path: '/chat/completions' })
  return all.filter((r) => JSON.stringify(r.body).includes(needle))
}
const isSection = (r: RecordedRequest) => JSON.stringify(r.body).includes(SECTION_MARK)

function postQueue(prefix: string) {
  const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null })
  const q = new Queue(QUEUES.posts, { connection, prefix })
  cleanups.push(async () => {
    await q.close()
    connection.disconnect()
  })
  return q
}

/** A queued post of a new user, on a queue prefix of its own (so only this test's workers see it). */
async function queuedPost(prefix: string, t: string) {
  const user = await createTestUser()
  const keyword = `graceful worker ${t}`
  const [post] = await db
    .insert(schema.blogPosts)
    .values({ userId: user.id, requestKey: `graceful-${t}`, keyword, language: 'English', title: keyword })
    .returning()
  const q = postQueue(prefix)
  await q.add('generate-post', { postId: post!.id }, { jobId: jobId('post', post!.id), attempts: 5 })
  return { user, postId: post!.id, q }
}

async function blogPostCount(userId: string) {
  const [sub] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId))
  return sub!.blogPostCount
}

/** Exactly one post for the user, completed, with one outline request and one request per section (+ `extra`). */
async function expectWrittenOnce(user: TestUser, postId: string, t: string, extraSections: number) {
  const rows = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))
  expect(rows).toHaveLength(1)
  const done = rows[0]!
  expect(done.id).toBe(postId)
  expect(done.status).toBe('completed')
  expect(done.quotaRefunded).toBe(false)
  const sections = Object.keys(done.steps as object).filter((k) => k.startsWith('section:')).length
  const calls = await modelRequests(t)
  expect(calls.filter((r) => !isSection(r))).toHaveLength(1)
  expect(calls.filter(isSection)).toHaveLength(sections + extraSections)
}

describe('zero-downtime deploys: the worker', () => {
  it('on SIGTERM takes no new job and finishes the one it is writing, then exits 0', async () => {
    const t = tag()
    const prefix = `${process.env.QUEUE_PREFIX}-drain-${t}`
    // Every model answer takes 1.5 s, so the worker is mid-generation when the signal comes.
    await openai.latency(1_500)
    cleanups.push(() => openai.latency(0))
    // A bound far above what the rest of the post needs, even on a loaded machine: this test is about finishing.
    const worker = await startWorker({ ...PRODUCTION_LOCKS, QUEUE_PREFIX: prefix, SHUTDOWN_TIMEOUT_MS: '60000' })
    cleanups.push(() => worker.stop('SIGKILL'))
    const { user, postId, q } = await queuedPost(prefix, t)
    const chargedBefore = await blogPostCount(user.id)
    await waitFor(async () => (await modelRequests(t)).some(isSection), { timeout: 60_000, interval: 100 })

    worker.signal('SIGTERM')
    // A job queued after the signal is not taken.
    const later = await queuedPost(prefix, tag())
    const exit = await worker.exited
    await openai.latency(0)
    expect(exit).toEqual({ code: 0, signal: null })
    expect(worker.output()).toContain('worker stopped')

    await expectWrittenOnce(user, postId, t, 0)
    const job = await q.getJob(jobId('post', postId))
    expect(await job!.getState()).toBe('completed')
    expect(job!.attemptsMade).toBe(1)
    expect(await blogPostCount(user.id)).toBe(chargedBefore)
    expect(await later.q.getJobState(jobId('post', later.postId))).toBe('waiting')
    expect((await postRow(later.postId))!.status).toBe('queued')
  }, 180_000)

  it('on SIGTERM hands a job that outlasts its bound back to the queue: another worker writes it exactly once', async () => {
    const t = tag()
    const prefix = `${process.env.QUEUE_PREFIX}-handback-${t}`
    // One section request never answers: the job cannot finish within the worker's 1.5 s bound.
    await openai.enqueue({ hang: true, status: 200, bodyIncludes: [t, SECTION_MARK], times: 1 })
    const first = await startWorker({ ...PRODUCTION_LOCKS, QUEUE_PREFIX: prefix, SHUTDOWN_TIMEOUT_MS: '1500' })
    cleanups.push(() => first.stop('SIGKILL'))
    const { user, postId, q } = await queuedPost(prefix, t)
    const chargedBefore = await blogPostCount(user.id)
    await waitFor(
      async () => {
        const row = await postRow(postId)
        const steps = (row?.steps ?? {}) as { brief?: { data: { sections: unknown[] } } }
        const n = steps.brief?.data.sections.length
        if (!n) return false
        const saved = Object.keys(steps).filter((k) => k.startsWith('section:')).length
        return saved === n - 1 && (await modelRequests(t)).filter(isSection).length === n
      },
      { timeout: 60_000, interval: 100 },
    )

    const signalled = Date.now()
    first.signal('SIGTERM')
    await first.exited
    expect(Date.now() - signalled).toBeLessThan(6_000)
    expect(first.output()).toContain('handed running jobs back')
    // Back in the queue at once (not left 'active' until its lock expires), with no attempt used up.
    const handedBack = await q.getJob(jobId('post', postId))
    expect(await handedBack!.getState()).toBe('waiting')
    expect(handedBack!.attemptsMade).toBe(0)
    expect((await postRow(postId))!.status).toBe('generating')

    const second = await startWorker({ ...PRODUCTION_LOCKS, QUEUE_PREFIX: prefix })
    cleanups.push(() => second.stop('SIGKILL'))
    await waitFor(async () => (await postRow(postId))?.status === 'completed', { timeout: 60_000, interval: 250 })
    await second.stop('SIGTERM')

    // Only the interrupted section was asked again; nothing else was written or charged twice.
    await expectWrittenOnce(user, postId, t, 1)
    const job = await q.getJob(jobId('post', postId))
    expect(await job!.getState()).toBe('completed')
    expect(job!.attemptsMade).toBe(1)
    expect(await blogPostCount(user.id)).toBe(chargedBefore)
  }, 180_000)
})
