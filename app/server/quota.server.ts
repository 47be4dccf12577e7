import { eq, sql } from 'drizzle-orm'
import { LIMITS, limitsFor, type QuotaKind } from '#app/lib/plans'
import { db, schema, type Db } from './db.server'

/** `db` or a transaction, so a quota unit can be taken or given back in the same transaction as other writes. */
type Executor = Pick<Db, 'update'>

const column = {
  keywordSearches: schema.subscriptions.keywordSearchCount,
  blogPosts: schema.subscriptions.blogPostCount,
} as const

/**
 * Takes one unit of a quota, atomically: the check and the count are one UPDATE, so concurrent requests can never
 * exceed the limit. Trial: within the trial window and under the trial limit. Active (and past_due, while Stripe
 * retries the payment): under the Premium limit for the current billing period. Canceled: nothing.
 */
export async function consumeQuota(
  userId: string,
  kind: QuotaKind,
  executor: Executor = db,
): Promise<{ ok: true; used: number } | { ok: false }> {
  const col = column[kind]
  const rows = await executor
    .update(schema.subscriptions)
    .set({ [kind === 'keywordSearches' ? 'keywordSearchCount' : 'blogPostCount']: sql`${col} + 1`, updatedAt: new Date() })
    .where(
      sql`${schema.subscriptions.userId} = ${userId} and (
        (${schema.subscriptions.status} = 'trial' and ${schema.subscriptions.trialEndsAt} > now() and ${col} < ${LIMITS.trial[kind]})
        or (${schema.subscriptions.status} in ('active', 'past_due') and ${col} < ${LIMITS.premium[kind]})
      )`,
    )
    .returning({ used: col })
  const row = rows[0]
  return row ? { ok: true, used: row.used } : { ok: false }
}

/** Gives a unit back (a failed generation, a provider error). Never goes below zero. */
export async function refundQuota(userId: string, kind: QuotaKind, executor: Executor = db) {
  const col = column[kind]
  await executor
    .update(schema.subscriptions)
    .set({ [kind === 'keywordSearches' ? 'keywordSearchCount' : 'blogPostCount']: sql`greatest(${col} - 1, 0)` })
    .where(eq(schema.subscriptions.userId, userId))
}

export type UsageSummary = Awaited<ReturnType<typeof getUsageSummary>>

/** Plan, status and usage of a user, as the profile and the API show them. */
export async function getUsageSummary(userId: string) {
  const [sub] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId)).limit(1)
  if (!sub) throw new Error(`no subscription row for user ${userId}`)
  const limits = limitsFor(sub.status)
  const trialActive = sub.status === 'trial' && sub.trialEndsAt.getTime() > Date.now()
  const canUse = trialActive || sub.status === 'active' || sub.status === 'past_due'
  return {
    status: sub.status,
    plan: sub.plan,
    trialEndsAt: sub.trialEndsAt.toISOString(),
    trialExpired: sub.status === 'trial' && !trialActive,
    keywordSearchCount: sub.keywordSearchCount,
    blogPostCount: sub.blogPostCount,
    limits,
    reachedQuota:
      !canUse || sub.keywordSearchCount >= limits.keywordSearches || sub.blogPostCount >= limits.blogPosts,
    amountCents: sub.amountCents,
    currency: sub.currency,
    interval: sub.interval,
    intervalCount: sub.intervalCount,
    renewalDate: sub.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    stripeCustomerId: sub.stripeCustomerId,
  }
}
