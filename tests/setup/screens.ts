/**
 * Every screen of the app, for the tests that go over all of them (small screens, axe, HTML validity): the public
 * pages, and the signed-in ones of a user whose account has something on every screen (saved keywords, a post,
 * Auto Pilot with its status and a failed webhook delivery, a tracked keyword with a few days of positions), with
 * names long enough to test wrapping (one unbroken 70-character word).
 */
import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { createTestUser, type TestUser } from '#tests/setup/app'

/** One unbroken word longer than a phone is wide. */
export const LONG_WORD = 'supercalifragilisticexpialidociousunbreakablekeywordwithoutanyspacesatall'

export const PUBLIC_SCREENS = [
  '/',
  '/pricing',
  '/free-tools',
  '/free-keyword-research',
  '/free-blog-title',
  '/free-blog-outline',
  '/free-seo-strategy',
  '/seo-guide-ebook',
  '/developers',
  '/ebook',
  '/blog',
  '/blog/search-intent-for-founders',
  '/signin',
  '/signup',
  '/forgot-password',
  '/reset-password?token=not-a-real-token',
  '/no-such-page',
] as const

export type SeededAccount = { user: TestUser; postId: string; keywordIds: string[]; trackedId: string }

/**
 * The signed-in screens, as paths with placeholders for the seeded account's records (`:post`, `:keyword` (the
 * second saved keyword, which has no post yet), `:tracked`): `screenPath` fills them in. The states with a dialog
 * open are screens of their own.
 */
export const SIGNED_IN_SCREENS = [
  '/keywords',
  '/keywords?dialog=error',
  '/keywords/:keyword/write',
  '/blogposts',
  '/blogposts?delete=:post',
  '/blogpost/:post',
  '/blogpost/:post/edit',
  '/blogpost/:post/links',
  '/blogpost/:post/publish',
  '/rankings',
  '/rankings?keyword=:tracked',
  '/rankings/ai',
  '/calendar',
  '/calendar?view=week',
  '/settings/content',
  '/settings/publishing',
  '/profile',
  '/billing/cancel',
  '/autopilot',
  '/help?redirectTo=%2Fprofile',
  '/how-grow',
  '/blog',
  '/no-such-page',
] as const

/** A signed-in screen's path for a seeded account (`seedAccount`). */
export function screenPath(screen: string, account: SeededAccount) {
  return screen
    .replace(':post', account.postId)
    .replace(':keyword', account.keywordIds[1]!)
    .replace(':tracked', account.trackedId)
}

/**
 * A user with something on every screen: two saved keywords (one a long unbroken word), a finished post written
 * from it, a failed post, Auto Pilot on (in the database only: no schedule, so nothing runs behind the test's back)
 * with a run and a failed webhook delivery, a tracked keyword with a few days of positions, and an active
 * subscription (so that /billing/cancel has a question).
 */
export async function seedAccount(opts: { name?: string } = {}): Promise<SeededAccount> {
  const user = await createTestUser({ name: opts.name ?? LONG_WORD })
  await db
    .update(schema.users)
    .set({ productService: `${LONG_WORD} software`, website: `https://${LONG_WORD}.example.com` })
    .where(eq(schema.users.id, user.id))
  const market = { countryCode: '2840', countryName: 'United States', languageCode: '1000', languageName: 'English' }
  const keywords = await db
    .insert(schema.savedKeywords)
    .values([
      {
        userId: user.id,
        keyword: LONG_WORD,
        ...market,
        avgMonthlySearches: 12_000,
        difficultyScore: 45,
        source: 'google_ads',
      },
      {
        userId: user.id,
        keyword: 'email marketing for saas',
        ...market,
        avgMonthlySearches: 900,
        difficultyScore: 80,
        source: 'ai_estimate',
      },
    ])
    .returning()
  const [post] = await db
    .insert(schema.blogPosts)
    .values({
      userId: user.id,
      keywordId: keywords[0]!.id,
      requestKey: crypto.randomUUID(),
      status: 'completed',
      keyword: LONG_WORD,
      title: `How to rank for ${LONG_WORD}`,
      metaDescription: 'A post about a very long keyword.',
      contentMarkdown: `# How to rank\n\nSome text about ${LONG_WORD}.\n\n| Step | What |\n| --- | --- |\n| 1 | Research |`,
      contentHtml: `<h2>How to rank</h2><p>Some text about ${LONG_WORD}.</p><table><thead><tr><th>Step</th><th>What</th></tr></thead><tbody><tr><td>1</td><td>Research</td></tr></tbody></table>`,
      completedAt: new Date(),
    })
    .returning()
  // A post that failed: its card says why, with a 'Try again' form.
  await db.insert(schema.blogPosts).values({
    userId: user.id,
    requestKey: crypto.randomUUID(),
    status: 'failed',
    keyword: 'churn surveys',
    title: 'Churn surveys that founders answer',
    failureReason: 'The AI service did not answer after several attempts.',
    createdAt: new Date(Date.now() - 86_400_000),
  })
  const now = new Date()
  await db
    .insert(schema.autopilotSettings)
    .values({
      userId: user.id,
      enabled: true,
      webhookUrl: `https://hooks.example.com/${LONG_WORD}`,
      webhookSecret: 'whsec_c2VjcmV0',
    })
    .onConflictDoUpdate({
      target: schema.autopilotSettings.userId,
      set: { enabled: true, webhookUrl: `https://hooks.example.com/${LONG_WORD}`, webhookSecret: 'whsec_c2VjcmV0' },
    })
  // Issue 38: a personal API key with the longest name allowed, so that /profile lists one (used a moment ago).
  await db.insert(schema.apiKeys).values({
    userId: user.id,
    name: LONG_WORD.slice(0, 60),
    prefix: 'rwk_seedKey0',
    secretHash: crypto.randomBytes(32).toString('hex'),
    scopes: ['read', 'write', 'publish'],
    lastUsedAt: now,
    lastUsedIpPrefix: '10.0.0.x',
  })
  await db.insert(schema.autopilotRuns).values({
    userId: user.id,
    slot: `seed-${now.getTime()}`,
    status: 'completed',
    keywordId: keywords[0]!.id,
    postId: post!.id,
  })
  await db.insert(schema.webhookDeliveries).values({
    userId: user.id,
    messageId: `msg_${crypto.randomUUID()}`,
    eventType: 'post.published',
    postId: post!.id,
    url: `https://hooks.example.com/${LONG_WORD}`,
    body: '{}',
    status: 'failed',
    attempts: 3,
    lastStatusCode: 500,
    lastError: `Internal Server Error from ${LONG_WORD}`,
    lastDurationMs: 120,
  })
  const [tracked] = await db
    .insert(schema.trackedKeywords)
    .values({
      userId: user.id,
      keyword: LONG_WORD,
      keywordNorm: LONG_WORD,
      countryCode: market.countryCode,
      countryName: market.countryName,
      languageCode: market.languageCode,
      postId: post!.id,
      savedKeywordId: keywords[0]!.id,
    })
    .returning()
  // Three days of positions, so that the rankings chart and the post's chart have a line to draw.
  const day = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString().slice(0, 10)
  await db.insert(schema.keywordPositions).values([
    { trackedKeywordId: tracked!.id, day: day(2), status: 'not_ranked' as const, position: null },
    { trackedKeywordId: tracked!.id, day: day(1), status: 'ranked' as const, position: 14 },
    { trackedKeywordId: tracked!.id, day: day(0), status: 'ranked' as const, position: 9 },
  ])
  const periodEnd = new Date(now.getTime() + 30 * 86_400_000)
  await db
    .update(schema.subscriptions)
    .set({
      status: 'active',
      plan: 'monthly',
      amountCents: 4900,
      currency: 'usd',
      interval: 'month',
      intervalCount: 1,
      currentPeriodStart: now,
      currentPeriodEnd: periodEnd,
      stripeCustomerId: `cus_${crypto.randomBytes(6).toString('hex')}`,
      stripeSubscriptionId: `sub_${crypto.randomBytes(6).toString('hex')}`,
    })
    .where(eq(schema.subscriptions.userId, user.id))
  return { user, postId: post!.id, keywordIds: keywords.map((k) => k.id), trackedId: tracked!.id }
}
