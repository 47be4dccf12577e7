import { sql } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv } from '#app/platform/env.server'

/**
 * Issue 34: page-view and web-vital events are kept ANALYTICS_RETENTION_DAYS (396 by default, about 13 months),
 * then deleted by the worker's daily job. The deletion goes in batches, each a statement (and transaction) of its
 * own, so that a large backlog never holds a long lock on the table the public pages write to.
 */
export const RETENTION_BATCH = 5_000

export async function pruneAnalyticsEvents(
  opts: { retentionDays?: number; batchSize?: number; maxBatches?: number } = {},
): Promise<{ deleted: number; batches: number; cutoff: string }> {
  const retentionDays = opts.retentionDays ?? getEnv().ANALYTICS_RETENTION_DAYS
  const batchSize = opts.batchSize ?? RETENTION_BATCH
  // A bound per run (10 million rows by default): a backlog bigger than that is finished by the next runs.
  const maxBatches = opts.maxBatches ?? 2_000
  const cutoff = new Date(Date.now() - retentionDays * 24 * 3600 * 1000)
  const events = schema.analyticsEvents
  let deleted = 0
  let batches = 0
  while (batches < maxBatches) {
    // The oldest rows first, by the created_at index; rows another run is deleting are skipped, not waited for.
    const rows = await db.execute<{ id: number }>(sql`
      delete from ${events} where id in (
        select id from ${events} where created_at < ${cutoff.toISOString()}::timestamptz
        order by created_at limit ${batchSize} for update skip locked)
      returning id`)
    const count = [...rows].length
    batches++
    deleted += count
    if (count < batchSize) break
  }
  return { deleted, batches, cutoff: cutoff.toISOString() }
}
