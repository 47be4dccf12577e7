import crypto from 'node:crypto'
import { eq, inArray, sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { processPublication } from '#app/features/publishing/publications.server'
import { gateAutopilotPost } from '#app/features/publishing/review.server'
import { pruneAnalyticsJob } from '#app/features/marketing/jobs/analytics-retention.server'
import { pruneAnalyticsEvents } from '#app/features/marketing/analytics-retention.server'
import { db, schema } from '#app/platform/db/client.server'
import { addJob } from '#app/platform/queue/queues.server'
import { encryptSecret } from '#app/platform/security/crypto.server'
import { waitForSmtpMessage } from '#tests/fakes/client'
import { api, appUrl, createTestUser, uniqueEmail, uniqueIp, waitFor, type TestUser } from '#tests/setup/app'
import { startReceiver, type Receiver } from '#tests/setup/autopilot-helpers'
import { Browser, googleSignIn, path } from '#tests/setup/http-browser'
import { addGhost, ghostPosts, makePost } from './publishing-helpers'

// Issue 34: a reclaimed account is the owner's alone (2), the data export's new sections (7b), analytics retention (7c).

const receivers: Receiver[] = []
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()))
})

const post = (body: unknown) => ({ method: 'POST', json: body, headers: { 'X-Forwarded-For': uniqueIp() } })

async function signUpByApi(email: string, password = 'squatter-password-1') {
  const res = await api('/api/signup', post({ name: 'Squatter', email, password }))
  expect(res.status).toBe(201)
  const [user] = await db.select().from(schema.users).where(eq(schema.users.email, email))
  // The shape the publishing helpers sign in with (its Bearer token).
  return { ...user!, token: res.body.token as string, password } as unknown as TestUser
}

async function resetLink(email: string) {
  const asked = await api('/api/password/forgot', post({ email }))
  expect(asked.status).toBe(200)
  const message = await waitForSmtpMessage({ to: email, predicate: (m) => m.subject.includes('Reset') })
  const token = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(message.text)?.[1]
  expect(token).toBeTruthy()
  return token!
}

const siteUrl = () => process.env.FAKE_SITE_URL!.replace(/\/+$/, '')
const ATTACKER_CTA = 'https://attacker.example/buy-now'

/**
 * What a squatter sets up on an account created with someone else's address: business details and content settings
 * with their call to action, a Ghost destination, the Auto Pilot webhook (to `receiver`), Auto Pilot itself, a post
 * published on their site, one with a publication queued and one scheduled, an uploaded image, a pending delivery.
 */
async function squat(email: string, receiver: Receiver) {
  const squatter = await signUpByApi(email)
  const settings = await api('/api/settings/content', {
    method: 'PUT',
    as: squatter,
    json: {
      productService: 'Attack software',
      marketSegment: 'Victims',
      website: siteUrl(),
      valueProposition: 'Buy from the attacker',
      ctaText: 'Buy now',
      ctaUrl: ATTACKER_CTA,
      tone: 'playful',
      toneNotes: '',
      avoid: '',
      writingSample: '',
      writingSampleUrl: '',
    },
  })
  expect(settings.status).toBe(200)
  const destination = await addGhost(squatter)
  const webhook = await api('/api/autopilot/integrations/webhook', {
    method: 'POST',
    as: squatter,
    json: { webhookUrl: receiver.url('/squatter-hook') },
  })
  expect(webhook.status).toBe(200)
  // Switching Auto Pilot on is refused to an unverified account (issue 13); the row says it is on all the same
  // (an account from before that rule): the takeover must switch it off whatever the way it got there.
  await db
    .update(schema.autopilotSettings)
    .set({ enabled: true, reviewMode: 'always', cadenceDays: 3 })
    .where(eq(schema.autopilotSettings.userId, squatter.id))

  const published = await makePost(squatter, { publishedUrl: `${process.env.FAKE_GHOST_URL}/old-post/` })
  const queued = await makePost(squatter)
  const [publication] = await db
    .insert(schema.publications)
    .values({ userId: squatter.id, postId: queued.id, destinationId: destination, status: 'pending' })
    .returning()
  const scheduled = await makePost(squatter, {
    scheduledPublishAt: new Date(Date.now() + 3600_000),
    scheduledTargets: [destination],
  })
  const autopilotPost = await makePost(squatter, { source: 'autopilot', seoScore: 99, claims: [] })
  const [image] = await db
    .insert(schema.postImages)
    .values({
      userId: squatter.id,
      postId: published.id,
      role: 'featured',
      source: 'generated',
      alt: 'x',
      width: 10,
      height: 10,
      storage: 'postgres',
      webpBytes: 1,
      jpegBytes: 1,
      sha256: 'a'.repeat(64),
    })
    .returning()
  await db.insert(schema.remoteMedia).values({
    userId: squatter.id,
    imageId: image!.id,
    destinationId: destination,
    remoteId: 'media-1',
    remoteUrl: `${process.env.FAKE_GHOST_URL}/content/images/x.webp`,
  })
  await db.insert(schema.webhookDeliveries).values({
    userId: squatter.id,
    messageId: `msg_${crypto.randomBytes(8).toString('hex')}`,
    eventType: 'post.published',
    url: receiver.url('/squatter-hook'),
    body: '{}',
    status: 'pending',
    nextAttemptAt: new Date(Date.now() + 3600_000),
  })
  // Their Search Console property, and figures pulled from it (they would feed the owner's rankings).
  await db.insert(schema.searchConsoleConnections).values({
    userId: squatter.id,
    refreshToken: encryptSecret('1//squatter-refresh'),
    siteUrl: 'sc-domain:attacker.example',
  })
  await db.insert(schema.searchConsoleStats).values({
    userId: squatter.id,
    day: '2026-11-01',
    page: 'https://attacker.example/',
    query: 'buy now',
    clicks: 1,
    impressions: 10,
    ctr: 0.1,
    position: 3,
  })
  return { squatter, destination, publication: publication!, published, queued, scheduled, autopilotPost }
}

/** Every row the takeover must have removed, counted (all zero afterwards). */
async function leftovers(userId: string) {
  const tables = {
    contentSettings: schema.contentSettings,
    destinations: schema.destinations,
    publications: schema.publications,
    remoteMedia: schema.remoteMedia,
    webhookDeliveries: schema.webhookDeliveries,
    sessions: schema.sessions,
    searchConsoleConnections: schema.searchConsoleConnections,
    searchConsoleStats: schema.searchConsoleStats,
  }
  const counts: Record<string, number> = {}
  for (const [name, table] of Object.entries(tables)) {
    const [row] = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from ${table} where user_id = ${userId}`,
    )
    counts[name] = Number(row!.n)
  }
  return counts
}

const NONE_LEFT = {
  contentSettings: 0,
  destinations: 0,
  publications: 0,
  remoteMedia: 0,
  webhookDeliveries: 0,
  sessions: 0,
  searchConsoleConnections: 0,
  searchConsoleStats: 0,
}

async function autopilotRow(userId: string) {
  const [row] = await db.select().from(schema.autopilotSettings).where(eq(schema.autopilotSettings.userId, userId))
  return row
}

/** Nothing of the squatter's reaches their site or their webhook: queued, scheduled and Auto Pilot publications. */
async function expectNothingPublished(
  s: Awaited<ReturnType<typeof squat>>,
  receiver: Receiver,
  owner: { token: string },
) {
  // A publication job already in Redis finds nothing to do.
  expect(
    await processPublication(
      { publicationId: s.publication.id, revision: s.publication.revision },
      { workerId: 'reclaim-test', attempt: 0, maxAttempts: 5 },
    ),
  ).toEqual({ status: 'stale' })
  // The scheduled post is no longer scheduled: the sweep (which publishes posts whose time has come) skips it.
  const [scheduled] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, s.scheduled.id))
  expect(scheduled!.scheduledPublishAt).toBeNull()
  expect(scheduled!.scheduledTargets).toBeNull()
  // The owner switches Auto Pilot on: a finished Auto Pilot post has nowhere to go.
  const on = await api('/api/autopilot/toggle', { method: 'POST', as: owner, json: { enabled: true } })
  expect(on.status).toBe(200)
  expect(await gateAutopilotPost(s.autopilotPost.id)).toEqual({ status: 'skipped', reason: 'no destination' })
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  const slugs = (await ghostPosts()).map((p) => p.slug)
  for (const p of [s.queued, s.scheduled, s.autopilotPost]) expect(slugs).not.toContain(p.slug)
  expect(receiver.requests('/squatter-hook')).toHaveLength(0)
  const pubs = await db
    .select()
    .from(schema.publications)
    .where(inArray(schema.publications.postId, [s.queued.id, s.scheduled.id, s.autopilotPost.id]))
  expect(pubs).toHaveLength(0)
}

describe('a reclaimed account is the owner’s alone', () => {
  it("a password reset of an unverified account removes the squatter's settings, destinations, webhook, Auto Pilot and pending publications, and says so (plain forms)", async () => {
    const receiver = await startReceiver()
    receivers.push(receiver)
    const victim = uniqueEmail('reclaim-reset')
    const s = await squat(victim, receiver)
    expect(await leftovers(s.squatter.id)).toMatchObject({ contentSettings: 1, destinations: 1, publications: 1 })

    // The owner uses the reset link with plain forms (no JavaScript).
    const token = await resetLink(victim)
    const owner = new Browser()
    const done = await owner.postForm(`${appUrl()}/reset-password?token=${token}`, {
      token,
      password: 'owner-password-1',
    })
    expect(done.status).toBe(303)
    expect(path(done)).toBe('/signin')
    const page = await (await owner.get(`${appUrl()}/signin`)).text()
    expect(page).toContain('Your password has been reset. Please sign in.')
    expect(page).toContain('Nobody had verified this account, so it is now yours alone')
    expect(page).toContain(
      'The settings left by whoever created it were removed: the business details (website, product, customers), ' +
        'the content settings (call-to-action, voice), 1 publishing destination, the Auto Pilot webhook, ' +
        'the Auto Pilot settings (Auto Pilot is off), 2 pending publications and the Search Console connection and ' +
        'its data.',
    )
    expect(page).toContain('Posts and keywords were kept')

    expect(await leftovers(s.squatter.id)).toEqual(NONE_LEFT)
    const settings = await autopilotRow(s.squatter.id)
    expect(settings).toMatchObject({ enabled: false, webhookUrl: null, webhookSecret: null, cadenceDays: 1 })
    expect(settings!.reviewMode).toBe('quality')
    const [user] = await db.select().from(schema.users).where(eq(schema.users.id, s.squatter.id))
    expect(user).toMatchObject({ website: null, productService: null, marketSegment: null, onboardingComplete: false })
    expect(user!.emailVerifiedAt).toBeTruthy()
    // Posts stay (the owner's to review), no longer said to live on the removed site.
    const [kept] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, s.published.id))
    expect(kept!.publishedUrl).toBeNull()
    expect((await api('/api/user', { as: s.squatter })).status).toBe(403)

    const login = await api('/api/login', post({ email: victim, password: 'owner-password-1' }))
    expect(login.status).toBe(200)
    // Nothing the owner writes carries the squatter's call to action any more.
    const content = await api('/api/settings/content', { as: { token: login.body.token as string } })
    expect(content.text).not.toContain(ATTACKER_CTA)
    await expectNothingPublished(s, receiver, { token: login.body.token as string })
  })

  it("the owner's Google sign-in takes the account over with the same removals, and the landing page lists them", async () => {
    const receiver = await startReceiver()
    receivers.push(receiver)
    const victim = uniqueEmail('reclaim-google')
    const s = await squat(victim, receiver)

    const owner = new Browser()
    const { callbackPath } = await googleSignIn(owner, { email: victim })
    expect(callbackPath).toContain('notice=account-secured')
    // The removals are done by the callback, in the takeover's transaction.
    expect(await leftovers(s.squatter.id)).toEqual(NONE_LEFT)
    const landed = await owner.get(`${appUrl()}${callbackPath}`)
    expect(landed.status).toBe(302)
    expect(path(landed)).toBe('/onboarding')
    const page = await (await owner.get(`${appUrl()}/onboarding`)).text()
    expect(page).toContain('Google confirmed the address is yours')
    expect(page).toContain(
      'The settings left by whoever created it were removed: the business details (website, product, customers), ' +
        'the content settings (call-to-action, voice), 1 publishing destination, the Auto Pilot webhook, ' +
        'the Auto Pilot settings (Auto Pilot is off), 2 pending publications and the Search Console connection and ' +
        'its data.',
    )
    expect(await autopilotRow(s.squatter.id)).toMatchObject({ enabled: false, webhookUrl: null })
    expect((await api('/api/user', { as: s.squatter })).status).toBe(403)
    // The owner's API token (a fresh one from the Google session is not needed: the toggle checks the account).
    const session = owner.header()
    const on = await api('/api/autopilot/toggle', {
      method: 'POST',
      as: { cookie: session },
      auth: 'cookie',
      json: { enabled: true },
      headers: { Origin: appUrl() },
    })
    expect(on.status).toBe(200)
    expect(await gateAutopilotPost(s.autopilotPost.id)).toEqual({ status: 'skipped', reason: 'no destination' })
    expect(
      await processPublication(
        { publicationId: s.publication.id, revision: s.publication.revision },
        { workerId: 'reclaim-test', attempt: 0, maxAttempts: 5 },
      ),
    ).toEqual({ status: 'stale' })
    expect((await ghostPosts()).map((p) => p.slug)).not.toContain(s.autopilotPost.slug)
    expect(receiver.requests('/squatter-hook')).toHaveLength(0)
  })

  it('a reset of a verified account removes nothing but sessions, and the JSON answer says so', async () => {
    const user = await createTestUser()
    const destination = await addGhost(user)
    const token = await resetLink(user.email)
    const res = await api('/api/password/reset', post({ token, password: 'new-password-9' }))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: 'Your password has been reset. Please sign in.' })
    const [kept] = await db.select().from(schema.destinations).where(eq(schema.destinations.id, destination))
    expect(kept).toBeTruthy()
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(row).toMatchObject({ website: 'https://example.com', onboardingComplete: true })
  })

  it('the JSON reset of an unverified account answers what was removed', async () => {
    const victim = uniqueEmail('reclaim-json')
    const squatter = await signUpByApi(victim)
    await addGhost(squatter)
    const token = await resetLink(victim)
    const res = await api('/api/password/reset', post({ token, password: 'owner-password-2' }))
    expect(res.status).toBe(200)
    expect(res.body.removed).toEqual({
      secondFactor: false,
      businessDetails: false,
      contentSettings: false,
      destinations: 1,
      webhook: false,
      autopilot: false,
      publications: 0,
      searchConsole: false,
    })
    expect(res.body.message).toBe(
      'Your password has been reset. Please sign in. Nobody had verified this account, so it is now yours alone: ' +
        'every session was signed out. The settings left by whoever created it were removed: 1 publishing ' +
        'destination. Posts and keywords were kept: check them before you publish.',
    )
  })
})

describe('download my data (issue 34)', () => {
  it('includes destinations, publications, post versions, content settings, rankings and Search Console, and no secret', async () => {
    const user = await createTestUser()
    const destination = await addGhost(user)
    const [stored] = await db.select().from(schema.destinations).where(eq(schema.destinations.id, destination))
    const ghostKey = (await (await fetch(`${process.env.FAKE_GHOST_URL}/__control/key`)).json()) as {
      adminApiKey: string
    }
    await db
      .insert(schema.contentSettings)
      .values({ userId: user.id, ctaText: 'Try it', ctaUrl: 'https://example.com/try' })
      .onConflictDoUpdate({ target: schema.contentSettings.userId, set: { ctaUrl: 'https://example.com/try' } })
    const p = await makePost(user)
    await db.insert(schema.publications).values({
      userId: user.id,
      postId: p.id,
      destinationId: destination,
      status: 'published',
      remoteId: 'remote-1',
      remoteUrl: 'https://blog.example/p/',
    })
    await db.insert(schema.postVersions).values({
      postId: p.id,
      origin: 'edit',
      title: 'An earlier title',
      slug: 'an-earlier-title',
      metaDescription: 'm',
      contentMarkdown: 'Earlier words',
      contentHtml: '<p>Earlier words</p>',
    })
    const [tracked] = await db
      .insert(schema.trackedKeywords)
      .values({
        userId: user.id,
        keyword: 'tracked export keyword',
        keywordNorm: 'tracked export keyword',
        countryCode: '2840',
        languageCode: '1000',
      })
      .returning()
    await db.insert(schema.keywordPositions).values({
      trackedKeywordId: tracked!.id,
      day: '2026-11-01',
      status: 'ranked',
      position: 7,
      url: 'https://x.example/',
    })
    const refreshPlain = `1//refresh-${crypto.randomBytes(8).toString('hex')}`
    const refreshStored = encryptSecret(refreshPlain)
    await db
      .insert(schema.searchConsoleConnections)
      .values({ userId: user.id, refreshToken: refreshStored, siteUrl: 'sc-domain:example.com' })
    await db.insert(schema.searchConsoleStats).values({
      userId: user.id,
      day: '2026-11-02',
      page: 'https://example.com/a',
      query: 'exported query',
      clicks: 3,
      impressions: 40,
      ctr: 0.075,
      position: 5.5,
    })
    const hook = await api('/api/autopilot/integrations/webhook', {
      method: 'POST',
      as: user,
      json: { webhookUrl: 'https://hooks.example/in' },
    })
    expect(hook.status).toBe(200)
    const [ap] = await db.select().from(schema.autopilotSettings).where(eq(schema.autopilotSettings.userId, user.id))

    const res = await api('/api/user/export', { as: user })
    expect(res.status).toBe(200)
    const body = res.body as Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body.destinations).toEqual([
      expect.objectContaining({ id: destination, kind: 'ghost', config: expect.any(Object) }),
    ])
    expect(body.destinations[0]).not.toHaveProperty('credentials')
    expect(body.publications).toEqual([
      expect.objectContaining({ postId: p.id, destinationId: destination, remoteUrl: 'https://blog.example/p/' }),
    ])
    expect(body.postVersions).toEqual([expect.objectContaining({ postId: p.id, title: 'An earlier title' })])
    expect(body.contentSettings).toMatchObject({ ctaUrl: 'https://example.com/try' })
    expect(body.rankings.trackedKeywords).toEqual([
      expect.objectContaining({
        keyword: 'tracked export keyword',
        positions: [{ day: '2026-11-01', status: 'ranked', position: 7, url: 'https://x.example/' }],
      }),
    ])
    expect(body.searchConsole.connection).toMatchObject({ siteUrl: 'sc-domain:example.com', status: 'active' })
    expect(body.searchConsole.stats).toEqual([
      expect.objectContaining({ query: 'exported query', clicks: 3, impressions: 40 }),
    ])
    expect(body.autopilot.settings).toMatchObject({ webhookUrl: 'https://hooks.example/in' })

    // No secret, stored or plain.
    for (const secret of [
      stored!.credentials,
      ghostKey.adminApiKey,
      ghostKey.adminApiKey.split(':')[1]!,
      refreshStored,
      refreshPlain,
      ap!.webhookSecret!,
      'whsec_',
      user.token,
    ])
      expect(res.text).not.toContain(secret)
    expect(res.text).not.toMatch(/credentials|refreshToken|webhookSecret|passwordHash/)
  })
})

describe('analytics retention (issue 34)', () => {
  it("the worker's prune job deletes page views older than the retention period and keeps recent ones", async () => {
    const tag = `/retention-${crypto.randomBytes(4).toString('hex')}`
    const day = 24 * 3600_000
    const ages = { old: 400, justOld: 397, recent: 10, almost: 395 }
    const rows = await db
      .insert(schema.analyticsEvents)
      .values(
        Object.entries(ages).map(([name, days]) => ({
          type: 'pageview' as const,
          path: `${tag}/${name}`,
          createdAt: new Date(Date.now() - days * day),
        })),
      )
      .returning({ id: schema.analyticsEvents.id, path: schema.analyticsEvents.path })
    expect(rows).toHaveLength(4)
    const remaining = async () =>
      (
        await db
          .select({ path: schema.analyticsEvents.path })
          .from(schema.analyticsEvents)
          .where(sql`${schema.analyticsEvents.path} like ${`${tag}/%`}`)
      )
        .map((r) => r.path.slice(tag.length + 1))
        .sort()
    await addJob(pruneAnalyticsJob, {})
    await waitFor(async () => (await remaining()).length === 2, { timeout: 30_000, interval: 250 })
    expect(await remaining()).toEqual(['almost', 'recent'])
  })

  it('deletes a backlog in batches of a bounded size', async () => {
    const tag = `/retention-batch-${crypto.randomBytes(4).toString('hex')}`
    await db.insert(schema.analyticsEvents).values(
      Array.from({ length: 5 }, (_, i) => ({
        type: 'pageview' as const,
        path: `${tag}/${i}`,
        createdAt: new Date(Date.now() - (400 + i) * 24 * 3600_000),
      })),
    )
    expect(await pruneAnalyticsEvents({ batchSize: 2 })).toMatchObject({ deleted: 5, batches: 3 })
    const [left] = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from ${schema.analyticsEvents} where path like ${`${tag}/%`}`,
    )
    expect(Number(left!.n)).toBe(0)
  })
})
