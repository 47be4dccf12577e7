import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { LIMITS, QUOTA_MESSAGES } from '#app/features/billing/plans'
import { db, schema } from '#app/platform/db/client.server'
import { consumeQuota, getUsageSummary, refundQuota } from '#app/features/billing/quota.server'
import { fakeControl, stripeControl } from '#tests/fakes/client'
import { api, createTestUser, type TestUser } from '#tests/setup/app'

/**
 * Premium allowances are monthly on every plan: the usage window is one month from usage_period_start (anchored on
 * the billing period's start) and rolls over inside consumeQuota's single UPDATE.
 */

const stripeFake = stripeControl()
const DAY = 86_400_000

type Row = typeof schema.subscriptions.$inferSelect

async function row(userId: string): Promise<Row> {
  const [r] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId))
  return r!
}

/** `date` + n calendar months in UTC, clamped to the month's last day (Jan 31 + 1 month = Feb 28/29), like Postgres. */
function addUtcMonths(date: Date, n: number) {
  const y = date.getUTCFullYear()
  const m = date.getUTCMonth() + n
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  return new Date(
    Date.UTC(
      y,
      m,
      Math.min(date.getUTCDate(), lastDay),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds(),
    ),
  )
}

/** Whole months from `anchor` to now: the largest n with anchor + n months <= now. */
function wholeMonthsSince(anchor: Date) {
  let n = 0
  while (addUtcMonths(anchor, n + 1).getTime() <= Date.now()) n++
  return n
}

/** A Premium subscriber through Checkout on the fake Stripe (the webhook sets status, plan and period). */
async function subscriber(priceId: 'price_monthly' | 'price_yearly') {
  const user = await createTestUser()
  const res = await api('/api/create-checkout-session', { method: 'POST', json: { priceId }, as: user })
  expect(res.status).toBe(200)
  await stripeFake.completeCheckout(String(res.body.sessionId))
  expect(await row(user.id)).toMatchObject({
    status: 'active',
    plan: priceId === 'price_yearly' ? 'yearly' : 'monthly',
  })
  return user
}

/** Moves the billing period and the usage window back in time (as if the subscription started at `start`). */
async function startedAt(
  userId: string,
  start: Date,
  usage: { keywordSearchCount?: number; blogPostCount?: number; usagePeriodStart?: Date } = {},
) {
  await db
    .update(schema.subscriptions)
    .set({
      currentPeriodStart: start,
      usagePeriodStart: usage.usagePeriodStart ?? start,
      keywordSearchCount: usage.keywordSearchCount ?? 0,
      blogPostCount: usage.blogPostCount ?? 0,
    })
    .where(eq(schema.subscriptions.userId, userId))
}

function monthsAndADayAgo(months: number) {
  return new Date(addUtcMonths(new Date(), -months).getTime() - DAY)
}

const market = { countryCode: '2840', languageCode: '1000', countryName: 'United States', languageName: 'English' }

function uniqueQuery() {
  return `quota rollover ${crypto
    .randomBytes(6)
    .toString('hex')
    .replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]!)}`
}

function search(user: TestUser, query = uniqueQuery()) {
  return api('/api/search', { method: 'POST', json: { query, ...market }, as: user })
}

describe('quota', () => {
  it('lets a yearly subscriber at the limit search again a month and a day later; the window moves by exactly one month', async () => {
    const user = await subscriber('price_yearly')
    const start = monthsAndADayAgo(1)
    await startedAt(user.id, start, {
      keywordSearchCount: LIMITS.premium.keywordSearches,
      blogPostCount: LIMITS.premium.blogPosts,
    })

    const res = await search(user)
    expect(res.status).toBe(200)
    const after = await row(user.id)
    expect(after.usagePeriodStart.toISOString()).toBe(addUtcMonths(start, 1).toISOString())
    expect(after).toMatchObject({ keywordSearchCount: 1, blogPostCount: 0, status: 'active', plan: 'yearly' })
    // The billing period is untouched: the yearly plan still renews a year after it started.
    expect(after.currentPeriodStart!.toISOString()).toBe(start.toISOString())
    expect(await consumeQuota(user.id, 'blogPosts')).toMatchObject({ ok: true, used: 1 })
    expect((await row(user.id)).usagePeriodStart.toISOString()).toBe(addUtcMonths(start, 1).toISOString())
    const summary = await getUsageSummary(user.id)
    expect(summary).toMatchObject({
      keywordSearchCount: 1,
      blogPostCount: 1,
      reachedQuota: false,
      usageResetsAt: addUtcMonths(start, 2).toISOString(),
    })
  })

  it('advances by two whole months after two months and a day, keeping the anniversary', async () => {
    const user = await subscriber('price_yearly')
    const start = monthsAndADayAgo(2)
    await startedAt(user.id, start, { keywordSearchCount: 37, blogPostCount: LIMITS.premium.blogPosts })
    const taken = await consumeQuota(user.id, 'blogPosts')
    expect(taken).toEqual({ ok: true, used: 1, windowStart: addUtcMonths(start, 2) })
    expect(await row(user.id)).toMatchObject({
      keywordSearchCount: 0,
      blogPostCount: 1,
      usagePeriodStart: addUtcMonths(start, 2),
    })
  })

  it('anchors on the billing period start, so a month-end anniversary does not drift (Jan 31 → Feb 29 → Mar 31)', async () => {
    const user = await subscriber('price_yearly')
    // The most recent 31st, 3 to 12 months ago, that is followed by a shorter month: the window after it is clamped.
    const now = new Date()
    let anchor: Date | null = null
    for (let k = 3; k <= 12 && !anchor; k++) {
      const candidate = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - k, 31, 9, 30))
      const next = addUtcMonths(candidate, 1)
      if (candidate.getUTCDate() === 31 && next.getUTCDate() < 31) anchor = candidate
    }
    expect(anchor).not.toBeNull()
    const clamped = addUtcMonths(anchor!, 1) // e.g. Feb 29: the window a previous rollover left behind
    await startedAt(user.id, anchor!, { usagePeriodStart: clamped, keywordSearchCount: LIMITS.premium.keywordSearches })
    const n = wholeMonthsSince(anchor!)
    expect(n).toBeGreaterThanOrEqual(2)
    expect((await consumeQuota(user.id, 'keywordSearches')).ok).toBe(true)
    const expected = addUtcMonths(anchor!, n)
    expect((await row(user.id)).usagePeriodStart.toISOString()).toBe(expected.toISOString())
    // Counted from the clamped day instead, the window would start on the 28th-30th.
    expect(expected.getUTCDate()).toBe(
      Math.min(31, new Date(Date.UTC(expected.getUTCFullYear(), expected.getUTCMonth() + 1, 0)).getUTCDate()),
    )
  })

  it('rolls over once under a concurrent burst and never passes the limit', async () => {
    // 20 consumes at once right after the month ended, at the old month's limit: one rollover, 20 units.
    const a = await subscriber('price_yearly')
    const startA = monthsAndADayAgo(1)
    await startedAt(a.id, startA, { keywordSearchCount: LIMITS.premium.keywordSearches - 1, blogPostCount: 3 })
    const burst = await Promise.all(Array.from({ length: 20 }, () => consumeQuota(a.id, 'keywordSearches')))
    expect(burst.every((r) => r.ok)).toBe(true)
    expect(burst.map((r) => (r.ok ? r.used : 0)).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    )
    expect(await row(a.id)).toMatchObject({
      keywordSearchCount: 20,
      blogPostCount: 0,
      usagePeriodStart: addUtcMonths(startA, 1),
    })

    // More concurrent posts than the monthly limit, right at the rollover: exactly the limit succeeds.
    const b = await subscriber('price_yearly')
    const startB = monthsAndADayAgo(1)
    await startedAt(b.id, startB, { keywordSearchCount: 12, blogPostCount: LIMITS.premium.blogPosts - 2 })
    const many = await Promise.all(
      Array.from({ length: LIMITS.premium.blogPosts + 20 }, () => consumeQuota(b.id, 'blogPosts')),
    )
    expect(many.filter((r) => r.ok)).toHaveLength(LIMITS.premium.blogPosts)
    expect(await row(b.id)).toMatchObject({
      blogPostCount: LIMITS.premium.blogPosts,
      keywordSearchCount: 0,
      usagePeriodStart: addUtcMonths(startB, 1),
    })
    expect(await consumeQuota(b.id, 'blogPosts')).toEqual({ ok: false })
  })

  it('shows 0 used after the month ended, before any consume, with the date the allowance renews', async () => {
    const user = await subscriber('price_yearly')
    const start = monthsAndADayAgo(1)
    await startedAt(user.id, start, { keywordSearchCount: LIMITS.premium.keywordSearches, blogPostCount: 40 })
    const summary = await getUsageSummary(user.id)
    expect(summary).toMatchObject({
      status: 'active',
      plan: 'yearly',
      keywordSearchCount: 0,
      blogPostCount: 0,
      reachedQuota: false,
      limits: LIMITS.premium,
      usageResetsAt: addUtcMonths(start, 2).toISOString(),
    })
    expect(summary.renewalDate).toBe((await row(user.id)).currentPeriodEnd!.toISOString())
    // Reading changes nothing.
    expect(await row(user.id)).toMatchObject({
      keywordSearchCount: LIMITS.premium.keywordSearches,
      usagePeriodStart: start,
    })

    const profile = await api('/profile', { as: user, auth: 'cookie' })
    expect(profile.status).toBe(200)
    expect(profile.text).toContain('Your allowance renews monthly: usage resets on')
  })

  it('keeps the monthly limit inside the month, and keeps trials and canceled subscriptions as they are', async () => {
    // Premium, 20 days into a month that has not ended: at the limit, refused.
    const monthly = await subscriber('price_monthly')
    const start = new Date(Date.now() - 20 * DAY)
    await startedAt(monthly.id, start, { keywordSearchCount: LIMITS.premium.keywordSearches })
    expect(await consumeQuota(monthly.id, 'keywordSearches')).toEqual({ ok: false })
    expect(await getUsageSummary(monthly.id)).toMatchObject({
      keywordSearchCount: 500,
      reachedQuota: true,
      usageResetsAt: addUtcMonths(start, 1).toISOString(),
    })
    expect((await consumeQuota(monthly.id, 'blogPosts')).ok).toBe(true)
    expect((await row(monthly.id)).usagePeriodStart.toISOString()).toBe(start.toISOString())

    // Trial: 10 searches in total, however long ago the window started.
    const trial = await createTestUser()
    await db
      .update(schema.subscriptions)
      .set({ usagePeriodStart: monthsAndADayAgo(2), keywordSearchCount: LIMITS.trial.keywordSearches })
      .where(eq(schema.subscriptions.userId, trial.id))
    expect(await consumeQuota(trial.id, 'keywordSearches')).toEqual({ ok: false })
    expect(await getUsageSummary(trial.id)).toMatchObject({
      status: 'trial',
      keywordSearchCount: 10,
      reachedQuota: true,
      usageResetsAt: null,
    })
    const refused = await search(trial)
    expect(refused.status).toBe(402)
    expect(refused.body).toMatchObject({ redirect_to_profile: true, message: QUOTA_MESSAGES.keywordSearches })

    // Canceled: nothing rolls over and nothing is allowed.
    const canceled = await subscriber('price_yearly')
    await startedAt(canceled.id, monthsAndADayAgo(1), { keywordSearchCount: 7 })
    await db
      .update(schema.subscriptions)
      .set({ status: 'canceled' })
      .where(eq(schema.subscriptions.userId, canceled.id))
    expect(await consumeQuota(canceled.id, 'keywordSearches')).toEqual({ ok: false })
    expect(await getUsageSummary(canceled.id)).toMatchObject({
      keywordSearchCount: 7,
      reachedQuota: true,
      usageResetsAt: null,
    })
  })

  it('gives units back only to the window they were taken from, never below zero', async () => {
    const user = await subscriber('price_yearly')
    const start = monthsAndADayAgo(1)
    await startedAt(user.id, start, { keywordSearchCount: 5 })
    // The month has ended but nothing rolled it yet: a late refund of the old month changes nothing.
    await refundQuota(user.id, 'keywordSearches')
    expect(await row(user.id)).toMatchObject({ keywordSearchCount: 5, usagePeriodStart: start })

    const taken = await consumeQuota(user.id, 'keywordSearches')
    expect(taken).toMatchObject({ ok: true, used: 1 })
    await consumeQuota(user.id, 'keywordSearches')
    await refundQuota(user.id, 'keywordSearches', db, taken.ok ? taken : undefined)
    expect((await row(user.id)).keywordSearchCount).toBe(1)
    // A unit taken in the previous window is not given back to this one.
    await refundQuota(user.id, 'keywordSearches', db, { windowStart: start })
    expect((await row(user.id)).keywordSearchCount).toBe(1)
    await refundQuota(user.id, 'keywordSearches')
    await refundQuota(user.id, 'keywordSearches')
    expect((await row(user.id)).keywordSearchCount).toBe(0)

    // Through the API, right after the rollover of a month used up: the search is allowed; a provider error charges
    // nothing (a search is charged with its saved rows), so the new month still reads 0 used; the next search
    // rolls the row over and is charged in the new window.
    const again = monthsAndADayAgo(1)
    await startedAt(user.id, again, { keywordSearchCount: LIMITS.premium.keywordSearches })
    const query = uniqueQuery()
    await fakeControl('dataforseo').enqueue({ status: 500, path: 'keyword_ideas', bodyIncludes: query, times: 3 })
    const failed = await search(user, query)
    expect(failed.status).toBe(502)
    expect(await row(user.id)).toMatchObject({
      keywordSearchCount: LIMITS.premium.keywordSearches,
      usagePeriodStart: again,
    })
    expect((await getUsageSummary(user.id)).keywordSearchCount).toBe(0)
    const next = await search(user, uniqueQuery())
    expect(next.status).toBe(200)
    expect(await row(user.id)).toMatchObject({ keywordSearchCount: 1, usagePeriodStart: addUtcMonths(again, 1) })
  })
})
