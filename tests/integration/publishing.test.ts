import { Queue } from 'bullmq'
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { jobId } from '#app/platform/queue/queues.server'
import { decryptSecret } from '#app/platform/security/crypto.server'
import { db, schema } from '#app/platform/db/client.server'
import { autoApproveDue, gateAutopilotPost } from '#app/features/publishing/review.server'
import { waitForSmtpMessage } from '#tests/fakes/client'
import { api, createTestUser, waitFor, type TestUser } from '#tests/setup/app'
import { startReceiver, type Receiver } from '#tests/setup/autopilot-helpers'
import { startWorker } from '#tests/setup/processes'
import {
  addGhost,
  addWebflow,
  ghostKey,
  ghostPosts,
  makePost,
  publicationOf,
  waitForPublication,
  webflowConfig,
  webflowItems,
} from './publishing-helpers'

const ghostUrl = () => process.env.FAKE_GHOST_URL!
async function ghostControl(path: string, body?: unknown) {
  return fetch(`${ghostUrl()}/__control/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

async function publish(user: TestUser, postId: string, targets: string[], extra: Record<string, unknown> = {}) {
  return api(`/api/blogpost/${postId}/publish`, {
    method: 'POST',
    as: user,
    json: { action: 'publish', targets, ...extra },
  })
}

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => {})
  await ghostControl('latency', { ms: 0 })
})

describe('destinations', () => {
  it('saves a Ghost destination only after the connection works, with the key encrypted at rest', async () => {
    const user = await createTestUser()
    const bad = await api('/api/destinations', {
      method: 'POST',
      as: user,
      json: { kind: 'ghost', adminUrl: ghostUrl(), adminApiKey: `${'a'.repeat(24)}:${'b'.repeat(64)}` },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('Ghost refused the Admin API key.')

    const notGhost = await api('/api/destinations', {
      method: 'POST',
      as: user,
      json: { kind: 'ghost', adminUrl: process.env.FAKE_WEBFLOW_URL, adminApiKey: await ghostKey() },
    })
    expect(notGhost.status).toBe(400)
    expect(notGhost.body.message).toMatch(/does not look like a Ghost site/)

    const malformed = await api('/api/destinations', {
      method: 'POST',
      as: user,
      json: { kind: 'ghost', adminUrl: 'not a url at all', adminApiKey: 'nope' },
    })
    expect(malformed.status).toBe(400)
    expect(Object.keys(malformed.body.errors as object)).toEqual(expect.arrayContaining(['adminUrl', 'adminApiKey']))
    expect(await db.select().from(schema.destinations).where(eq(schema.destinations.userId, user.id))).toHaveLength(0)

    const id = await addGhost(user)
    const [row] = await db.select().from(schema.destinations).where(eq(schema.destinations.id, id))
    const key = await ghostKey()
    expect(row!.credentials).not.toContain(key.split(':')[1])
    expect(decryptSecret(row!.credentials)).toBe(key)
    const list = await api('/api/destinations', { as: user })
    expect(JSON.stringify(list.body)).not.toContain(key.split(':')[1])

    // Another user cannot see, test or delete it.
    const other = await createTestUser()
    expect((await api(`/api/destinations/${id}`, { as: other })).status).toBe(404)
    expect((await api(`/api/destinations/${id}`, { method: 'DELETE', as: other })).status).toBe(404)
    expect((await api(`/api/destinations/${id}?test`, { method: 'POST', as: user })).body).toMatchObject({ ok: true })
  })

  it('explains a Webflow field mapping that does not fit the collection', async () => {
    const user = await createTestUser()
    const cfg = await webflowConfig()
    const res = await api('/api/destinations', {
      method: 'POST',
      as: user,
      json: {
        kind: 'webflow',
        apiToken: cfg.token,
        siteId: cfg.siteId,
        collectionId: cfg.collectionId,
        bodyField: 'content',
      },
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/has no field "content" for the body/)
    const wrongToken = await api('/api/destinations', {
      method: 'POST',
      as: user,
      json: {
        kind: 'webflow',
        apiToken: 'nope',
        siteId: cfg.siteId,
        collectionId: cfg.collectionId,
        bodyField: 'post-body',
      },
    })
    expect(wrongToken.body.message).toBe('Webflow refused the API token.')
  })

  it('the settings form works as a plain form post and keeps the input (but not the secret) on failure', async () => {
    const user = await createTestUser()
    const form = new URLSearchParams({
      intent: 'save',
      kind: 'ghost',
      name: 'My Ghost',
      adminUrl: ghostUrl(),
      adminApiKey: `${'c'.repeat(24)}:${'d'.repeat(64)}`,
      postStatus: 'publish',
      unpublishMode: 'draft',
    })
    const res = await api('/settings/publishing?add=ghost', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: form,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(res.status).toBe(400)
    expect(res.text).toContain('Ghost refused the Admin API key.')
    expect(res.text).toContain('My Ghost')
    expect(res.text).not.toContain('d'.repeat(64))
  })
})

describe('publishing to Ghost and Webflow', () => {
  it('sends a hostile title and excerpt as plain text', async () => {
    const user = await createTestUser()
    const destination = await addGhost(user)
    const post = await makePost(user, {
      title: '<script>alert(1)</script>Pay <b>on time</b> <img src=x onerror=alert(2)>',
      metaDescription: 'Get paid <a href="https://evil.example">now</a>, every time you send an invoice to a client.',
    })
    expect((await publish(user, post.id, [destination])).status).toBe(202)
    expect((await waitForPublication(post.id, destination, ['published', 'failed'])).status).toBe('published')
    const remote = (await ghostPosts()).find((p) => p.slug === post.slug)!
    expect(remote.title).toBe('Pay on time')
    expect(remote.custom_excerpt).toBe('Get paid now, every time you send an invoice to a client.')
  })

  it('publishes, updates, unpublishes and re-creates a post deleted by hand only after confirmation (Ghost)', async () => {
    const user = await createTestUser()
    const destination = await addGhost(user)
    const post = await makePost(user)
    const res = await publish(user, post.id, [destination])
    expect(res.status).toBe(202)
    const published = await waitForPublication(post.id, destination, ['published', 'failed'])
    expect(published.status).toBe('published')
    const remote = (await ghostPosts()).filter((p) => p.slug === post.slug)
    expect(remote).toHaveLength(1)
    expect(remote[0]).toMatchObject({ status: 'published', custom_excerpt: post.metaDescription })
    expect(String(remote[0]!.html)).toContain('Publishing is the last step.')
    expect(String(remote[0]!.html)).not.toContain('<h1')
    expect(published.remoteUrl).toBe(`${ghostUrl()}/${post.slug}/`)
    const [stored] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id))
    expect(stored!.publishedUrl).toBe(published.remoteUrl)

    // An edit in Rankwell, then 'Update on Ghost': the same remote post changes.
    await db
      .update(schema.blogPosts)
      .set({ contentHtml: '<p>Edited in Rankwell.</p>' })
      .where(eq(schema.blogPosts.id, post.id))
    expect((await publish(user, post.id, [destination])).status).toBe(202)
    await waitFor(async () =>
      (await ghostPosts()).find((p) => p.slug === post.slug && String(p.html).includes('Edited')),
    )
    expect((await ghostPosts()).filter((p) => p.slug === post.slug)).toHaveLength(1)
    expect((await publicationOf(post.id, destination))!.action).toBe('update')

    // Unpublish reverts it to a draft on Ghost.
    const un = await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'unpublish', target: destination },
    })
    expect(un.status).toBe(202)
    await waitForPublication(post.id, destination, ['unpublished'])
    expect((await ghostPosts()).find((p) => p.slug === post.slug)!.status).toBe('draft')

    // Deleted by hand on Ghost: an update says so and creates nothing until the user confirms.
    const remoteId = (await publicationOf(post.id, destination))!.remoteId!
    await ghostControl(`posts/${remoteId}/delete`, {})
    await publish(user, post.id, [destination])
    const missing = await waitForPublication(post.id, destination, ['missing', 'failed'])
    expect(missing.status).toBe('missing')
    expect(missing.lastError).toMatch(/deleted on/)
    expect((await ghostPosts()).filter((p) => p.slug === post.slug)).toHaveLength(0)
    await publish(user, post.id, [destination])
    await new Promise((r) => setTimeout(r, 1_000))
    expect((await ghostPosts()).filter((p) => p.slug === post.slug)).toHaveLength(0)
    await publish(user, post.id, [destination], { confirmRecreate: true })
    await waitForPublication(post.id, destination, ['published'])
    expect((await ghostPosts()).filter((p) => p.slug === post.slug)).toHaveLength(1)
  })

  it('publishes a Webflow item live and takes it down again', async () => {
    const user = await createTestUser()
    const destination = await addWebflow(user)
    const post = await makePost(user)
    await publish(user, post.id, [destination])
    const row = await waitForPublication(post.id, destination, ['published', 'failed'])
    expect(row.status).toBe('published')
    const item = (await webflowItems()).find((i) => i.fieldData.slug === post.slug)!
    expect(item).toMatchObject({ live: true })
    expect(item.fieldData).toMatchObject({ name: post.title, 'post-summary': post.metaDescription })
    expect(String(item.fieldData['post-body'])).toContain('Publishing is the last step.')
    expect(row.remoteUrl).toBe(`https://fake-site.webflow.io/blog/${post.slug}`)
    await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'unpublish', target: destination },
    })
    await waitForPublication(post.id, destination, ['unpublished'])
    expect((await webflowItems()).find((i) => i.fieldData.slug === post.slug)!.live).toBe(false)
  })

  it('retries a 500 with backoff and still makes exactly one remote post', async () => {
    const user = await createTestUser()
    const destination = await addGhost(user)
    const post = await makePost(user)
    await ghostControl('enqueue', { status: 500, path: '/ghost/api/admin/posts/', times: 2 })
    await publish(user, post.id, [destination])
    const row = await waitForPublication(post.id, destination, ['published', 'failed'])
    expect(row.status).toBe('published')
    expect(row.attempts).toBeGreaterThanOrEqual(3)
    expect((await ghostPosts()).filter((p) => p.slug === post.slug)).toHaveLength(1)
  })

  it('a worker killed mid-publish leaves exactly one remote post', async () => {
    const user = await createTestUser()
    const destination = await addGhost(user)
    const post = await makePost(user)
    const prefix = `${process.env.QUEUE_PREFIX}-kill-publish-${post.id.slice(0, 8)}`
    const [pub] = await db
      .insert(schema.publications)
      .values({ userId: user.id, postId: post.id, destinationId: destination, status: 'pending', action: 'publish' })
      .returning()
    const q = new Queue('publishing', { connection: { url: process.env.REDIS_URL }, prefix })
    cleanups.push(() => q.close())
    // Every Ghost answer now takes 2.5 s: the worker is caught between asking Ghost to create and hearing back.
    await ghostControl('latency', { ms: 2_500 })
    const first = await startWorker({ QUEUE_PREFIX: prefix })
    cleanups.push(() => first.stop('SIGKILL'))
    await q.add(
      'publish',
      { publicationId: pub!.id, revision: 1 },
      { jobId: jobId('publication', pub!.id, '1'), attempts: 5, backoff: { type: 'exponential', delay: 300 } },
    )
    const createdAsked = async () => {
      const res = await ghostControl('requests')
      const { requests } = (await res.json()) as { requests: Array<{ method: string; path: string; body: unknown }> }
      return requests.some(
        (r) =>
          r.method === 'POST' && r.path === '/ghost/api/admin/posts/' && JSON.stringify(r.body).includes(post.slug),
      )
    }
    await waitFor(createdAsked, { timeout: 30_000, interval: 50 })
    await first.stop('SIGKILL')
    await waitFor(async () => (await ghostPosts()).some((p) => p.slug === post.slug), { timeout: 10_000 })
    await ghostControl('latency', { ms: 0 })
    expect((await publicationOf(post.id, destination))!.status).toBe('pending')

    const second = await startWorker({ QUEUE_PREFIX: prefix })
    cleanups.push(() => second.stop('SIGKILL'))
    const row = await waitForPublication(post.id, destination, ['published', 'failed'], 45_000)
    expect(row.status).toBe('published')
    expect((await ghostPosts()).filter((p) => p.slug === post.slug)).toHaveLength(1)
  })

  it('with production timings, a worker killed mid-publish is taken over within 30 s, leaving one remote post', async () => {
    const user = await createTestUser()
    const destination = await addGhost(user)
    const post = await makePost(user)
    const prefix = `${process.env.QUEUE_PREFIX}-takeover-${post.id.slice(0, 8)}`
    // The defaults of env.server.ts, not the test run's short ones.
    const production = {
      QUEUE_PREFIX: prefix,
      PUBLISH_CLAIM_LEASE_MS: '15000',
      WORKER_LOCK_DURATION_MS: '30000',
      WORKER_STALLED_INTERVAL_MS: '30000',
      PUBLISH_RETRY_BASE_MS: '10000',
    }
    const [pub] = await db
      .insert(schema.publications)
      .values({ userId: user.id, postId: post.id, destinationId: destination, status: 'pending', action: 'publish' })
      .returning()
    const q = new Queue('publishing', { connection: { url: process.env.REDIS_URL }, prefix })
    cleanups.push(() => q.close())
    await ghostControl('latency', { ms: 2_500 })
    // Two workers, as in production: one takes the job and is killed mid-call; the other notices by itself.
    const workers = [await startWorker(production), await startWorker(production)]
    for (const w of workers) cleanups.push(() => w.stop('SIGKILL'))
    await q.add(
      'publish',
      { publicationId: pub!.id, revision: 1 },
      { jobId: jobId('publication', pub!.id, '1'), attempts: 5, backoff: { type: 'exponential', delay: 10_000 } },
    )
    let holder: string | null = null
    await waitFor(async () => (holder = (await publicationOf(post.id, destination))?.claimedBy ?? null) !== null, {
      timeout: 20_000,
      interval: 50,
    })
    const victim = workers.find((w) => holder!.endsWith(`-${w.pid}`))!
    expect(victim).toBeDefined()
    await victim.stop('SIGKILL')
    const killedAt = Date.now()
    await ghostControl('latency', { ms: 0 })
    const row = await waitForPublication(post.id, destination, ['published', 'failed'], 40_000)
    const tookMs = Date.now() - killedAt
    console.log(`publication taken over ${tookMs} ms after its worker was killed`)
    expect(row.status).toBe('published')
    expect(tookMs).toBeLessThan(30_000)
    expect((await ghostPosts()).filter((p) => p.slug === post.slug)).toHaveLength(1)
  }, 150_000) // two worker processes start

  it('a publication whose claim expired with no attempt left is taken over by the sweep, not left Publishing…', async () => {
    const user = await createTestUser()
    const destination = await addGhost(user)
    const post = await makePost(user)
    // A worker claimed the last attempt and died: no job will run again for this revision.
    await db.insert(schema.publications).values({
      userId: user.id,
      postId: post.id,
      destinationId: destination,
      status: 'pending',
      action: 'publish',
      attempts: 5,
      claimedBy: 'a-worker-that-died',
      claimedAt: new Date(),
      claimExpiresAt: new Date(Date.now() + 2_000),
    })
    const row = await waitForPublication(post.id, destination, ['published', 'failed'], 30_000)
    expect(row.status).toBe('published')
    expect(row.revision).toBeGreaterThan(1)
    expect((await ghostPosts()).filter((p) => p.slug === post.slug)).toHaveLength(1)
  })

  it('pauses a destination whose credentials stop working, with one readable reason', async () => {
    const user = await createTestUser()
    const destination = await addGhost(user)
    // The key is revoked on Ghost's side: simulate by storing a key Ghost does not know.
    const { encryptSecret } = await import('#app/platform/security/crypto.server')
    await db
      .update(schema.destinations)
      .set({ credentials: encryptSecret(`${'e'.repeat(24)}:${'f'.repeat(64)}`) })
      .where(eq(schema.destinations.id, destination))
    const post = await makePost(user)
    await publish(user, post.id, [destination])
    const row = await waitForPublication(post.id, destination, ['failed'])
    expect(row.lastError).toBe('Ghost refused the Admin API key.')
    const [d] = await db.select().from(schema.destinations).where(eq(schema.destinations.id, destination))
    expect(d!.pausedAt).not.toBeNull()
    const page = await api('/settings/publishing', { as: user, auth: 'cookie' })
    expect(page.text).toContain('is paused')
  })
})

describe('review before publishing', () => {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => receiver.close())

  async function autopilotUser(mode: 'quality' | 'review' | 'auto_approve' | 'always', approveAfterHours = 24) {
    const user = await createTestUser()
    await db
      .update(schema.autopilotSettings)
      .set({ enabled: true, reviewMode: mode, approveAfterHours })
      .where(eq(schema.autopilotSettings.userId, user.id))
    return user
  }

  it('publishes a draft that passes the bar at once and holds one that does not, with an e-mail', async () => {
    const user = await autopilotUser('quality')
    const destination = await addGhost(user)
    const good = await makePost(user, {
      source: 'autopilot',
      seoScore: 92,
      claims: [{ text: '40% of', sourceUrl: 'https://a.example/x' }],
    })
    expect(await gateAutopilotPost(good.id)).toMatchObject({ status: 'published' })
    await waitForPublication(good.id, destination, ['published'])
    // Idempotent: a retried job does nothing more.
    expect(await gateAutopilotPost(good.id)).toMatchObject({ status: 'published' })
    expect((await ghostPosts()).filter((p) => p.slug === good.slug)).toHaveLength(1)

    const weak = await makePost(user, {
      source: 'autopilot',
      seoScore: 95,
      claims: [{ text: '73% of founders', sourceUrl: null }],
    })
    expect(await gateAutopilotPost(weak.id)).toMatchObject({
      status: 'waiting',
      reasons: ['1 claim is not verified against its source'],
    })
    expect(await publicationOf(weak.id, destination)).toBeNull()
    const mail = await waitForSmtpMessage({ to: user.email, predicate: (m) => m.subject.includes(weak.title) })
    expect(mail.text).toContain(`/blogpost/${weak.id}`)
    const library = await api('/blogposts', { as: user, auth: 'cookie' })
    expect(library.text).toMatch(/>1(<!-- -->)? waiting for review</)

    // Approve (a plain form post on /autopilot): published.
    const approve = await api('/autopilot', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({ intent: 'approve', postId: weak.id }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(approve.status).toBe(302)
    await waitForPublication(weak.id, destination, ['published'])
  })

  it('holds a post with an unverified claim whatever its score and the mode, and approves it only by hand', async () => {
    for (const mode of ['always', 'quality', 'auto_approve'] as const) {
      const user = await autopilotUser(mode, 0)
      const destination = await addGhost(user)
      const post = await makePost(user, {
        source: 'autopilot',
        seoScore: 100,
        claims: [
          { text: '62% were paid late.', status: 'verified', sourceUrl: 'https://a.example/x' },
          { text: 'Many founders agree.', status: 'rewritten', sourceUrl: null },
          { text: '73% of founders say so.', status: 'unverified', sourceUrl: null },
        ],
      })
      expect(await gateAutopilotPost(post.id)).toMatchObject({
        status: 'waiting',
        reasons: ['1 claim is not verified against its source'],
      })
      // Not even once its approval window has passed.
      await autoApproveDue(new Date(Date.now() + 48 * 3600_000))
      const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id))
      expect(row!.reviewStatus).toBe('waiting')
      expect(await publicationOf(post.id, destination)).toBeNull()
    }
  })

  it('review mode holds every draft; three rejections in a row pause Auto Pilot', async () => {
    const user = await autopilotUser('review')
    await addGhost(user)
    const posts = [] as Array<{ id: string }>
    for (let i = 0; i < 3; i++) {
      const p = await makePost(user, {
        source: 'autopilot',
        seoScore: 99,
        completedAt: new Date(Date.now() - (3 - i) * 1000),
      })
      expect(await gateAutopilotPost(p.id)).toMatchObject({ status: 'waiting' })
      posts.push(p)
    }
    for (const p of posts) {
      const res = await api(`/api/blogpost/${p.id}/publish`, { method: 'POST', as: user, json: { action: 'reject' } })
      expect(res.status).toBe(200)
    }
    const [settings] = await db
      .select()
      .from(schema.autopilotSettings)
      .where(eq(schema.autopilotSettings.userId, user.id))
    expect(settings!.enabled).toBe(false)
    expect(settings!.notice).toMatch(/rejected the last 3 drafts/)
    // A rejected draft cannot be approved later.
    const again = await api(`/api/blogpost/${posts[0]!.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'approve' },
    })
    expect(again.status).toBe(400)
  })

  it('approve-after-H-hours publishes a waiting draft once its window has passed', async () => {
    const user = await autopilotUser('auto_approve', 2)
    const destination = await addGhost(user)
    const fresh = await makePost(user, { source: 'autopilot', seoScore: 10 })
    const old = await makePost(user, {
      source: 'autopilot',
      seoScore: 10,
      completedAt: new Date(Date.now() - 3 * 3600_000),
    })
    await gateAutopilotPost(fresh.id)
    await gateAutopilotPost(old.id)
    await autoApproveDue()
    await waitForPublication(old.id, destination, ['published'])
    expect(await publicationOf(fresh.id, destination)).toBeNull()
  })

  it('sends post.published, post.updated and post.unpublished, signed as Standard Webhooks', async () => {
    const user = await createTestUser()
    await api('/api/autopilot/integrations/webhook', {
      method: 'POST',
      as: user,
      json: { webhookUrl: receiver.url(`/hooks/${user.id}`) },
    })
    const [settings] = await db
      .select()
      .from(schema.autopilotSettings)
      .where(eq(schema.autopilotSettings.userId, user.id))
    const destination = await addGhost(user)
    const post = await makePost(user, {
      seoScore: 88,
      claims: [{ text: '2x faster', sourceUrl: 'https://a.example/s' }],
      jsonLd: [{ '@type': 'Article' }],
    })
    await publish(user, post.id, ['webhook', destination])
    await waitForPublication(post.id, destination, ['published'])
    await publish(user, post.id, [destination])
    await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'unpublish', target: 'webhook' },
    })
    const got = await receiver.waitForRequests(`/hooks/${user.id}`, 3)
    const wh = new Webhook(settings!.webhookSecret!)
    const events = got.map(
      (r) => wh.verify(r.body, r.headers) as { type: string; data: { post: Record<string, unknown> } },
    )
    expect(events.map((e) => e.type).sort()).toEqual(['post.published', 'post.unpublished', 'post.updated'])
    const first = events.find((e) => e.type === 'post.published')!
    expect(first.data.post).toMatchObject({
      id: post.id,
      seo_score: 88,
      claims: [{ text: '2x faster', sourceUrl: 'https://a.example/s' }],
      json_ld: [{ '@type': 'Article' }],
    })
    expect(events.find((e) => e.type === 'post.unpublished')!.data.post.content_html).toBeUndefined()
  })
})

describe('scheduling and the calendar', () => {
  it('schedules, moves on the calendar (plain form), and publishes when the time comes', async () => {
    const user = await createTestUser()
    const destination = await addGhost(user)
    const post = await makePost(user)
    const inTwoDays = new Date(Date.now() + 2 * 86400_000).toISOString().slice(0, 10)
    const res = await publish(user, post.id, [destination], { publishAt: inTwoDays })
    expect(res.status).toBe(202)
    expect(res.body.scheduled).toBe(true)

    const page = await api(`/calendar?view=week&date=${inTwoDays}`, { as: user, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(page.text).toContain(post.title)
    expect(page.text).toContain('Scheduled')

    const inFiveDays = new Date(Date.now() + 5 * 86400_000).toISOString().slice(0, 10)
    const [before] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id))
    const moved = await api('/calendar', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({
        intent: 'move',
        postId: post.id,
        date: inFiveDays,
        current: before!.scheduledPublishAt!.toISOString(),
      }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(moved.status).toBe(302)
    const [after] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id))
    expect(after!.scheduledPublishAt!.toISOString().slice(0, 10)).toBe(inFiveDays)
    const past = await api('/calendar', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({ intent: 'move', postId: post.id, date: '2020-01-01' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(past.status).toBe(400)
    const other = await createTestUser()
    const foreign = await api('/calendar', {
      method: 'POST',
      as: other,
      auth: 'cookie',
      body: new URLSearchParams({ intent: 'move', postId: post.id, date: inFiveDays }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(foreign.status).toBe(404)

    // The time has come: the worker's sweep publishes it.
    await db
      .update(schema.blogPosts)
      .set({ scheduledPublishAt: new Date(Date.now() - 1000) })
      .where(eq(schema.blogPosts.id, post.id))
    const row = await waitForPublication(post.id, destination, ['published'], 30_000)
    expect(row.status).toBe('published')
    const [done] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id))
    expect(done!.scheduledPublishAt).toBeNull()
  })

  it('answers 400 for bad input on the publishing API and writes nothing', async () => {
    const user = await createTestUser()
    const post = await makePost(user)
    for (const json of [
      { action: 'publish', targets: [] },
      { action: 'publish', targets: ['not-a-uuid'] },
      { action: 'publish', targets: ['webhook'], publishAt: 'tomorrow-ish' },
      { action: 'dance' },
      { action: 'unpublish', target: 42 },
    ]) {
      const res = await api(`/api/blogpost/${post.id}/publish`, { method: 'POST', as: user, json })
      expect(res.status, JSON.stringify(json)).toBe(400)
      expect(typeof res.body.message).toBe('string')
    }
    const unknown = await publish(user, post.id, ['00000000-0000-4000-8000-000000000000'])
    expect(unknown.status).toBe(400)
    expect(await db.select().from(schema.publications).where(eq(schema.publications.postId, post.id))).toHaveLength(0)
    expect((await api('/api/calendar?from=2026-13-40', { as: user })).status).toBe(400)
  })
})
