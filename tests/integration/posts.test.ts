import crypto from 'node:crypto'
import { Queue } from 'bullmq'
import { and, eq } from 'drizzle-orm'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { jobId, QUEUES } from '#app/platform/queue/queues.server'
import { QUOTA_MESSAGES } from '#app/features/billing/plans'
import { formatLongDate } from '#app/features/content/posts'
import { db, schema } from '#app/platform/db/client.server'
import { createPost, markPostFailed } from '#app/features/content/posts.server'
import { generatePost } from '#app/features/content/posts-pipeline.server'
import { storedPostBody } from '#app/platform/security/sanitize.server'
import { fakeControl } from '#tests/fakes/client'
import type { RecordedRequest } from '#tests/fakes/http'
import { api, appUrl, createTestUser, waitFor, type TestUser } from '#tests/setup/app'
import { startWorker } from '#tests/setup/processes'
import { addKeyword, postRow } from '#tests/setup/records'
import { cookieName } from '#app/platform/http/cookies.server'

/**
 * The post pipeline end to end: the web app creates posts, the real worker process writes them against the fake
 * OpenAI server. Every test uses its own keyword (a random tag), and injected model errors match only requests
 * that contain that tag, so nothing here disturbs other requests to the shared fakes.
 */
const openai = fakeControl('openai')
const SUCCESS = 'Your post is being generated! It may take about 2 minutes. Check the Blog Posts later.'
const SECTION_MARK = 'Write the body of the section'

const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
})

function tag() {
  return `zq${crypto.randomBytes(4).toString('hex')}`
}

async function waitForStatus(postId: string, status: 'completed' | 'failed', timeout = 40_000) {
  return waitFor(
    async () => {
      const row = await postRow(postId)
      return row?.status === status ? row : null
    },
    { timeout, interval: 250 },
  )
}

async function blogPostCount(userId: string) {
  const [sub] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId))
  return sub!.blogPostCount
}

/** The chat completion requests the fake received whose body mentions `needle`. */
async function modelRequests(needle: string): Promise<RecordedRequest[]> {
  const all = await openai.requests({ method: 'POST', path: '/chat/completions' })
  return all.filter((r) => JSON.stringify(r.body).includes(needle))
}
const isSection = (r: RecordedRequest) => JSON.stringify(r.body).includes(SECTION_MARK)

function postQueue(prefix = process.env.QUEUE_PREFIX!) {
  const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null })
  const q = new Queue(QUEUES.posts, { connection, prefix })
  cleanups.push(async () => {
    await q.close()
    connection.disconnect()
  })
  return q
}

async function createViaApi(
  user: TestUser,
  keywordId: string,
  headers: Record<string, string> = {},
  extra: Record<string, unknown> = {},
) {
  return api('/api/creator', { method: 'POST', as: user, json: { keywordId, ...extra }, headers })
}

function form(fields: Record<string, string>) {
  return {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  }
}

describe('posts: create, generate and read', () => {
  it('writes a post in the worker from POST /api/creator and serves it everywhere', async () => {
    const user = await createTestUser()
    const t = tag()
    const keyword = `crm for startups ${t}`
    const kw = await addKeyword(user, keyword)

    const res = await createViaApi(user, kw.id)
    expect(res.status).toBe(202)
    expect(res.body).toMatchObject({ message: SUCCESS, status: 'queued', created: true })
    const postId = res.body.post_id as string
    expect(res.body._id).toBe(postId)
    expect(await blogPostCount(user.id)).toBe(1)

    const post = await waitForStatus(postId, 'completed')
    // Stored: title with the keyword, slug, meta description, Markdown, sanitized HTML, model, usage and timings.
    expect(post.title.toLowerCase()).toContain(keyword)
    expect(post.slug).toMatch(/^[a-z0-9-]+$/)
    expect(post.metaDescription.length).toBeGreaterThan(20)
    expect(post.metaDescription.length).toBeLessThanOrEqual(160)
    expect(post.contentMarkdown.startsWith(`# ${post.title}\n`)).toBe(true)
    expect(post.contentMarkdown.match(/^# /gm)).toHaveLength(1)
    expect(post.contentMarkdown.match(/^## /gm)!.length).toBeGreaterThanOrEqual(4)
    expect(post.contentMarkdown).toMatch(/^### .+\?$/m) // FAQ questions
    expect(post.contentHtml).toContain('<h1>')
    expect(post.contentHtml).not.toContain('<script')
    expect(post.language).toBe('English')
    expect(post.keyword).toBe(keyword)
    expect(post.model).toBe('gpt-4o-mini')
    expect(post.promptVersion).toBeTruthy()
    expect(post.completedAt).toBeTruthy()
    expect((post.usage as { totalTokens: number }).totalTokens).toBeGreaterThan(0)
    const timings = post.timings as { sequentialModelCalls: number; modelCalls: number; words: number; totalMs: number }
    expect(timings.sequentialModelCalls).toBe(2)
    expect(timings.words).toBeGreaterThan(400)
    const steps = post.steps as Record<string, unknown>
    const sectionSteps = Object.keys(steps).filter((k) => k.startsWith('section:'))
    expect(steps.brief).toBeTruthy()
    expect(sectionSteps.length).toBe(timings.modelCalls - 1)

    // One brief call, then one call per section.
    const calls = await modelRequests(t)
    expect(calls.filter((r) => !isSection(r))).toHaveLength(1)
    expect(calls.filter(isSection)).toHaveLength(sectionSteps.length)

    // JSON API.
    const list = await api('/api/blogposts', { as: user })
    expect(list.status).toBe(200)
    const data = list.body.data as Array<Record<string, unknown>>
    expect(data).toHaveLength(1)
    expect(data[0]).toMatchObject({
      _id: postId,
      post_id: postId,
      title: post.title,
      content: post.contentMarkdown,
      status: 'completed',
    })
    expect(new Date(data[0]!.createdAt as string).getTime()).toBe(post.createdAt.getTime())
    const one = await api(`/api/blogpost/${postId}`, { as: user })
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({
      title: post.title,
      content: post.contentMarkdown,
      created_at: post.createdAt.toISOString(),
    })

    // The post page and the library (cookie session).
    const page = await api(`/blogpost/${postId}`, { as: user, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(page.text).toContain(formatLongDate(post.createdAt))
    expect(page.text).toMatch(/<h1 [^>]*>[^<]+<\/h1>/)
    expect(page.text).toContain('<h2>')
    expect(page.text).toContain('Download .md')
    const library = await api('/blogposts', { as: user, auth: 'cookie' })
    expect(library.status).toBe(200)
    expect(library.text).toContain('Your SEO Content Library')
    expect(library.text).toContain('AI-optimized posts driving organic growth')
    expect(library.text).toContain(`href="/blogpost/${postId}"`)
    expect(library.text).toContain('Read More')
    expect(library.text).toMatch(/\.\.\.<\/p>/)

    // Downloads: the Markdown file, the HTML file, the HTML source view.
    const md = await fetch(`${appUrl()}/blogpost/${postId}/download?format=md`, { headers: { Cookie: user.cookie } })
    expect(md.status).toBe(200)
    expect(md.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="${post.slug}\\.md"`))
    expect(md.headers.get('content-type')).toContain('text/markdown')
    expect(await md.text()).toBe(post.contentMarkdown)
    const html = await fetch(`${appUrl()}/blogpost/${postId}/download?format=html`, {
      headers: { Cookie: user.cookie },
    })
    expect(html.headers.get('content-disposition')).toContain(`${post.slug}.html`)
    const doc = await html.text()
    expect(doc).toContain('<!doctype html>')
    expect(doc).toContain('<h1>')
    const source = await fetch(`${appUrl()}/blogpost/${postId}/download?format=html&view=source`, {
      headers: { Cookie: user.cookie },
    })
    expect(source.headers.get('content-type')).toContain('text/plain')
    expect(source.headers.get('content-disposition')).toMatch(/^inline/)

    // Running the job again for a finished post changes nothing and asks the model nothing.
    const before = (await modelRequests(t)).length
    expect(await generatePost(postId)).toMatchObject({ outcome: 'already-completed' })
    expect((await modelRequests(t)).length).toBe(before)
    expect((await postRow(postId))!.completedAt!.getTime()).toBe(post.completedAt!.getTime())
  })

  it("never shows another user's post, an unknown id or a malformed id", async () => {
    const owner = await createTestUser()
    const other = await createTestUser()
    const [post] = await db
      .insert(schema.blogPosts)
      .values({
        userId: owner.id,
        requestKey: tag(),
        keyword: 'secret plans',
        title: 'Secret Plans',
        contentMarkdown: '# Secret Plans\n\nHidden.',
        status: 'completed',
      })
      .returning()
    for (const id of [post!.id, crypto.randomUUID(), 'not-a-uuid', "1'; drop table blog_posts;--"]) {
      const page = await api(`/blogpost/${encodeURIComponent(id)}`, { as: other, auth: 'cookie' })
      expect(page.status).toBe(404)
      expect(page.text).toContain('No blog post found.')
      expect(page.text).not.toContain('Secret Plans')
      const json = await api(`/api/blogpost/${encodeURIComponent(id)}`, { as: other })
      expect(json.status).toBe(404)
      expect(json.body).toMatchObject({ message: 'No blog post found.' })
      const file = await fetch(`${appUrl()}/blogpost/${encodeURIComponent(id)}/download`, {
        headers: { Cookie: other.cookie },
      })
      expect(file.status).toBe(404)
    }
    expect((await api('/api/blogposts', { as: other })).body).toEqual({ data: [], total: 0, nextCursor: null })
    const own = await api(`/blogpost/${post!.id}`, { as: owner, auth: 'cookie' })
    expect(own.status).toBe(200)
    expect(own.text).toContain('Secret Plans')
  })

  it('renders hostile content sanitized on the post page (sanitized once, when written)', async () => {
    const user = await createTestUser()
    const hostile =
      '<h2>Hello</h2><p onmouseover="alert(1)">Hi <a href="javascript:alert(2)">x</a><script>alert(3)</script></p>'
    const [post] = await db
      .insert(schema.blogPosts)
      .values({
        userId: user.id,
        requestKey: tag(),
        keyword: 'xss',
        title: 'Unsafe',
        status: 'completed',
        contentMarkdown: hostile,
        // What every write path stores: the sanitized body and the version of the rules (served as stored).
        ...storedPostBody(hostile),
      })
      .returning()
    const page = await api(`/blogpost/${post!.id}`, { as: user, auth: 'cookie' })
    const body = /<div class="post-body[^"]*">([\s\S]*?)<\/div>/.exec(page.text)?.[1]
    expect(body).toBe('<h2>Hello</h2><p>Hi <a>x</a></p>')
    // Nowhere in the page is there a live handler, link or script (the raw text is only JSON data for 'Copy Markdown').
    expect(page.text).not.toMatch(/<[a-z]+ [^>]*onmouseover/)
    expect(page.text).not.toMatch(/href="javascript:/)
    expect(page.text).not.toContain('<script>alert(3)')
  })

  it('answers API input errors: 400 bad body, 404 unknown or foreign keyword, 401 without auth', async () => {
    const user = await createTestUser()
    const other = await createTestUser()
    const foreign = await addKeyword(other, `someone else ${tag()}`)
    expect((await api('/api/creator', { method: 'POST', as: user, json: {} })).status).toBe(400)
    expect((await api('/api/creator', { method: 'POST', as: user, json: { keywordId: 42 } })).status).toBe(400)
    expect(
      (
        await api('/api/creator', {
          method: 'POST',
          as: user,
          body: 'nope',
          headers: { 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(400)
    expect((await createViaApi(user, crypto.randomUUID())).status).toBe(404)
    expect((await createViaApi(user, 'not-a-uuid')).status).toBe(404)
    expect((await createViaApi(user, foreign.id)).status).toBe(404)
    expect((await api('/api/creator', { method: 'POST', json: { keywordId: foreign.id } })).status).toBe(401)
    expect(await blogPostCount(user.id)).toBe(0)
  })
})

describe('posts: quota and idempotency', () => {
  it('refuses over the trial limit with redirect_to_profile (402), without a post or a charge', async () => {
    const user = await createTestUser()
    const kw = await addKeyword(user, `quota test ${tag()}`)
    await db.update(schema.subscriptions).set({ blogPostCount: 5 }).where(eq(schema.subscriptions.userId, user.id))
    const res = await createViaApi(user, kw.id)
    expect(res.status).toBe(402)
    expect(res.body).toEqual({ redirect_to_profile: true, message: QUOTA_MESSAGES.blogPosts })
    expect(await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))).toHaveLength(0)
    expect(await blogPostCount(user.id)).toBe(5)

    // The form answers with the limit toast.
    const web = await api('/blogposts', {
      ...form({ intent: 'create-post', keywordId: kw.id, requestKey: `${kw.id}.x`, redirectTo: '/blogposts' }),
      as: user,
      auth: 'cookie',
    })
    expect(web.status).toBe(302)
    const shown = await api('/blogposts', { headers: { Cookie: `${user.cookie}; ${toastCookie(web.headers)}` } })
    expect(shown.text).toContain(QUOTA_MESSAGES.blogPosts)
  })

  it('double submit of the same form (and an API retry with the same Idempotency-Key) makes one post and one job', async () => {
    const user = await createTestUser()
    const t = tag()
    const kw = await addKeyword(user, `double submit ${t}`)
    const fields = {
      intent: 'create-post',
      keywordId: kw.id,
      requestKey: `${kw.id}.pageview1`,
      redirectTo: '/keywords',
    }
    const [a, b] = await Promise.all([
      api('/blogposts', { ...form(fields), as: user, auth: 'cookie' }),
      api('/blogposts', { ...form(fields), as: user, auth: 'cookie' }),
    ])
    for (const res of [a, b]) {
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe('/keywords')
    }
    const rows = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))
    expect(rows).toHaveLength(1)
    expect(await blogPostCount(user.id)).toBe(1)
    const job = await postQueue().getJob(jobId('post', rows[0]!.id))
    expect(job?.name).toBe('generate-post')
    await waitForStatus(rows[0]!.id, 'completed')
    expect((await modelRequests(t)).filter((r) => !isSection(r))).toHaveLength(1)

    // The toast travels with the redirect (the page shows it without JavaScript).
    const shown = await api('/blogposts', { headers: { Cookie: `${user.cookie}; ${toastCookie(a.headers)}` } })
    expect(shown.text).toContain(SUCCESS)
    expect(shown.text).toContain('href="/blogposts"')

    // A new request for the same keyword overlaps the post: 409 and nothing written, unless forced.
    const overlapping = await createViaApi(user, kw.id)
    expect(overlapping.status).toBe(409)
    expect(overlapping.body.message).toMatch(/for a very similar search: update it instead\?$/)
    expect((overlapping.body.existing as { post_id: string }).post_id).toBe(rows[0]!.id)
    expect(await blogPostCount(user.id)).toBe(1)

    // API clients: the same Idempotency-Key twice → the same post, charged once. Its first model call answers
    // slowly (2.5 s), so that the post is still being written when the third request below comes.
    await openai.enqueue({
      status: 200,
      passThrough: true,
      delayMs: 2500,
      path: '/chat/completions',
      bodyIncludes: t,
      times: 1,
    })
    const key = { 'Idempotency-Key': crypto.randomUUID() }
    const first = await createViaApi(user, kw.id, key, { force: true })
    const second = await createViaApi(user, kw.id, key, { force: true })
    expect(first.status).toBe(202)
    expect(second.status).toBe(200)
    expect(second.body).toMatchObject({ post_id: first.body.post_id, created: false })
    expect(await blogPostCount(user.id)).toBe(2)
    // While that post is being written, another one for the keyword is refused (issue 12: two tabs, one keyword).
    const busy = await createViaApi(user, kw.id, {}, { force: true })
    expect([busy.status, busy.body.message]).toEqual([409, 'A post for this keyword is already being written.'])
    await waitForStatus(String(first.body.post_id), 'completed')

    // The page form without JavaScript: sent to the page that offers to update the post or write anyway.
    const told = await api('/blogposts', {
      ...form({ ...fields, requestKey: `${kw.id}.pageview3` }),
      as: user,
      auth: 'cookie',
    })
    expect(told.status).toBe(302)
    expect(told.headers.get('location')).toMatch(new RegExp(`^/keywords/${kw.id}/write\\?requestKey=`))
    const offer = await api(told.headers.get('location')!, { as: user, auth: 'cookie' })
    expect(offer.text).toMatch(/href="\/blogpost\/[0-9a-f-]{36}\/edit"/)
    expect(offer.text).toContain('Write a new post anyway')
    expect(await blogPostCount(user.id)).toBe(2)

    // A deliberate new request (a new page view: another key, 'write anyway') makes another post.
    const again = await api('/blogposts', {
      ...form({ ...fields, requestKey: `${kw.id}.pageview2`, force: '1' }),
      as: user,
      auth: 'cookie',
    })
    expect(again.status).toBe(302)
    expect(await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))).toHaveLength(3)
    expect(await blogPostCount(user.id)).toBe(3)
  })
})

function toastCookie(headers: Headers) {
  const cookie = headers.getSetCookie().find((c) => c.startsWith(`${cookieName('rw_toast')}=`))
  if (!cookie) throw new Error('no toast cookie was set')
  return cookie.split(';')[0]!
}

describe('posts: the Auto Pilot contract', () => {
  it('createPost for Auto Pilot is idempotent per request key and hands the finished post on for publishing', async () => {
    const user = await createTestUser()
    const kw = await addKeyword(user, `autopilot contract ${tag()}`)
    const input = { userId: user.id, keywordId: kw.id, requestKey: `autopilot:${tag()}`, source: 'autopilot' as const }
    const first = await createPost(input)
    const again = await createPost(input)
    expect(first).toMatchObject({ ok: true, created: true })
    // The repeat reports the post's real state (its job may already have started).
    expect(again).toMatchObject({ ok: true, created: false, postId: first.ok ? first.postId : '' })
    expect(['queued', 'generating', 'completed']).toContain(again.ok ? again.status : '')
    expect(await createPost({ ...input, keywordId: crypto.randomUUID() })).toEqual({ ok: false, reason: 'not_found' })
    const postId = first.ok ? first.postId : ''
    await waitForStatus(postId, 'completed')
    const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null })
    const autopilot = new Queue(QUEUES.autopilot, { connection, prefix: process.env.QUEUE_PREFIX })
    cleanups.push(async () => {
      await autopilot.close()
      connection.disconnect()
    })
    const publish = await waitFor(() => autopilot.getJob(jobId('publish', postId)))
    expect(publish.name).toBe('publish-post')
    // The publish job carries the trace id of the generation job that enqueued it (no request started that one).
    expect(publish.data).toEqual({ postId, requestId: expect.stringMatching(/^job-post-generation-/) })
  })
})

describe('posts: failures, retries and a killed worker', () => {
  it('a 429 from the model pauses the queue and then succeeds, without using an attempt or re-asking answered steps', async () => {
    const user = await createTestUser()
    const t = tag()
    const kw = await addKeyword(user, `rate limited ${t}`)
    await openai.enqueue({
      status: 429,
      bodyIncludes: [t, SECTION_MARK],
      times: 1,
      headers: { 'retry-after-ms': '300' },
    })
    const res = await createViaApi(user, kw.id)
    const postId = res.body.post_id as string
    const post = await waitForStatus(postId, 'completed')
    const sections = Object.keys(post.steps as object).filter((k) => k.startsWith('section:')).length
    const calls = await modelRequests(t)
    expect(calls.filter((r) => !isSection(r))).toHaveLength(1) // the brief was not asked again
    expect(calls.filter(isSection)).toHaveLength(sections + 1) // only the rate-limited section was asked twice
    // BullMQ counts the finishing attempt too: 1 means no attempt was used up by the 429.
    const job = await postQueue().getJob(jobId('post', postId))
    expect(job!.attemptsMade).toBe(1)
    expect(job!.attemptsStarted).toBeGreaterThanOrEqual(2)
    expect(await blogPostCount(user.id)).toBe(1)
  })

  it('a server error is retried with backoff and resumes from the saved steps', async () => {
    const user = await createTestUser()
    const t = tag()
    const kw = await addKeyword(user, `server error ${t}`)
    await openai.enqueue({ status: 500, bodyIncludes: [t, SECTION_MARK], times: 1 })
    const postId = (await createViaApi(user, kw.id)).body.post_id as string
    const post = await waitForStatus(postId, 'completed', 50_000)
    const sections = Object.keys(post.steps as object).filter((k) => k.startsWith('section:')).length
    const calls = await modelRequests(t)
    expect(calls.filter((r) => !isSection(r))).toHaveLength(1)
    expect(calls.filter(isSection)).toHaveLength(sections + 1)
    const job = await postQueue().getJob(jobId('post', postId))
    expect(job!.attemptsMade).toBe(2) // one failed attempt, then the finishing one
    // Reused on the retry: the research context, the brief and every section saved before the failure.
    expect(post.timings).toMatchObject({ reusedSteps: sections + 1 })
  })

  it('a model error ends in a readable failure, the quota unit is given back once, and Try again writes the post', async () => {
    const user = await createTestUser()
    const t = tag()
    const kw = await addKeyword(user, `model error ${t}`)
    await openai.enqueue({ status: 400, bodyIncludes: t, times: 1 })
    const postId = (await createViaApi(user, kw.id)).body.post_id as string
    const failed = await waitForStatus(postId, 'failed')
    expect(failed.failureReason).toBe('The AI service rejected the request.')
    expect(failed.quotaRefunded).toBe(true)
    expect(await blogPostCount(user.id)).toBe(0)
    const job = await postQueue().getJob(jobId('post', postId))
    expect(await job!.getState()).toBe('failed')

    // Giving back is idempotent.
    expect(await markPostFailed(postId, 'again')).toEqual({ refunded: false })
    expect(await blogPostCount(user.id)).toBe(0)

    // The library says so honestly.
    const library = await api('/blogposts', { as: user, auth: 'cookie' })
    expect(library.text).toContain('Failed: The AI service rejected the request.')
    expect(library.text).toContain('Try again')
    expect((await api('/api/blogposts', { as: user })).body.data).toMatchObject([
      { status: 'failed', failure_reason: 'The AI service rejected the request.' },
    ])

    // Try again: charged again, queued again, written.
    const retry = await api('/blogposts', {
      ...form({ intent: 'retry-post', postId, redirectTo: '/blogposts' }),
      as: user,
      auth: 'cookie',
    })
    expect(retry.status).toBe(302)
    expect(await blogPostCount(user.id)).toBe(1)
    const done = await waitForStatus(postId, 'completed')
    expect(done.quotaRefunded).toBe(false)
    expect(done.failureReason).toBeNull()
    // A second 'Try again' on a post that is no longer failed does nothing.
    await api('/blogposts', {
      ...form({ intent: 'retry-post', postId, redirectTo: '/blogposts' }),
      as: user,
      auth: 'cookie',
    })
    expect(await blogPostCount(user.id)).toBe(1)
  })

  it("a queued post whose job Redis lost is re-enqueued by the worker's repeatable job and written once, with several workers", async () => {
    const user = await createTestUser()
    const t = tag()
    const prefix = `${process.env.QUEUE_PREFIX}-reconcile-${t}`
    const keyword = `lost job ${t}`
    // A post queued ten minutes ago (Postgres is the source of truth)...
    const [post] = await db
      .insert(schema.blogPosts)
      .values({
        userId: user.id,
        requestKey: `lost-${t}`,
        keyword,
        language: 'English',
        title: keyword,
        createdAt: new Date(Date.now() - 10 * 60_000),
      })
      .returning()
    const postId = post!.id
    // ...whose job was in Redis and then flushed, as after a failover that lost the queue.
    const q = postQueue(prefix)
    await q.add('generate-post', { postId }, { jobId: jobId('post', postId), delay: 3_600_000 })
    expect(await q.getJobState(jobId('post', postId))).toBe('delayed')
    await q.obliterate({ force: true })
    expect(await q.getJobState(jobId('post', postId))).toBe('unknown')

    // Two workers on that queue, both running the reconciliation often; posts count as stale after 5 minutes.
    const settings = { QUEUE_PREFIX: prefix, POST_RECONCILE_EVERY_MS: '500', POST_STALE_AFTER_MS: '300000' }
    const workers = await Promise.all([startWorker(settings), startWorker(settings)])
    for (const worker of workers) cleanups.push(() => worker.stop('SIGKILL'))
    const done = await waitForStatus(postId, 'completed', 90_000)
    await Promise.all(workers.map((worker) => worker.stop('SIGTERM')))

    const job = await q.getJob(jobId('post', postId))
    expect(await job!.getState()).toBe('completed')
    expect(job!.attemptsMade).toBe(1)
    // Written once: one outline request, one request per section.
    const calls = await modelRequests(t)
    expect(calls.filter((r) => !isSection(r))).toHaveLength(1)
    expect(calls.filter(isSection)).toHaveLength(
      Object.keys(done.steps as object).filter((k) => k.startsWith('section:')).length,
    )
    expect(done.quotaRefunded).toBe(false)
  }, 180_000) // two extra worker processes start

  it('a worker killed (SIGKILL) mid-generation leaves the job to another worker: exactly one post, nothing paid twice', async () => {
    const user = await createTestUser()
    const t = tag()
    const prefix = `${process.env.QUEUE_PREFIX}-kill-${t}`
    const keyword = `killed worker ${t}`
    const [post] = await db
      .insert(schema.blogPosts)
      .values({ userId: user.id, requestKey: `kill-${t}`, keyword, language: 'English', title: keyword })
      .returning()
    const postId = post!.id
    // One section request hangs, so the worker is caught in the middle of the parallel round.
    await openai.enqueue({ hang: true, status: 200, bodyIncludes: [t, SECTION_MARK], times: 1 })

    // Extra workers on their own queue prefix, killed at the end at the latest.
    const first = await startWorker({ QUEUE_PREFIX: prefix })
    cleanups.push(() => first.stop('SIGKILL'))
    const q = postQueue(prefix)
    await q.add(
      'generate-post',
      { postId },
      { jobId: jobId('post', postId), attempts: 6, backoff: { type: 'exponential', delay: 5_000 } },
    )

    // Wait until the brief and every other section are saved, and the last section is in flight.
    await waitFor(
      async () => {
        const row = await postRow(postId)
        const steps = (row?.steps ?? {}) as { brief?: { data: { sections: unknown[] } } }
        const n = steps.brief?.data.sections.length
        if (!n) return false
        const saved = Object.keys(steps).filter((k) => k.startsWith('section:')).length
        const asked = (await modelRequests(t)).filter(isSection).length
        return saved === n - 1 && asked === n
      },
      { timeout: 30_000 },
    )
    await first.stop('SIGKILL')
    expect((await postRow(postId))!.status).toBe('generating')

    const second = await startWorker({ QUEUE_PREFIX: prefix })
    cleanups.push(() => second.stop('SIGKILL'))
    const done = await waitForStatus(postId, 'completed', 45_000)
    await second.stop('SIGTERM')

    const sections = Object.keys(done.steps as object).filter((k) => k.startsWith('section:')).length
    const calls = await modelRequests(t)
    expect(calls.filter((r) => !isSection(r))).toHaveLength(1)
    expect(calls.filter(isSection)).toHaveLength(sections + 1) // only the interrupted section was asked again
    expect(
      await db
        .select()
        .from(schema.blogPosts)
        .where(and(eq(schema.blogPosts.userId, user.id))),
    ).toHaveLength(1)
    const job = await q.getJob(jobId('post', postId))
    expect(await job!.getState()).toBe('completed')
    expect(job!.attemptsMade).toBe(1) // the kill used up no attempt: only the finishing one counts
    // Reused after the kill: the research context, the brief and every section saved before it.
    expect(done.timings).toMatchObject({ reusedSteps: sections + 1 })
  })
})
