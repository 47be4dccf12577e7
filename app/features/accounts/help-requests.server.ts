import { eq } from 'drizzle-orm'
import type { HelpInput } from './account-schemas'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv } from '#app/platform/env.server'
import { sendMail } from '#app/platform/mail/mail.server'
import { hit } from '#app/platform/security/rate-limit.server'

/** Help requests: the Help question (modal or /help page), stored and e-mailed to SUPPORT_EMAIL. */

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
