import { pruneAnalyticsEvents } from '#app/features/marketing/analytics-retention.server'
import type { ProcessorContext } from '#app/platform/queue/processor'

/** Daily: analytics events older than ANALYTICS_RETENTION_DAYS are deleted, in batches. */
export async function processPruneAnalytics(_data: unknown, ctx: ProcessorContext) {
  const result = await pruneAnalyticsEvents()
  if (result.deleted) ctx.log('analytics events pruned', result)
  return result
}
