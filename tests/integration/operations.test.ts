import crypto from 'node:crypto'
import { Queue } from 'bullmq'
import { eq } from 'drizzle-orm'
import postgres from 'postgres'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { generatePostJobId } from '#app/features/content/jobs/post-generation.server'
import { QUEUES } from '#app/platform/queue/queues.server'
import { LIMITS } from '#app/features/billing/plans'
import { db, schema } from '#app/platform/db/client.server'
import { ensureDatabase } from '../../scripts/lib/services'
import { appUrl, createTestUser, waitFor, type TestUser } from '#tests/setup/app'
import { freePort, startWeb, startWorker } from '#tests/setup/processes'
import { addKeyword, postRow } from '#tests/setup/records'

/**
 * Issue 20's operations: Prometheus metrics of the web process and the worker (scraped from their ports, the values
 * must move with real traffic and real jobs), request ids from a request to the job it enqueues, and error reports
 * through the official Sentry SDK to the loopback Sentry fake.
 */
const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
})

const tag = () => `op${crypto.randomBytes(4).toString('hex')}`

/** The samples of a Prometheus text exposition: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    out.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return out
}

/** The value of one sample (labels in any order), 0 when the series does not exist yet. */
function sample(all: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`)
  let total = 0
  for (const [key, value] of all) {
    const brace = key.indexOf('{')
    const metric = brace === -1 ? key : key.slice(0, brace)
    if (metric !== name) continue
    const have = brace === -1 ? [] : key.slice(brace + 1, -1).split(/,(?=[a-z_]+=")/)
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) total += value
  }
  return total
}

/** A scrape with the run's METRICS_TOKEN unless told otherwise ('' sends none). */
async function scrape(port: string | number, token = process.env.METRICS_TOKEN) {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() }
}

async function metricsOf(port: string | number) {
  const res = await scrape(port)
  expect(res.status).toBe(200)
  return samples(res.text)
}

const webMetricsPort = () => process.env.METRICS_PORT!
const workerMetricsPort = () => process.env.WORKER_METRICS_PORT!

async function createPost(user: TestUser, keywordId: string, base = appUrl(), requestId?: string) {
  const res = await fetch(`${base}/api/creator`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${user.token}`,
      'Content-Type': 'application/json',
      ...(requestId ? { 'X-Request-Id': requestId } : {}),
    },
    body: JSON.stringify({ keywordId }),
  })
  return {
    status: res.status,
    requestId: res.headers.get('x-request-id'),
    body: (await res.json()) as Record<string, unknown>,
  }
}

describe('metrics', () => {
  it('web /metrics: requests by route and status with latency, quota refusals, event-loop lag and heap', async () => {
    const before = await metricsOf(webMetricsPort())
    const pricing = { method: 'GET', route: 'routes/pricing', status: '200' }
    const missing = { method: 'GET', route: '(not found)', status: '404' }
    for (let i = 0; i < 3; i++) expect((await fetch(`${appUrl()}/pricing`)).status).toBe(200)
    // Unknown paths share one series, whatever the path: scanners cannot mint new ones.
    expect((await fetch(`${appUrl()}/no-such-page-${tag()}`)).status).toBe(404)
    expect((await fetch(`${appUrl()}/no-such-page-${tag()}`)).status).toBe(404)

    // A post refused because the trial's posts are used up.
    const user = await createTestUser()
    await db
      .update(schema.subscriptions)
      .set({ blogPostCount: LIMITS.trial.blogPosts })
      .where(eq(schema.subscriptions.userId, user.id))
    const kw = await addKeyword(user, `quota metric ${tag()}`)
    expect((await createPost(user, kw.id)).status).toBeGreaterThanOrEqual(400)

    // Counted when the response is finished: wait for the last one to land.
    const after = await waitFor(async () => {
      const m = await metricsOf(webMetricsPort())
      return sample(m, 'rankwell_quota_refusals_total', { kind: 'blogPosts' }) >
        sample(before, 'rankwell_quota_refusals_total', { kind: 'blogPosts' })
        ? m
        : null
    })
    expect(
      sample(after, 'rankwell_http_requests_total', pricing) - sample(before, 'rankwell_http_requests_total', pricing),
    ).toBeGreaterThanOrEqual(3)
    expect(
      sample(after, 'rankwell_http_request_duration_seconds_count', pricing) -
        sample(before, 'rankwell_http_request_duration_seconds_count', pricing),
    ).toBeGreaterThanOrEqual(3)
    expect(
      sample(after, 'rankwell_http_requests_total', missing) - sample(before, 'rankwell_http_requests_total', missing),
    ).toBeGreaterThanOrEqual(2)
    // No series per unknown path.
    expect([...after.keys()].some((k) => k.includes('no-such-page'))).toBe(false)
    expect(sample(after, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
    expect(after.has('nodejs_eventloop_lag_seconds')).toBe(true)
  })

  it('worker /metrics: job durations per queue, queue depths and provider calls move with a post', async () => {
    const before = await metricsOf(workerMetricsPort())
    const job = { queue: QUEUES.posts, job: 'generate-post', outcome: 'completed' }
    const user = await createTestUser()
    const kw = await addKeyword(user, `metrics post ${tag()}`)
    const created = await createPost(user, kw.id)
    expect(created.status).toBe(202)
    const postId = created.body.post_id as string
    await waitFor(async () => (await postRow(postId))?.status === 'completed', { timeout: 60_000, interval: 250 })

    const after = await waitFor(
      async () => {
        const m = await metricsOf(workerMetricsPort())
        return sample(m, 'rankwell_job_duration_seconds_count', job) >
          sample(before, 'rankwell_job_duration_seconds_count', job)
          ? m
          : null
      },
      { timeout: 20_000 },
    )
    // The post's model calls went to the (fake) OpenAI API.
    expect(sample(after, 'rankwell_provider_calls_total', { provider: 'openai' })).toBeGreaterThan(
      sample(before, 'rankwell_provider_calls_total', { provider: 'openai' }),
    )
    expect(sample(after, 'rankwell_provider_request_duration_seconds_count', { provider: 'openai' })).toBeGreaterThan(
      sample(before, 'rankwell_provider_request_duration_seconds_count', { provider: 'openai' }),
    )
    // Queue depths are read from Redis at each scrape, for every queue and state.
    for (const queue of Object.values(QUEUES))
      for (const state of ['waiting', 'active', 'delayed', 'failed'])
        expect(after.has(`rankwell_queue_jobs{queue="${queue}",state="${state}"}`)).toBe(true)
    const text = (await scrape(workerMetricsPort())).text
    expect(text).toContain('# TYPE rankwell_job_failures_total counter')
    expect(text).toContain('# TYPE rankwell_provider_errors_total counter')
  })

  it('serves /metrics only with the bearer token when METRICS_TOKEN is set', async () => {
    const port = await freePort()
    const token = `metrics-${tag()}`
    const web = await startWeb({ METRICS_PORT: String(port), METRICS_TOKEN: token })
    cleanups.push(() => web.stop())
    expect((await scrape(port, '')).status).toBe(401)
    expect((await scrape(port, 'wrong')).status).toBe(401)
    expect((await fetch(`${web.url}/pricing`)).status).toBe(200)
    // Counted once the response has finished (just after the client has it).
    const ok = await waitFor(async () => {
      const res = await scrape(port, token)
      const pricing = { method: 'GET', route: 'routes/pricing', status: '200' }
      return sample(samples(res.text), 'rankwell_http_requests_total', pricing) === 1 ? res : null
    })
    expect(ok.status).toBe(200)
    expect(ok.type).toContain('text/plain')
    // Not on the app's own port.
    expect((await fetch(`${web.url}/metrics`)).status).toBe(404)
  })
})

describe('request ids', () => {
  it('echoes a valid X-Request-Id (a new one otherwise), and the job the request enqueues runs and logs under it', async () => {
    // A web process and a worker of their own queue prefix, so that this worker (whose log we read) takes the job.
    const prefix = `rankwell-reqid-${tag()}`
    const [web, worker] = await Promise.all([startWeb({ QUEUE_PREFIX: prefix }), startWorker({ QUEUE_PREFIX: prefix })])
    cleanups.push(
      () => web.stop(),
      () => worker.stop(),
    )

    const bad = await fetch(`${web.url}/pricing`, { headers: { 'X-Request-Id': 'bad id\twith spaces' } })
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const fresh = await fetch(`${web.url}/pricing`)
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(fresh.headers.get('x-request-id')).not.toBe(bad.headers.get('x-request-id'))

    const requestId = `it-${tag()}-request`
    const user = await createTestUser()
    const kw = await addKeyword(user, `request id ${tag()}`)
    const created = await createPost(user, kw.id, web.url, requestId)
    expect(created.status).toBe(202)
    expect(created.requestId).toBe(requestId)
    const postId = created.body.post_id as string

    // The job carries the id in its data…
    const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null })
    const queue = new Queue(QUEUES.posts, { connection, prefix })
    cleanups.push(
      () => queue.close(),
      async () => connection.disconnect(),
    )
    const job = await waitFor(async () => queue.getJob(generatePostJobId(postId)))
    expect(job.data).toMatchObject({ postId, requestId })

    // …and the worker's log lines of that job carry it too.
    await waitFor(async () => (await postRow(postId))?.status === 'completed', { timeout: 60_000, interval: 250 })
    // The processor marks the post completed before BullMQ records the job's end and the worker logs it: wait for that
    // line rather than read the log at once (a busy machine was seen between the two).
    const ownLines = () =>
      worker
        .output()
        .split('\n')
        .filter((line) => line.includes(requestId))
    await waitFor(async () => ownLines().some((line) => line.includes('"msg":"job completed"')), {
      timeout: 15_000,
      interval: 100,
    }).catch(() => undefined)
    const lines = ownLines()
    expect(
      lines.some((line) => line.includes('"msg":"job started"') && line.includes('"queue":"post-generation"')),
    ).toBe(true)
    expect(lines.some((line) => line.includes('"msg":"job completed"'))).toBe(true)
    for (const line of lines.filter((l) => l.startsWith('{'))) expect(JSON.parse(line)).toMatchObject({ requestId })
  }, 180_000)
})

describe('sentry error reports', () => {
  const sentry = process.env.FAKE_SENTRY_URL!

  type SentEvent = { tags?: Record<string, string>; exception?: unknown }
  async function events(): Promise<SentEvent[]> {
    const res = await fetch(`${sentry}/__control/events`)
    return ((await res.json()) as { events: SentEvent[] }).events
  }

  it('reports an unexpected error with the request id, route and method, and without secrets', async () => {
    // A web process whose database has no tables: Postgres answers, so every query throws an unexpected error
    // ("relation … does not exist"), not an outage.
    const server = new URL(process.env.DATABASE_URL!)
    const broken = await ensureDatabase(
      `${server.protocol}//${server.username}:${server.password}@${server.host}/postgres`,
      `${server.pathname.slice(1)}_empty_${tag()}`,
    )
    cleanups.push(async () => {
      const admin = postgres(`${server.protocol}//${server.username}:${server.password}@${server.host}/postgres`, {
        max: 1,
        onnotice: () => {},
      })
      await admin.unsafe(`drop database if exists "${new URL(broken).pathname.slice(1)}" with (force)`)
      await admin.end()
    })
    const web = await startWeb({ DATABASE_URL: broken, SENTRY_DSN: process.env.FAKE_SENTRY_DSN! }, { ready: '/' })
    cleanups.push(() => web.stop())

    const user = await createTestUser({ password: 'a-password-never-sent' })
    const requestId = `it-${tag()}-sentry`
    const res = await fetch(`${web.url}/blogposts?token=secret-in-the-query`, {
      headers: { Cookie: user.cookie, 'X-Request-Id': requestId, Authorization: `Bearer ${user.token}` },
      redirect: 'manual',
    })
    expect(res.status).toBe(500)
    expect(res.headers.get('x-request-id')).toBe(requestId)

    const event = await waitFor(async () => (await events()).find((e) => e.tags?.request_id === requestId), {
      timeout: 20_000,
      interval: 250,
    })
    expect(event.tags).toMatchObject({
      request_id: requestId,
      route: 'routes/blogposts',
      method: 'GET',
      process: 'web',
    })
    expect(JSON.stringify(event.exception)).toMatch(/does not exist/)
    // Never the session cookie, the API token, the password or a secret in the URL.
    const sent = JSON.stringify(event)
    expect(sent).not.toContain(user.cookie.split('=')[1]!)
    expect(sent).not.toContain(user.token)
    expect(sent).not.toContain('secret-in-the-query')
    expect(sent).not.toContain(process.env.SESSION_SECRET!)
  })
})
