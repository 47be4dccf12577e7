import type { PublicationJob } from './publishing.server'
import { schedulePublishingSweep } from './publishing.server'
import { getEnv } from '#app/platform/env.server'
import {
  processPublication,
  publishDueScheduled,
  requeueStalledPublications,
} from '#app/features/publishing/publications.server'
import { autoApproveDue } from '#app/features/publishing/review.server'
import type { ProcessorContext } from '#app/platform/queue/processor'

/** One revision of a publication: create, update or unpublish the remote copy. */
export async function processPublicationJob(data: PublicationJob, ctx: ProcessorContext) {
  const result = await processPublication(data, {
    workerId: ctx.workerId,
    attempt: ctx.job.attemptsMade,
    maxAttempts: ctx.job.opts.attempts ?? 1,
  })
  ctx.log('publication', { ...data, ...result })
  return result
}

/** Every minute: scheduled posts that are due, drafts whose review window passed, lost publication jobs. */
export async function processPublishingSweep(_data: Record<string, never>, ctx: ProcessorContext) {
  const scheduled = await publishDueScheduled()
  const approved = await autoApproveDue()
  const requeued = await requeueStalledPublications()
  if (scheduled.due || approved.approved || requeued.requeued)
    ctx.log('publishing sweep', { ...scheduled, ...approved, ...requeued })
  return { scheduled, approved, requeued }
}

/** Called once at worker start: the sweep's scheduler lives in Redis and is re-created if Redis lost it. */
export async function startPublishingSweep() {
  await schedulePublishingSweep(getEnv().PUBLISH_SWEEP_EVERY_MS)
}
