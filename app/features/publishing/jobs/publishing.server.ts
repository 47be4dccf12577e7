import { z } from 'zod'
import { getEnv } from '#app/platform/env.server'
import { defineJob, jobId, queue, QUEUES } from '#app/platform/queue/queues.server'

/**
 * The publishing queue: one job per publication revision (create/update/unpublish on a CMS), and the periodic
 * sweep that publishes scheduled posts, approves drafts whose review window passed and re-queues lost jobs.
 */
export const PUBLISHING_QUEUE = QUEUES.publishing

export const PUBLISHING_JOBS = { publish: 'publish', sweep: 'sweep' } as const

export const publishingPayloads = {
  publish: z.object({ publicationId: z.string().uuid(), revision: z.number().int().positive() }),
  sweep: z.object({}).strict(),
}
export type PublicationJob = z.infer<typeof publishingPayloads.publish>

/** The job definitions the worker registers its processors with. */
export const publicationJob = defineJob(PUBLISHING_QUEUE, PUBLISHING_JOBS.publish, publishingPayloads.publish)
export const publishingSweepJob = defineJob(PUBLISHING_QUEUE, PUBLISHING_JOBS.sweep, publishingPayloads.sweep)

/** Attempts of one revision; retries back off exponentially from PUBLISH_RETRY_BASE_MS. */
export const PUBLISH_ATTEMPTS = 5

export async function enqueuePublication(data: PublicationJob) {
  const payload = publishingPayloads.publish.parse(data)
  return queue(PUBLISHING_QUEUE).add(PUBLISHING_JOBS.publish, payload, {
    jobId: jobId('publication', payload.publicationId, String(payload.revision)),
    attempts: PUBLISH_ATTEMPTS,
    backoff: { type: 'exponential', delay: getEnv().PUBLISH_RETRY_BASE_MS },
  })
}

const SWEEP_SCHEDULER = 'publishing-sweep'

/** The sweep runs every minute on whichever worker is free; each step claims its rows in Postgres. */
export async function schedulePublishingSweep(everyMs = 60_000) {
  await queue(PUBLISHING_QUEUE).upsertJobScheduler(
    SWEEP_SCHEDULER,
    { every: everyMs },
    { name: PUBLISHING_JOBS.sweep, data: publishingPayloads.sweep.parse({}), opts: { attempts: 1 } },
  )
}
