import fs from 'node:fs'
import path from 'node:path'
import crypto from 'node:crypto'
import { Queue } from 'bullmq'
import { eq } from 'drizzle-orm'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateDatabase } from '../../scripts/lib/migrate'
import {
  ensureDatabase,
  freePort,
  startEmbeddedPostgres,
  startRedisServer,
  tmpDir,
  type RestartableService,
} from '../../scripts/lib/services'
import { generatePostJobId } from '#app/features/content/jobs/post-generation.server'
import { QUEUES } from '#app/platform/queue/queues.server'
import { OUTAGE_MESSAGE } from '#app/platform/http/outage'
import { POST_MESSAGES } from '#app/features/content/posts'
import { closeDb, db, schema } from '#app/platform/db/client.server'
import { fakeControl } from '#tests/fakes/client'
import { api, createTestUser, uniqueEmail, uniqueIp, waitFor } from '#tests/setup/app'
import { startWeb, startWorker, type WebProcess, type WorkerProcess } from '#tests/setup/processes'
import { addKeyword, postRow } from '#tests/setup/records'

/**
 * Outages of Postgres and Redis, with the real processes stopped and started again. This file runs the built app
 * (a web process and a worker) on a Postgres and a Redis of its own, so that stopping them, or emptying Redis,
 * never touches the services the other test files share. Everything is restored (and removed) in afterAll.
 */
const scratch = tmpDir('rankwell-outage-')
let pg: RestartableService
let redis: RestartableService
let web: WebProcess
let worker: WorkerProcess
const saved = { ...process.env }

beforeAll(async () => {
  pg = await startEmbeddedPostgres({
    dataDir: path.join(scratch, 'postgres'),
    port: await freePort(),
    persistent: true,
  })
  const databaseUrl = await ensureDatabase(pg.url, 'rankwell_outages')
  await migrateDatabase(databaseUrl)
  redis = await startRedisServer({ dataDir: path.join(scratch, 'redis'), port: await freePort(), persistent: false })
  // This file's helpers (createTestUser, api) and the processes below use these services.
  Object.assign(process.env, { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, QUEUE_PREFIX: 'rankwell-outages' })
  web = await startWeb({}, { ownAppUrl: true })
  process.env.APP_URL = web.url
  // The reconciliation looks every 2 s for posts queued over 5 s ago without a job.
  worker = await startWorker({ POST_RECONCILE_EVERY_MS: '2000', POST_STALE_AFTER_MS: '5000' })
}, 180_000)

afterAll(async () => {
  // The tests start what they stop (in `finally`); here everything of this file goes away.
  await worker?.stop('SIGKILL')
  await web?.stop('SIGKILL')
  await closeDb()
  await redis?.stop()
  await pg?.stop()
  fs.rmSync(scratch, { recursive: true, force: true })
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'QUEUE_PREFIX', 'APP_URL']) process.env[key] = saved[key]
}, 120_000)

/** A request and how long its answer took. */
async function timed<T>(request: Promise<T>) {
  const started = Date.now()
  const result = await request
  return { ...result, ms: Date.now() - started }
}

function form(fields: Record<string, string>, ip = uniqueIp()) {
  return {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': ip },
  }
}

async function subscription(userId: string) {
  const [sub] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId))
  return sub!
}

async function blogPostCount(userId: string) {
  return (await subscription(userId)).blogPostCount
}

const healthy = () => waitFor(async () => (await api('/healthz')).status === 200, { timeout: 30_000, interval: 250 })

describe('outages: Postgres stopped', () => {
  it('every request answers 503 with Retry-After and the message within 6 s, and all works again after a restart', async () => {
    const user = await createTestUser()
    expect((await api('/api/user', { as: user })).status).toBe(200)
    expect((await api('/blogposts', { as: user, auth: 'cookie' })).status).toBe(200)

    await pg.stop()
    try {
      // Under load: the API, the library (document and client-side data request) and sign-in attempts at once.
      const requests = await Promise.all([
        ...Array.from({ length: 6 }, () => timed(api('/api/user', { as: user }))),
        ...Array.from({ length: 6 }, () => timed(api('/blogposts', { as: user, auth: 'cookie' }))),
        ...Array.from({ length: 6 }, () => timed(api('/signin', form({ email: user.email, password: user.password })))),
        timed(api('/blogposts?_data=routes%2Fblogposts', { as: user, auth: 'cookie' })),
      ])
      for (const res of requests) {
        expect(res.ms).toBeLessThan(6_000)
        expect(res.status).toBe(503)
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
        expect(res.text).toContain(OUTAGE_MESSAGE)
      }
      const [apiUser] = requests
      expect(apiUser!.headers.get('content-type')).toContain('application/json')
      expect(apiUser!.body).toEqual({ message: OUTAGE_MESSAGE })
      const page = requests[6]!
      expect(page.headers.get('content-type')).toContain('text/html')
      // The page is rendered inside the layout: the navigation and the footer are there.
      expect(page.text).toContain('<main id="main"')
      const signIn = requests[12]!
      expect(signIn.headers.get('content-type')).toContain('text/html')
      // The health check says which service is down.
      const health = await timed(api('/healthz'))
      expect(health.ms).toBeLessThan(6_000)
      expect(health.body).toMatchObject({ ok: false, postgres: 'down', redis: 'up' })
    } finally {
      await pg.start()
    }

    await healthy()
    expect((await api('/api/user', { as: user })).body).toMatchObject({ email: user.email })
    expect((await api('/blogposts', { as: user, auth: 'cookie' })).status).toBe(200)
    const signIn = await api('/signin', form({ email: user.email, password: user.password }))
    expect(signIn.status).toBe(302)
  }, 120_000)
})

describe('outages: Postgres restarts during a keyword search', () => {
  it('the search answers 503 with Retry-After, charges nothing and saves nothing; searching again charges once', async () => {
    const user = await createTestUser()
    const query = `restart ${crypto.randomBytes(4).toString('hex')}`
    const body = {
      query,
      countryCode: '2840',
      languageCode: '1000',
      countryName: 'United States',
      languageName: 'English',
    }
    const searches = async () => (await subscription(user.id)).keywordSearchCount
    const savedFor = async () =>
      (await db.select().from(schema.savedKeywords).where(eq(schema.savedKeywords.seedQuery, query))).length
    const before = await searches()

    // The provider answers after 2.5 s; Postgres goes away while the answer is on its way, so the charge and the
    // saved rows meet a database that is not there (the soak found a unit charged and lost this way).
    const dataforseo = fakeControl('dataforseo')
    await dataforseo.latency(2_500)
    try {
      const search = timed(api('/api/search', { method: 'POST', json: body, as: user }))
      await new Promise((resolve) => setTimeout(resolve, 700))
      await pg.stop()
      let res: Awaited<typeof search>
      try {
        res = await search
      } finally {
        await pg.start()
      }
      expect(res.status).toBe(503)
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(res.body).toEqual({ message: OUTAGE_MESSAGE })
    } finally {
      await dataforseo.latency(0)
    }

    await healthy()
    expect(await searches()).toBe(before)
    expect(await savedFor()).toBe(0)
    // The same search once Postgres is back: answered from the provider's (now cached) ideas, charged once.
    const again = await api('/api/search', { method: 'POST', json: body, as: user })
    expect(again.status).toBe(200)
    expect((again.body as { data: unknown[] }).data.length).toBeGreaterThan(0)
    expect(await searches()).toBe(before + 1)
    expect(await savedFor()).toBe((again.body as { data: unknown[] }).data.length)
  }, 120_000)
})

describe('outages: Redis stopped', () => {
  it('sign-in and sign-up keep working, Create Post answers quickly, and its retry after Redis returns starts the post', async () => {
    const user = await createTestUser()
    const keyword = await addKeyword(user, `outage ${crypto.randomBytes(4).toString('hex')}`)
    const key = { 'Idempotency-Key': crypto.randomUUID() }

    await redis.stop()
    let postId: string
    try {
      // Sign-in: the rate limit falls back to a stricter in-process one, never 'Too many attempts' for Redis.
      const ip = uniqueIp()
      const wrong = await timed(api('/signin', form({ email: user.email, password: 'not-the-password' }, ip)))
      expect(wrong.ms).toBeLessThan(6_000)
      expect(wrong.status).toBe(401)
      const signIn = await timed(api('/signin', form({ email: user.email, password: user.password }, ip)))
      expect(signIn.ms).toBeLessThan(6_000)
      expect(signIn.status).toBe(302)
      const signUp = await timed(
        api(
          '/signup',
          form({ name: 'Outage Tester', email: uniqueEmail('outage'), password: 'correct-horse-battery' }),
        ),
      )
      expect(signUp.ms).toBeLessThan(6_000)
      expect(signUp.status).toBe(302)
      const apiLogin = await api('/api/login', {
        method: 'POST',
        json: { email: user.email, password: user.password },
        headers: { 'X-Forwarded-For': uniqueIp() },
      })
      expect(apiLogin.status).toBe(200)

      // The fallback still limits: half the per-account limit (10 → 5), here against another account.
      const target = await createTestUser()
      const attacker = uniqueIp()
      const statuses: number[] = []
      for (let i = 0; i < 7; i++)
        statuses.push((await api('/signin', form({ email: target.email, password: `guess-${i}` }, attacker))).status)
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
      expect(statuses.slice(5)).toEqual([429, 429])

      // Create Post: the spec's error within a few seconds, and the unit given back.
      const create = await timed(
        api('/api/creator', { method: 'POST', json: { keywordId: keyword.id }, headers: key, as: user }),
      )
      expect(create.ms).toBeLessThan(6_000)
      expect(create.status).toBe(503)
      expect(create.body).toEqual({ message: POST_MESSAGES.failed })
      const [post] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))
      postId = post!.id
      expect(post).toMatchObject({ status: 'failed', quotaRefunded: true })
      expect(await blogPostCount(user.id)).toBe(0)

      // Its retry while Redis is still away: the same answer, still nothing charged.
      const again = await timed(
        api('/api/creator', { method: 'POST', json: { keywordId: keyword.id }, headers: key, as: user }),
      )
      expect(again.ms).toBeLessThan(6_000)
      expect(again.status).toBe(503)
      expect(await blogPostCount(user.id)).toBe(0)
    } finally {
      await redis.start()
    }
    await healthy()

    // The retry once Redis is back starts the post: the same post, charged once, really queued and then written.
    const retry = await api('/api/creator', { method: 'POST', json: { keywordId: keyword.id }, headers: key, as: user })
    expect(retry.status).toBe(200)
    expect(retry.body).toMatchObject({
      post_id: postId,
      status: 'queued',
      created: false,
      message: POST_MESSAGES.created,
    })
    expect(await blogPostCount(user.id)).toBe(1)
    const done = await waitFor(async () => ((await postRow(postId))?.status === 'completed' ? postRow(postId) : null), {
      timeout: 60_000,
      interval: 500,
    })
    expect(done).toMatchObject({ quotaRefunded: false })
    // Later retries report the post's real state.
    const later = await api('/api/creator', { method: 'POST', json: { keywordId: keyword.id }, headers: key, as: user })
    expect(later.body).toMatchObject({ post_id: postId, status: 'completed', created: false })
    expect(await blogPostCount(user.id)).toBe(1)
    expect(await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))).toHaveLength(1)
  }, 120_000)

  it('a queued post whose job was lost when Redis was emptied (FLUSHALL) is queued again by the worker and written', async () => {
    const user = await createTestUser()
    const keyword = `flushed ${crypto.randomBytes(4).toString('hex')}`
    const [post] = await db
      .insert(schema.blogPosts)
      .values({ userId: user.id, requestKey: `flush-${keyword}`, keyword, language: 'English', title: keyword })
      .returning()
    const postId = post!.id
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null })
    const queue = new Queue(QUEUES.posts, { connection, prefix: process.env.QUEUE_PREFIX })
    try {
      // Its job waits in Redis (delayed by an hour), and the reconciliation leaves a post with a job alone...
      await queue.add('generate-post', { postId }, { jobId: generatePostJobId(postId), delay: 3_600_000 })
      await new Promise((r) => setTimeout(r, 7_000))
      expect((await postRow(postId))!.status).toBe('queued')
      expect(await queue.getJobState(generatePostJobId(postId))).toBe('delayed')
      // ...until Redis is emptied with the worker running: the job and the worker's schedules are gone.
      await connection.flushall()
      expect(await queue.getJobState(generatePostJobId(postId))).toBe('unknown')
      const started = Date.now()
      await waitFor(async () => (await postRow(postId))?.status === 'completed', { timeout: 60_000, interval: 500 })
      // Within a few reconciliation intervals (2 s here; a minute by default).
      expect(Date.now() - started).toBeLessThan(45_000)
      // BullMQ marks the job completed just after the job has written the post.
      await waitFor(async () => (await queue.getJobState(generatePostJobId(postId))) === 'completed', {
        timeout: 10_000,
        interval: 200,
      })
    } finally {
      await queue.close()
      connection.disconnect()
    }
  }, 120_000)
})
