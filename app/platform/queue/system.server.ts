import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { db, schema } from '#app/platform/db/client.server'
import { addJob, defineJob, jobId, QUEUES } from './queues.server'

/** The 'system' queue: the ping job that proves web → Redis → worker → Postgres. */
export const pingJob = defineJob(QUEUES.system, 'ping', z.object({ pingId: z.string().uuid() }))
export type PingJob = z.infer<typeof pingJob.schema>

export async function enqueuePing(data: PingJob) {
  return addJob(pingJob, data, (p) => ({ jobId: jobId('ping', p.pingId) }))
}

/** Writes a ping row and enqueues its job: the worker marks the row as processed (web → Redis → worker → Postgres). */
export async function startPing() {
  const [ping] = await db.insert(schema.jobPings).values({}).returning()
  await enqueuePing({ pingId: ping!.id })
  return ping!
}

export async function findPing(id: string) {
  const [ping] = await db.select().from(schema.jobPings).where(eq(schema.jobPings.id, id)).limit(1)
  return ping ?? null
}
