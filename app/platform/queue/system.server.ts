import { z } from 'zod'
import { addJob, defineJob, jobId, QUEUES } from './queues.server'

/** The 'system' queue: the ping job that proves web → Redis → worker → Postgres. */
export const pingJob = defineJob(QUEUES.system, 'ping', z.object({ pingId: z.string().uuid() }))
export type PingJob = z.infer<typeof pingJob.schema>

export async function enqueuePing(data: PingJob) {
  return addJob(pingJob, data, (p) => ({ jobId: jobId('ping', p.pingId) }))
}
