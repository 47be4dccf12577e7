import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import type { PingJob } from './system.server'
import type { ProcessorContext } from './processor'

/** The trivial job: marks a ping row as processed, proving web → Redis → worker → Postgres. */
export async function processPing(data: PingJob, ctx: ProcessorContext) {
  await db
    .update(schema.jobPings)
    .set({ processedAt: new Date(), processedBy: ctx.workerId })
    .where(eq(schema.jobPings.id, data.pingId))
}
