import { z } from 'zod'
import { addJob, defineJob, jobId, QUEUES } from '#app/platform/queue/queues.server'

/**
 * The 'keywords' queue's clustering job (issue 36, decision 0363): one 'cluster-serps' job per clustering run (job id
 * `cluster-serps-<runId>`, so a run never has two), reading the results page of each of the run's keywords that has
 * none fresh. Retried with backoff when the provider fails for every keyword; a retry skips what is cached already.
 */
export const clusterSerpsJob = defineJob(QUEUES.keywords, 'cluster-serps', z.object({ runId: z.string().uuid() }))
export type ClusterSerpsJob = z.infer<typeof clusterSerpsJob.schema>

export const CLUSTER_SERPS_ATTEMPTS = 4

export async function enqueueClusterSerps(data: ClusterSerpsJob) {
  return addJob(clusterSerpsJob, data, (p) => ({
    jobId: jobId('cluster-serps', p.runId),
    attempts: CLUSTER_SERPS_ATTEMPTS,
    backoff: { type: 'exponential', delay: 5_000 },
  }))
}
