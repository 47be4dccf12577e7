import { z } from 'zod'
import { addJob, defineJob, QUEUES } from '#app/platform/queue/queues.server'

/**
 * Account e-mails sent by the worker (on the 'system' queue). 'Forgot password' only queues its job: whether the
 * address has an account is found out here, out of the request, so the answer takes the same time for any address
 * (issue 34, decision 0342).
 */
export const passwordResetMailJob = defineJob(
  QUEUES.system,
  'password-reset-mail',
  z.object({ email: z.string().min(1).max(320) }),
)
export type PasswordResetMailJob = z.infer<typeof passwordResetMailJob.schema>

export async function enqueuePasswordResetMail(data: PasswordResetMailJob) {
  return addJob(passwordResetMailJob, data, {
    attempts: 3,
    backoff: { type: 'exponential', delay: 5_000 },
    // The address is personal data: gone from Redis once sent, and a day after a last failure.
    removeOnComplete: true,
    removeOnFail: { age: 24 * 3600 },
  })
}
