import { eq } from 'drizzle-orm'
import type { HelpInput, OnboardingInput, ProfileInput } from './account-schemas'
import { billingIntervalOf } from '#app/features/billing/billing'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv } from '#app/platform/env.server'
import { sendMail } from '#app/platform/mail/mail.server'
import { hit } from '#app/platform/security/rate-limit.server'

/** The account's own data: onboarding, profile edits, the API's user document, and help requests. */

type UserRow = typeof schema.users.$inferSelect

const market = (code: string | null, name: string | null) => (code ? { code, name: name ?? '' } : null)

/** Saves the onboarding answers and marks onboarding complete. */
export async function completeOnboarding(userId: string, input: OnboardingInput) {
  await db
    .update(schema.users)
    .set({
      website: input.website,
      marketSegment: input.marketSegment,
      productService: input.productService,
      countryCode: input.country?.code ?? null,
      countryName: input.country?.name ?? null,
      languageCode: input.language?.code ?? null,
      languageName: input.language?.name ?? null,
      onboardingComplete: true,
      updatedAt: new Date(),
    })
    .where(eq(schema.users.id, userId))
}

/** Saves a profile edit; business details that are absent from the input stay as they are. */
export async function updateProfile(userId: string, input: ProfileInput) {
  const [user] = await db
    .update(schema.users)
    .set({
      name: input.name,
      marketSegment: input.marketSegment,
      productService: input.productService,
      ...(input.website !== undefined ? { website: input.website } : {}),
      ...(input.country !== undefined
        ? { countryCode: input.country?.code ?? null, countryName: input.country?.name ?? null }
        : {}),
      ...(input.language !== undefined
        ? { languageCode: input.language?.code ?? null, languageName: input.language?.name ?? null }
        : {}),
      updatedAt: new Date(),
    })
    .where(eq(schema.users.id, userId))
    .returning()
  return user ?? null
}

/** The profile fields of a user, as the profile page and the API show them. */
export function profileFields(user: UserRow) {
  return {
    name: user.name,
    email: user.email,
    marketSegment: user.marketSegment ?? '',
    productService: user.productService ?? '',
    website: user.website ?? '',
    country: market(user.countryCode, user.countryName),
    language: market(user.languageCode, user.languageName),
    onboardingComplete: user.onboardingComplete,
  }
}

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

export const HELP_MESSAGES = {
  sent: 'Thanks! Your question was sent. We’ll respond within 24 hours.',
  failed: 'We could not send your question right now. Please try again in a moment.',
  limited: 'You have sent several questions already. Please wait a little before sending another.',
} as const

/**
 * Stores a help question and e-mails it to SUPPORT_EMAIL with the user's address as reply-to. The row is kept
 * even when the e-mail fails (emailed_at stays empty), so no question is ever lost.
 */
export async function submitHelpRequest(
  user: { id: string; email: string; name: string },
  input: HelpInput,
): Promise<{ ok: true } | { ok: false; status: 429 | 502; message: string }> {
  const limited = await hit(`help:${user.id}`, { limit: 10, windowSeconds: 60 * 60 })
  if (!limited.allowed) return { ok: false, status: 429, message: HELP_MESSAGES.limited }
  const [row] = await db
    .insert(schema.helpRequests)
    .values({ userId: user.id, email: user.email, question: input.question })
    .returning({ id: schema.helpRequests.id })
  try {
    await sendMail({
      to: getEnv().SUPPORT_EMAIL,
      replyTo: user.email,
      subject: `Help request from ${user.email}`,
      text: `${user.name ? `${user.name} <${user.email}>` : user.email} asks:\n\n${input.question}\n\n— Rankwell help request ${row!.id}`,
    })
  } catch (error) {
    console.error('[help] could not e-mail help request', row!.id, error instanceof Error ? error.message : error)
    return { ok: false, status: 502, message: HELP_MESSAGES.failed }
  }
  await db.update(schema.helpRequests).set({ emailedAt: new Date() }).where(eq(schema.helpRequests.id, row!.id))
  return { ok: true }
}
