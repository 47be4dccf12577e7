import { z } from 'zod'
import { addJob, defineJob, jobId, queue, QUEUES } from '#app/platform/queue/queues.server'

/**
 * The 'autopilot' queue: one job scheduler per user making 'run' jobs on the user's cadence (it lives in Redis, so
 * it survives restarts), and 'publish-post' jobs that send a finished Auto Pilot post to the user's webhook.
 */
export const autopilotRunJob = defineJob(
  QUEUES.autopilot,
  'run',
  z.object({ userId: z.string().uuid(), slot: z.string().optional() }),
)
export type AutopilotRunJob = z.infer<typeof autopilotRunJob.schema>

export const autopilotPublishJob = defineJob(QUEUES.autopilot, 'publish-post', z.object({ postId: z.string().uuid() }))
export type AutopilotPublishJob = z.infer<typeof autopilotPublishJob.schema>

/** One job scheduler per user (no ':' in ids). */
export const autopilotSchedulerId = (userId: string) => `autopilot-${userId}`

/** Creates or updates the user's scheduler: a run every `everyMs`, the first one at `startDate` (epoch ms). */
export async function scheduleAutopilot(userId: string, timing: { everyMs: number; startDate: number }) {
  const data = autopilotRunJob.schema.parse({ userId })
  await queue(QUEUES.autopilot).upsertJobScheduler(
    autopilotSchedulerId(data.userId),
    { every: timing.everyMs, startDate: timing.startDate },
    { name: autopilotRunJob.name, data, opts: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 } } },
  )
}

export async function unscheduleAutopilot(userId: string) {
  await queue(QUEUES.autopilot).removeJobScheduler(autopilotSchedulerId(userId))
}

/** Whether the user's scheduler exists in Redis. */
export async function isAutopilotScheduled(userId: string) {
  return Boolean(await queue(QUEUES.autopilot).getJobScheduler(autopilotSchedulerId(userId)))
}

/** Called by the post pipeline when an Auto Pilot post is complete: publish it to the user's webhook (once). */
export async function enqueueAutopilotPublish(data: AutopilotPublishJob) {
  return addJob(autopilotPublishJob, data, (p) => ({ jobId: jobId('publish', p.postId) }))
}
