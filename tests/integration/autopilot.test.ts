import { and, eq, sql } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { pickBestKeyword, slotFor } from '#app/features/autopilot/settings/autopilot'
import { queue, QUEUES } from '#app/platform/queue/queues.server'
import { db, schema } from '#app/platform/db/client.server'
import { webhookSecretOf } from '#app/features/autopilot/settings/settings.server'
import { postMessageId } from '#app/platform/webhooks/signing.server'
import { startReceiver, type Receiver } from '#tests/setup/autopilot-helpers'
import { startWorker } from '#tests/setup/processes'
import { api, appUrl, createTestUser, waitFor, type TestUser } from '#tests/setup/app'

let receiver: Receiver
const users: TestUser[] = []
const extra: Array<{ stop: () => Promise<void> }> = []

/** These tests are about publishing by itself: the user publishes every draft without review (issue 15's 'always'). */
async function newUser() {
  const user = await createTestUser()
  await db
    .update(schema.autopilotSettings)
    .set({ reviewMode: 'always' })
    .where(eq(schema.autopilotSettings.userId, user.id))
  users.push(user)
  return user
}

async function settingsOf(userId: string) {
  const [row] = await db.select().from(schema.autopilotSettings).where(eq(schema.autopilotSettings.userId, userId))
  return row!
}

/** Switches Auto Pilot on in the database only, for tests that drive runs themselves (the worker's periodic schedule restore may still start a run of its own later). */
async function enableWithoutSchedule(
  userId: string,
  values: Partial<typeof schema.autopilotSettings.$inferInsert> = {},
) {
  await db
    .update(schema.autopilotSettings)
    .set({ enabled: true, webhookSecret: 'whsec_dGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQtMDEyMzQ1', ...values })
    .where(eq(schema.autopilotSettings.userId, userId))
}

async function finishedJob(id: string, timeout = 60_000) {
  return waitFor(
    async () => {
      // The state first, then the job: a job read before it finished keeps a null returnvalue even once its state
      // says 'completed'.
      const state = await queue(QUEUES.autopilot).getJobState(id)
      return state === 'completed' || state === 'failed' ? await queue(QUEUES.autopilot).getJob(id) : null
    },
    { timeout, interval: 250 },
  )
}

beforeAll(async () => {
  receiver = await startReceiver()
})

afterAll(async () => {
  // Leave no schedule behind for the processes of later test files.
  for (const user of users) {
    await db
      .update(schema.autopilotSettings)
      .set({ enabled: false })
      .where(eq(schema.autopilotSettings.userId, user.id))
    await queue(QUEUES.autopilot).removeJobScheduler(`autopilot-${user.id}`)
  }
  await Promise.all(extra.map((e) => e.stop()))
  await receiver.close()
})

describe('auto pilot API', () => {
  it('refuses the API without authentication', async () => {
    expect((await api('/api/autopilot/status-list')).status).toBe(401)
    expect((await api('/api/autopilot/toggle', { method: 'POST', json: { enabled: true } })).status).toBe(401)
    expect(
      (await api('/api/autopilot/integrations/webhook', { method: 'POST', json: { webhookUrl: 'example.com' } }))
        .status,
    ).toBe(401)
  })

  it('validates webhook URLs with the spec messages and stores https:// when the scheme is missing', async () => {
    const user = await newUser()
    const post = (webhookUrl: unknown) =>
      api('/api/autopilot/integrations/webhook', { method: 'POST', as: user, json: { webhookUrl } })
    const empty = await post('  ')
    expect(empty.status).toBe(400)
    expect(empty.body).toMatchObject({
      message: 'Webhook URL cannot be empty.',
      errors: { webhookUrl: ['Webhook URL cannot be empty.'] },
    })
    const bad = await post('not a url at all')
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('Please enter a valid URL.')
    const ok = await post('hooks.example.com/rankwell')
    expect(ok.status).toBe(200)
    expect(ok.body.webhookUrl).toBe('https://hooks.example.com/rankwell')
    expect((await settingsOf(user.id)).webhookUrl).toBe('https://hooks.example.com/rankwell')
  })

  it('validates the toggle body', async () => {
    const user = await newUser()
    const res = await api('/api/autopilot/toggle', { method: 'POST', as: user, json: { enabled: 'yes' } })
    expect(res.status).toBe(400)
  })

  it('answers 402 (never 403) when the plan does not include Auto Pilot', async () => {
    const user = await newUser()
    await db.update(schema.subscriptions).set({ status: 'canceled' }).where(eq(schema.subscriptions.userId, user.id))
    const res = await api('/api/autopilot/toggle', { method: 'POST', as: user, json: { enabled: true } })
    expect(res.status).toBe(402)
    expect(String(res.body.message)).toContain('Premium')
    expect((await settingsOf(user.id)).enabled).toBe(false)
    expect(await queue(QUEUES.autopilot).getJobScheduler(`autopilot-${user.id}`)).toBeUndefined()
  })
})

describe('auto pilot cycle', () => {
  let user: TestUser
  let postId: string
  const path = `/hook-cycle-${Date.now()}`

  it('researches, picks the best unused keyword, writes the post and publishes it signed to the webhook', async () => {
    user = await newUser()
    const saved = await api('/api/autopilot/integrations/webhook', {
      method: 'POST',
      as: user,
      json: { webhookUrl: receiver.url(path) },
    })
    expect(saved.status).toBe(200)
    const toggled = await api('/api/autopilot/toggle', { method: 'POST', as: user, json: { enabled: true } })
    expect(toggled.status).toBe(200)
    expect(toggled.body.autoPilotEnabled).toBe(true)

    const settings = await settingsOf(user.id)
    expect(settings.enabled).toBe(true)
    // Encrypted at rest; the page shows (and deliveries sign with) the whsec_ secret.
    expect(settings.webhookSecret).toMatch(/^v1\./)
    const secret = webhookSecretOf(settings)
    expect(secret).toMatch(/^whsec_/)
    const scheduler = await queue(QUEUES.autopilot).getJobScheduler(`autopilot-${user.id}`)
    expect(scheduler?.every).toBe(24 * 3600 * 1000)

    // The first run starts at once; the post is generated by the worker against the fake model, then published.
    const [delivery] = await receiver.waitForRequests(path, 1, 120_000)
    const payload = new Webhook(secret!).verify(delivery!.body, delivery!.headers) as {
      type: string
      timestamp: string
      data: { post: Record<string, string> }
    }
    expect(delivery!.headers['webhook-id']).toMatch(/^msg_/)
    expect(delivery!.headers['content-type']).toBe('application/json')
    expect(payload.type).toBe('post.published')
    expect(Date.parse(payload.timestamp)).toBeGreaterThan(0)
    const post = payload.data.post
    postId = post.id!
    expect(Object.keys(post).sort()).toEqual(
      [
        'content_html',
        'content_markdown',
        // Issue 33: the body a site publishes under its own title field.
        'body_html',
        'body_markdown',
        'created_at',
        'id',
        'keyword',
        'language',
        'meta_description',
        'slug',
        'title',
        'url',
        // Issue 15: the score, its checklist, the claim ledger, the JSON-LD and where the post is live.
        'seo_score',
        'seo_checklist',
        'claims',
        'json_ld',
        'published_url',
        // Issue 33: the featured image (a signed link, alt text, size, credit) and every image.
        'featured_image',
        'images',
      ].sort(),
    )
    expect(post.url).toBe(`${appUrl()}/blogpost/${post.id}`)
    expect(post.title).toBeTruthy()
    expect(post.content_markdown.length).toBeGreaterThan(100)
    expect(post.content_html).toContain('<')
    expect(post.content_html).toMatch(/^<h1/)
    expect(post.body_html).not.toContain('<h1')
    expect(post.content_html.endsWith(post.body_html!)).toBe(true)
    expect(post.body_markdown).not.toMatch(/^# /)
    expect(post.language).toBe('English')
    expect(delivery!.headers['webhook-id']).toBe(postMessageId(post.id!, 'post.published'))

    const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, postId))
    expect(row).toMatchObject({
      source: 'autopilot',
      status: 'completed',
      requestKey: `autopilot-${slotFor(Date.now())}`,
      keyword: post.keyword,
    })

    // The keyword was researched from the business details, saved as Auto Pilot's, and was the best opportunity.
    const researched = await db
      .select()
      .from(schema.savedKeywords)
      .where(and(eq(schema.savedKeywords.userId, user.id), eq(schema.savedKeywords.searchedViaAutoPilot, true)))
    expect(researched.length).toBeGreaterThan(1)
    expect(pickBestKeyword(researched, [])?.keyword).toBe(post.keyword)
    const manual = await api('/api/saved-keywords', { as: user })
    expect(manual.body.data).toEqual([])

    const [run] = await db.select().from(schema.autopilotRuns).where(eq(schema.autopilotRuns.userId, user.id))
    expect(run).toMatchObject({ status: 'completed', postId, slot: slotFor(Date.now()) })

    await waitFor(async () => {
      const [d] = await db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.postId, postId))
      return d?.status === 'delivered' ? d : null
    })
    const deliveries = await db
      .select()
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.postId, postId))
    expect(deliveries).toHaveLength(1)
    expect(deliveries[0]).toMatchObject({
      eventType: 'post.published',
      attempts: 1,
      lastStatusCode: 200,
      body: delivery!.body,
    })
    const attempts = await db
      .select()
      .from(schema.webhookAttempts)
      .where(eq(schema.webhookAttempts.deliveryId, deliveries[0]!.id))
    expect(attempts.map((a) => a.statusCode)).toEqual([200])
  })

  it('lists the chosen keyword with its post in the status list and on the screen', async () => {
    const res = await api('/api/autopilot/status-list', { as: user })
    expect(res.status).toBe(200)
    const data = res.body.data as Array<Record<string, unknown>>
    expect(data).toHaveLength(1)
    const [post] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, postId))
    expect(data[0]).toMatchObject({ keyword: post!.keyword, blogPost: { _id: postId } })
    expect(typeof data[0]!.avgMonthlySearches === 'number' || data[0]!.avgMonthlySearches === null).toBe(true)

    const page = await api('/autopilot', { as: user, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(page.text).toContain('Auto Pilot Status')
    expect(page.text).toContain('View Post')
    expect(page.text).toContain(`/blogpost/${postId}`)
    expect(page.text).toContain('Webhook Integration')
  })

  it('switching off removes the schedule and empties the list; data is kept; switching on again writes no extra post today', async () => {
    const off = await api('/api/autopilot/toggle', { method: 'POST', as: user, json: { enabled: false } })
    expect(off.status).toBe(200)
    expect(off.body.autoPilotEnabled).toBe(false)
    expect(await queue(QUEUES.autopilot).getJobScheduler(`autopilot-${user.id}`)).toBeUndefined()
    expect((await api('/api/autopilot/status-list', { as: user })).body.data).toEqual([])
    const page = await api('/autopilot', { as: user, auth: 'cookie' })
    expect(page.text).not.toContain('Auto Pilot Status')
    expect(page.text).not.toContain('Webhook Integration')
    expect(await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))).toHaveLength(1)
    expect(await db.select().from(schema.autopilotRuns).where(eq(schema.autopilotRuns.userId, user.id))).toHaveLength(1)

    const on = await api('/api/autopilot/toggle', { method: 'POST', as: user, json: { enabled: true } })
    expect(on.body.autoPilotEnabled).toBe(true)
    const scheduler = await queue(QUEUES.autopilot).getJobScheduler(`autopilot-${user.id}`)
    const [run] = await db.select().from(schema.autopilotRuns).where(eq(schema.autopilotRuns.userId, user.id))
    expect(Number(scheduler?.next)).toBeGreaterThanOrEqual(run!.createdAt.getTime() + 24 * 3600 * 1000 - 1000)
    expect((await api('/api/autopilot/status-list', { as: user })).body.data).toHaveLength(1)
  })
})

describe('auto pilot runs', () => {
  // Switched on in the database only: switch them off again so no other worker process schedules them.
  afterEach(async () => {
    for (const user of users)
      await db
        .update(schema.autopilotSettings)
        .set({ enabled: false })
        .where(eq(schema.autopilotSettings.userId, user.id))
  })

  it('never runs one slot twice, even when two jobs race for it', async () => {
    const user = await newUser()
    await enableWithoutSchedule(user.id)
    const slot = `race-${Date.now()}`
    await Promise.all(
      ['a', 'b', 'c'].map((s) =>
        queue(QUEUES.autopilot).add('run', { userId: user.id, slot }, { jobId: `test-${slot}-${s}` }),
      ),
    )
    const jobs = await Promise.all(['a', 'b', 'c'].map((s) => finishedJob(`test-${slot}-${s}`)))
    const outcomes = jobs.map((j) => (j!.returnvalue as { status: string }).status).sort()
    expect(outcomes).toEqual(['completed', 'duplicate', 'duplicate'])
    expect(
      await db
        .select()
        .from(schema.autopilotRuns)
        .where(and(eq(schema.autopilotRuns.userId, user.id), eq(schema.autopilotRuns.slot, slot))),
    ).toHaveLength(1)
    expect(await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))).toHaveLength(1)

    // A later slot picks another keyword: never one already written.
    const next = `${slot}-next`
    await queue(QUEUES.autopilot).add('run', { userId: user.id, slot: next }, { jobId: `test-${next}` })
    await finishedJob(`test-${next}`)
    const posts = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))
    expect(posts).toHaveLength(2)
    expect(new Set(posts.map((p) => p.keyword.toLowerCase())).size).toBe(2)
  })

  it('skips a keyword that overlaps an existing post (issue 14), and writes the next best one', async () => {
    const user = await newUser()
    await enableWithoutSchedule(user.id)
    const slot = `overlap-${Date.now()}`
    await queue(QUEUES.autopilot).add('run', { userId: user.id, slot }, { jobId: `test-${slot}` })
    const first = (await finishedJob(`test-${slot}`))!.returnvalue as {
      status: string
      keyword: string
      postId: string
    }
    expect(first.status).toBe('completed')
    // Its post goes, and a post of another keyword whose title is that very search takes its place: the keyword is
    // unused again, but it overlaps what the user has.
    await db.delete(schema.blogPosts).where(eq(schema.blogPosts.id, first.postId))
    await db.insert(schema.blogPosts).values({
      userId: user.id,
      requestKey: `overlap-${slot}`,
      keyword: `an older post ${slot}`,
      title: first.keyword,
      status: 'completed',
      completedAt: new Date(),
    })
    const next = `${slot}-next`
    await queue(QUEUES.autopilot).add('run', { userId: user.id, slot: next }, { jobId: `test-${next}` })
    const second = (await finishedJob(`test-${next}`))!.returnvalue as { status: string; keyword: string }
    expect(second.status).toBe('completed')
    expect(second.keyword).toBeTruthy()
    expect(second.keyword.toLowerCase()).not.toBe(first.keyword.toLowerCase())
  })

  it('pauses with a notice when the blog post quota is used up', async () => {
    const user = await newUser()
    await enableWithoutSchedule(user.id)
    await db.update(schema.subscriptions).set({ blogPostCount: 5 }).where(eq(schema.subscriptions.userId, user.id))
    const slot = `quota-${Date.now()}`
    await queue(QUEUES.autopilot).add('run', { userId: user.id, slot }, { jobId: `test-${slot}` })
    const job = await finishedJob(`test-${slot}`)
    expect(job!.returnvalue).toMatchObject({ status: 'skipped' })
    expect((await settingsOf(user.id)).notice).toContain("Auto Pilot paused: you have used this period's blog posts")
    expect(await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))).toHaveLength(0)
    const page = await api('/autopilot', { as: user, auth: 'cookie' })
    expect(page.text).toContain('Auto Pilot paused: you have used this period')
  })

  it('skips a run for a user whose trial has ended, with a notice', async () => {
    const user = await newUser()
    await enableWithoutSchedule(user.id)
    await db
      .update(schema.subscriptions)
      .set({ trialEndsAt: new Date(Date.now() - 1000) })
      .where(eq(schema.subscriptions.userId, user.id))
    const slot = `plan-${Date.now()}`
    await queue(QUEUES.autopilot).add('run', { userId: user.id, slot }, { jobId: `test-${slot}` })
    const job = await finishedJob(`test-${slot}`)
    expect(job!.returnvalue).toMatchObject({ status: 'skipped' })
    expect((await settingsOf(user.id)).notice).toContain('does not include Auto Pilot')
  })
})

describe('auto pilot with two worker processes', () => {
  beforeAll(async () => {
    extra.push(await startWorker())
  }, 180_000)

  async function completedPost(userId: string, keyword: string) {
    const [post] = await db
      .insert(schema.blogPosts)
      .values({
        userId,
        requestKey: `test-${keyword}`,
        source: 'autopilot',
        status: 'completed',
        keyword,
        title: `All about ${keyword}`,
        slug: keyword.replace(/\s+/g, '-'),
        metaDescription: `A post about ${keyword}.`,
        contentMarkdown: `# All about ${keyword}\n\nText.`,
        contentHtml: `<h1>All about ${keyword}</h1><p>Text.</p>`,
        completedAt: new Date(),
      })
      .returning()
    return post!
  }

  it('never publishes one post twice', async () => {
    const user = await newUser()
    const path = `/hook-race-${Date.now()}`
    await enableWithoutSchedule(user.id, { webhookUrl: receiver.url(path) })
    const post = await completedPost(user.id, `race keyword ${Date.now()}`)
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        queue(QUEUES.autopilot).add('publish-post', { postId: post.id }, { jobId: `test-publish-${post.id}-${i}` }),
      ),
    )
    await receiver.waitForRequests(path, 1)
    await new Promise((r) => setTimeout(r, 3000))
    const deliveries = await waitFor(
      async () => {
        const rows = await db
          .select()
          .from(schema.webhookDeliveries)
          .where(eq(schema.webhookDeliveries.postId, post.id))
        return rows.every((d) => d.status !== 'pending') ? rows : null
      },
      { timeout: 45_000 },
    )
    expect(deliveries).toHaveLength(1)
    expect(deliveries[0]!.status).toBe('delivered')
    // One message: every request the receiver saw is an attempt of that one delivery (a retry after a timeout on a
    // loaded machine is a legitimate second attempt, with the same webhook-id), never a second publication.
    // Only this post's messages: the worker's periodic schedule restore may start a real run for this enabled user,
    // whose own posts are published to the same endpoint.
    const received = receiver.requests(path).filter((r) => JSON.parse(r.body).data?.post?.id === post.id)
    expect(new Set(received.map((r) => r.headers['webhook-id']))).toEqual(new Set([deliveries[0]!.messageId]))
    expect(received).toHaveLength(deliveries[0]!.attempts)
    const attempts = await db
      .select()
      .from(schema.webhookAttempts)
      .where(eq(schema.webhookAttempts.deliveryId, deliveries[0]!.id))
    expect(attempts).toHaveLength(deliveries[0]!.attempts)
  })

  it('makes each delivery attempt once when several jobs for it race', async () => {
    const user = await newUser()
    const path = `/hook-attempt-race-${Date.now()}`
    await enableWithoutSchedule(user.id, { webhookUrl: receiver.url(path) })
    const post = await completedPost(user.id, `attempt race ${Date.now()}`)
    const [delivery] = await db
      .insert(schema.webhookDeliveries)
      .values({
        userId: user.id,
        messageId: postMessageId(post.id, 'post.published'),
        eventType: 'post.published',
        postId: post.id,
        url: receiver.url(path),
        body: '{"type":"post.published"}',
      })
      .returning()
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        queue(QUEUES.webhooks).add(
          'deliver-webhook',
          { deliveryId: delivery!.id },
          { jobId: `race${i}-${delivery!.id}-0` },
        ),
      ),
    )
    await receiver.waitForRequests(path, 1)
    await new Promise((r) => setTimeout(r, 3000))
    expect(receiver.requests(path).filter((r) => r.headers['webhook-id'] === delivery!.messageId)).toHaveLength(1)
    const [row] = await db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.id, delivery!.id))
    expect(row).toMatchObject({ status: 'delivered', attempts: 1 })
    const [count] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.webhookAttempts)
      .where(eq(schema.webhookAttempts.deliveryId, delivery!.id))
    expect(count!.n).toBe(1)
  })
})
