import { z } from 'zod'
import { defineJob, jobId, queue, QUEUES } from '#app/platform/queue/queues.server'

/**
 * The AI visibility queue (issue 37, decision 0370): the hourly tick that plans the day's AI checks and works through
 * its share of them. The payload may carry `now` (ISO): the time the job runs at (app/platform/clock.server.ts); the
 * scheduler leaves it out, so the system clock applies.
 */
export const VISIBILITY_QUEUE = QUEUES.visibility

export const visibilityPayloads = {
  tick: z.object({ now: z.string().datetime().optional() }),
}
export type AiVisibilityTickJob = z.infer<typeof visibilityPayloads.tick>

export const VISIBILITY_JOBS = { tick: 'tick' } as const

/** The hourly schedule (idempotent: upserted by id at every worker start), at :20, away from the rank checks' :05. */
export async function scheduleVisibility() {
  await queue(VISIBILITY_QUEUE).upsertJobScheduler(
    'ai-visibility-tick',
    { pattern: '20 * * * *', tz: 'UTC' },
    { name: VISIBILITY_JOBS.tick, data: {} },
  )
}

/** A tick run on demand (a test at a chosen time, the bench). */
export async function enqueueAiVisibilityTick(data: AiVisibilityTickJob = {}) {
  const payload = visibilityPayloads.tick.parse(data)
  const at = payload.now ?? new Date().toISOString()
  return queue(VISIBILITY_QUEUE).add(VISIBILITY_JOBS.tick, payload, {
    jobId: jobId('ai-tick', at.slice(0, 13), payload.now ? 'at' : 'now', String(Date.now()), String(Math.random())),
    attempts: 1,
  })
}

export const visibilityJobs = {
  tick: defineJob(QUEUES.visibility, VISIBILITY_JOBS.tick, visibilityPayloads.tick),
}
