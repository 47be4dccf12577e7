import type { ProcessorContext } from '#app/platform/queue/processor'
import { sendPasswordResetEmail } from '../account-security.server'
import type { PasswordResetMailJob } from './account-mail.server'

/**
 * Mails a reset link when the address has an account (nothing otherwise). A failed send throws, so the job is tried
 * again; a retry does not count against the account's limit a second time.
 */
export async function processPasswordResetMail(data: PasswordResetMailJob, ctx: ProcessorContext) {
  const outcome = await sendPasswordResetEmail(data.email, { retry: ctx.job.attemptsMade > 0 })
  ctx.log('password reset mail', { outcome })
  return { outcome }
}
