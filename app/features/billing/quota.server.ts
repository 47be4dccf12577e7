import { eq, sql } from 'drizzle-orm'
import { quotaMessage } from './billing'
import { LIMITS, limitsFor, type QuotaKind } from './plans'
import { db, preparedQuery, schema, type Db } from '#app/platform/db/client.server'
import { recordQuotaRefusal } from '#app/platform/observability/metrics.server'

/** `db` or a transaction, so a quota unit can be taken or given back in the same transaction as other writes. */
type Executor = Pick<Db, 'update'>

const subs = schema.subscriptions

const column = {
  keywordSearches: subs.keywordSearchCount,
  blogPosts: subs.blogPostCount,
} as const

// ---------------------------------------------------------------------------------------------------------------
// The monthly usage window of Premium, as SQL over the row's own columns (so that it is re-evaluated on the row
// version a concurrent UPDATE left behind). Windows start on the anchor + whole months: the anchor is the billing
// period's start (Stripe's renewal date) when the usage window is inside it, else usage_period_start itself. Months
// are counted on the UTC calendar from the anchor, so a Jan 31 anchor gives Feb 29, Mar 31, Apr 30 (no drift).
// ---------------------------------------------------------------------------------------------------------------

/** The anchor, as a UTC wall-clock timestamp. */
const anchor = sql`((case when ${subs.currentPeriodStart} is not null and ${subs.currentPeriodStart} <= ${subs.usagePeriodStart} then ${subs.currentPeriodStart} else ${subs.usagePeriodStart} end) at time zone 'UTC')`
const nowUtc = sql`(now() at time zone 'UTC')`
/** Calendar months from the anchor's month to this month. */
const calendarMonths = sql`((extract(year from ${nowUtc}) - extract(year from ${anchor})) * 12 + extract(month from ${nowUtc}) - extract(month from ${anchor}))::int`
/** Whole months since the anchor: the largest n with anchor + n months <= now. */
const wholeMonths = sql`(case when ${anchor} + make_interval(months => ${calendarMonths}) <= ${nowUtc} then ${calendarMonths} else ${calendarMonths} - 1 end)`
/** Start of the monthly window that contains now(). */
const windowStart = sql`((${anchor} + make_interval(months => ${wholeMonths})) at time zone 'UTC')`
/** End of that window: when the allowance renews next. */
const windowEnd = sql`((${anchor} + make_interval(months => ${wholeMonths} + 1)) at time zone 'UTC')`
/** Premium whose stored usage belongs to a window that has ended: the counts start again at 0. */
const rolled = sql`(${subs.status} in ('active', 'past_due') and ${windowStart} > ${subs.usagePeriodStart})`

/** A count as it stands in the window that contains now(): 0 once the stored window has ended. */
const inWindow = (c: (typeof column)[QuotaKind]) => sql`(case when ${rolled} then 0 else ${c} end)`

/** The row has room for `units` more of `kind`: a live trial under its limit, or Premium under this month's. */
function withinQuota(kind: QuotaKind, units: number) {
  const col = column[kind]
  return sql`(
    (${subs.status} = 'trial' and ${subs.trialEndsAt} > now() and ${col} + ${units} <= ${LIMITS.trial[kind]})
    or (${subs.status} in ('active', 'past_due') and ${inWindow(col)} + ${units} <= ${LIMITS.premium[kind]})
  )`
}

/**
 * Whether a unit could be taken now, without taking it: a read that lets an expensive call (a provider's) be
 * skipped for a user over the limit. Not a reservation: consumeQuota still decides, atomically.
 */
export async function quotaAvailable(userId: string, kind: QuotaKind): Promise<boolean> {
  const rows = await db
    .select({ userId: subs.userId })
    .from(subs)
    .where(sql`${subs.userId} = ${userId} and ${withinQuota(kind, 1)}`)
    .limit(1)
  if (rows.length === 0) recordQuotaRefusal(kind)
  return rows.length > 0
}

/**
 * Takes one unit of a quota, atomically: the check and the count are one UPDATE, so concurrent requests can never
 * exceed the limit. Trial: within the trial window and under the trial limit (10/5 in total). Active (and
 * past_due, while Stripe retries the payment): under the Premium limit of the current month. When a month has
 * passed since usage_period_start, the same statement rolls the row over to the month that contains now()
 * (usage_period_start advanced by whole months, both counts from 0), so a concurrent request sees the rolled row
 * and can neither roll it again nor go over the limit. `units` takes several at once (all or none: a bulk action).
 */
export async function consumeQuota(
  userId: string,
  kind: QuotaKind,
  executor: Executor = db,
  units = 1,
): Promise<{ ok: true; used: number; windowStart: Date } | { ok: false }> {
  if (!Number.isInteger(units) || units < 1) throw new Error(`consumeQuota: units must be a positive integer`)
  const col = column[kind]
  const rows = await executor
    .update(subs)
    .set({
      keywordSearchCount: sql`${inWindow(subs.keywordSearchCount)} + ${kind === 'keywordSearches' ? units : 0}`,
      blogPostCount: sql`${inWindow(subs.blogPostCount)} + ${kind === 'blogPosts' ? units : 0}`,
      usagePeriodStart: sql`(case when ${rolled} then ${windowStart} else ${subs.usagePeriodStart} end)`,
      updatedAt: new Date(),
    })
    .where(sql`${subs.userId} = ${userId} and ${withinQuota(kind, units)}`)
    .returning({ used: col, windowStart: subs.usagePeriodStart })
  const row = rows[0]
  if (!row) recordQuotaRefusal(kind)
  return row ? { ok: true, used: row.used, windowStart: row.windowStart } : { ok: false }
}

/**
 * Gives a unit back (a failed generation, a provider error). Never goes below zero, and never into a later
 * window: a row whose window has ended is left alone (its next consume starts from 0 anyway), and with
 * `windowStart` (from consumeQuota) nothing is given back once the row has moved on to another window.
 */
export async function refundQuota(
  userId: string,
  kind: QuotaKind,
  executor: Executor = db,
  taken?: { windowStart: Date },
) {
  const col = column[kind]
  const sameWindow = taken
    ? sql`and date_trunc('milliseconds', ${subs.usagePeriodStart}) = ${taken.windowStart.toISOString()}::timestamptz`
    : sql``
  await executor
    .update(subs)
    .set({ [kind === 'keywordSearches' ? 'keywordSearchCount' : 'blogPostCount']: sql`greatest(${col} - 1, 0)` })
    .where(sql`${subs.userId} = ${userId} and not ${rolled} ${sameWindow}`)
}

export type UsageSummary = ReturnType<typeof toUsageSummary>

/** The columns a usage summary is made from (`toUsageSummary`), for a statement that reads more at once (/profile). */
export const usageSummaryColumns = {
  sub: subs,
  rolled: sql<boolean>`${rolled}`,
  resetsAt: sql`${windowEnd}`.mapWith(subs.usagePeriodStart),
}

const usageSummaryQuery = preparedQuery((d) =>
  d
    .select(usageSummaryColumns)
    .from(subs)
    .where(eq(subs.userId, sql.placeholder('userId')))
    .limit(1)
    .prepare('usage_summary'),
)

/**
 * Plan, status and usage of a user, as the profile and the API show them. Premium usage is that of the current
 * month: after a month without a consume it already reads 0 (the row rolls over on the next consume).
 * `usageResetsAt` is when the Premium allowance renews (null for trials and canceled subscriptions).
 */
export async function getUsageSummary(userId: string) {
  const [found] = await usageSummaryQuery().execute({ userId })
  if (!found) throw new Error(`no subscription row for user ${userId}`)
  return toUsageSummary(found)
}

/** A usage summary from its columns (`usageSummaryColumns`) as any statement read them. */
export function toUsageSummary(found: { sub: typeof subs.$inferSelect; rolled: boolean; resetsAt: Date }) {
  const { sub } = found
  const limits = limitsFor(sub.status)
  const premium = sub.status === 'active' || sub.status === 'past_due'
  const trialActive = sub.status === 'trial' && sub.trialEndsAt.getTime() > Date.now()
  const canUse = trialActive || premium
  const keywordSearchCount = found.rolled ? 0 : sub.keywordSearchCount
  const blogPostCount = found.rolled ? 0 : sub.blogPostCount
  return {
    status: sub.status,
    plan: sub.plan,
    trialEndsAt: sub.trialEndsAt.toISOString(),
    trialExpired: sub.status === 'trial' && !trialActive,
    keywordSearchCount,
    blogPostCount,
    limits,
    reachedQuota: !canUse || keywordSearchCount >= limits.keywordSearches || blogPostCount >= limits.blogPosts,
    usageResetsAt: premium ? found.resetsAt.toISOString() : null,
    amountCents: sub.amountCents,
    currency: sub.currency,
    interval: sub.interval,
    intervalCount: sub.intervalCount,
    renewalDate: sub.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    endedReason: sub.endedReason,
    stripeCustomerId: sub.stripeCustomerId,
  }
}

/**
 * What a refused request tells the user (the API's 402 message, the keyword dialog, the post toast): the message
 * that fits their plan, and whether 'Upgrade Now' makes sense (not for a Premium user at the monthly allowance).
 */
export async function quotaRefusal(userId: string, kind: QuotaKind): Promise<{ message: string; upgrade: boolean }> {
  const summary = await getUsageSummary(userId)
  return {
    message: quotaMessage(kind, summary),
    upgrade: summary.status !== 'active' && summary.status !== 'past_due',
  }
}
