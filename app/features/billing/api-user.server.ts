import { eq } from 'drizzle-orm'
import { billingIntervalOf } from './billing'
import { profileFields } from '#app/features/accounts/profile.server'
import { db, schema } from '#app/platform/db/client.server'

type UserRow = typeof schema.users.$inferSelect

/** GET /api/user: the user fields of the spec (section 3), read from users, subscriptions and autopilot_settings. */
export async function apiUser(user: UserRow) {
  const [[sub], [autopilot]] = await Promise.all([
    db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, user.id)).limit(1),
    db.select().from(schema.autopilotSettings).where(eq(schema.autopilotSettings.userId, user.id)).limit(1),
  ])
  return {
    id: user.id,
    ...profileFields(user),
    subscriptionStatus: sub?.status ?? 'trial',
    keywordSearchCount: sub?.keywordSearchCount ?? 0,
    blogPostCount: sub?.blogPostCount ?? 0,
    subscriptionAmount: sub?.amountCents != null ? sub.amountCents / 100 : null,
    /** The period `subscriptionAmount` is billed for (issue 19): {interval: 'month', intervalCount: 3, label: 'every 3 months'}. */
    billingInterval: billingIntervalOf(sub?.amountCents != null ? sub.interval : null, sub?.intervalCount),
    subscriptionRenewalDate: sub?.currentPeriodEnd?.toISOString() ?? null,
    autoPilotEnabled: autopilot?.enabled ?? false,
    webhookUrl: autopilot?.webhookUrl ?? null,
  }
}
