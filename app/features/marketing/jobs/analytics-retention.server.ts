import { z } from 'zod'
import { defineJob, queue, QUEUES } from '#app/platform/queue/queues.server'

/** The 'system' queue's daily prune of analytics events older than the retention period (issue 34). */
export const pruneAnalyticsJob = defineJob(QUEUES.system, 'prune-analytics-events', z.object({}))

const PRUNE_SCHEDULER = 'prune-analytics-events'
export const PRUNE_EVERY_MS = 24 * 3600 * 1000

/** One scheduler in Redis, upserted by every worker at start and with the other schedules (same id, same cadence). */
export async function schedulePruneAnalytics() {
  await queue(QUEUES.system).upsertJobScheduler(
    PRUNE_SCHEDULER,
    { every: PRUNE_EVERY_MS },
    {
      name: pruneAnalyticsJob.name,
      data: pruneAnalyticsJob.schema.parse({}),
      opts: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 }, removeOnComplete: { count: 10 } },
    },
  )
}
