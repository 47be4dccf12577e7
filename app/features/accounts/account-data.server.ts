import { eq } from 'drizzle-orm'
import { ACCOUNT_MESSAGES } from './account-schemas'
import { endSessions } from './account-security.server'
import { db, schema } from '#app/platform/db/client.server'
import { sendMail } from '#app/platform/mail/mail.server'
import { verifyPassword } from '#app/platform/security/password.server'
import { hit } from '#app/platform/security/rate-limit.server'

/**
 * 'Download my data' and 'Delete account' (issue 13). The export holds what the account owns, never a secret
 * (password hash, webhook secret, CMS credentials, session ids).
 */
type UserRow = typeof schema.users.$inferSelect

export async function exportAccount(user: UserRow) {
  const { passwordHash: _p, googleSub: _g, ...account } = user
  const [subscription, keywords, posts, settings, deliveries, sessions] = await Promise.all([
    db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, user.id)),
    db.select().from(schema.savedKeywords).where(eq(schema.savedKeywords.userId, user.id)),
    db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id)),
    db.select().from(schema.autopilotSettings).where(eq(schema.autopilotSettings.userId, user.id)),
    db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.userId, user.id)),
    db
      .select({
        kind: schema.sessions.kind,
        userAgent: schema.sessions.userAgent,
        ipPrefix: schema.sessions.ipPrefix,
        createdAt: schema.sessions.createdAt,
        lastUsedAt: schema.sessions.lastUsedAt,
      })
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, user.id)),
  ])
  const autopilot = settings.map((s) => {
    const copy: Record<string, unknown> = { ...s }
    for (const key of Object.keys(copy)) if (/secret|password|credential|token|apikey/i.test(key)) delete copy[key]
    return copy
  })
  return {
    exportedAt: new Date().toISOString(),
    account: { ...account, googleLinked: Boolean(user.googleSub), hasPassword: Boolean(user.passwordHash) },
    subscription: subscription[0] ?? null,
    keywords,
    posts,
    autopilot: { settings: autopilot[0] ?? null, deliveries },
    sessions,
  }
}

export type DeleteResult = { ok: true } | { ok: false; status: 400 | 429 | 502; message: string; field?: 'password' }

/** How recent a Google-only account's sign-in must be to delete it without a password (its re-authentication). */
export const REAUTH_WINDOW_MS = 10 * 60 * 1000

/**
 * What other capabilities must do before an account's rows go, given by the caller (the route), since accounts sit
 * below them: `cancelSubscription` cancels a Stripe subscription at once and throws when Stripe does not answer;
 * `revokeSearchConsole` revokes the Search Console grant at Google and never throws (a failure must not keep the
 * account: its tokens go with the rows anyway).
 */
export type AccountClosing = {
  cancelSubscription: (userId: string) => Promise<unknown>
  revokeSearchConsole: (userId: string) => Promise<unknown>
}

/**
 * Deletes the account: the password (or, for an account without one, a Google sign-in in the last ten minutes),
 * then the Stripe subscription is cancelled at once, the Search Console grant is revoked at Google (best effort), the
 * rows go (every table cascades from users), and a confirmation e-mail is sent.
 */
export async function deleteAccount(
  user: UserRow,
  session: { createdAt: Date } | null,
  input: { password?: string },
  closing: AccountClosing,
): Promise<DeleteResult> {
  const limited = await hit(`delete-account:${user.id}`, { limit: 10, windowSeconds: 15 * 60 })
  if (!limited.allowed) return { ok: false, status: 429, message: 'Too many attempts. Please wait a few minutes.' }
  if (user.passwordHash) {
    if (!input.password || !(await verifyPassword(user.passwordHash, input.password)))
      return { ok: false, status: 400, message: ACCOUNT_MESSAGES.wrongPassword, field: 'password' }
  } else if (!session || Date.now() - session.createdAt.getTime() > REAUTH_WINDOW_MS) {
    return {
      ok: false,
      status: 400,
      message: 'For your security, sign out and sign in with Google again, then delete the account within 10 minutes.',
    }
  }
  try {
    await closing.cancelSubscription(user.id)
  } catch (error) {
    return { ok: false, status: 502, message: error instanceof Error ? error.message : 'Stripe did not answer.' }
  }
  await closing.revokeSearchConsole(user.id).catch((error: unknown) => {
    console.error('[accounts] revoking Search Console failed', error instanceof Error ? error.message : error)
  })
  await endSessions(user.id)
  await db.delete(schema.users).where(eq(schema.users.id, user.id))
  try {
    await sendMail({
      to: user.email,
      subject: 'Your Rankwell account has been deleted',
      text: `Hi ${user.name || 'there'},\n\nYour Rankwell account and its data (keywords, posts, Auto Pilot settings) have been deleted, and any subscription was cancelled. If you did not ask for this, reply to this e-mail.\n\n— Rankwell`,
      html: `<p>Hi ${escapeHtml(user.name || 'there')},</p><p>Your Rankwell account and its data (keywords, posts, Auto Pilot settings) have been deleted, and any subscription was cancelled. If you did not ask for this, reply to this e-mail.</p><p>— Rankwell</p>`,
    })
  } catch (error) {
    console.error('[accounts] deletion e-mail failed', error instanceof Error ? error.message : error)
  }
  return { ok: true }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
