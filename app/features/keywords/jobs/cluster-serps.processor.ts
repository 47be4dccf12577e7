import type { ProcessorContext } from '#app/platform/queue/processor'
import { runClusterSerps } from '#app/features/keywords/clusters.server'
import type { ClusterSerpsJob } from './cluster-serps.server'

/**
 * A clustering run (issue 36): the results pages its keywords lack, read a few at a time. When every read fails the
 * job throws and BullMQ retries it (backoff); its last attempt marks the run failed with a message the user can read.
 */
export async function processClusterSerps(data: ClusterSerpsJob, ctx: ProcessorContext) {
  const attempts = ctx.job.opts.attempts ?? 1
  const result = await runClusterSerps(data.runId, { lastAttempt: ctx.job.attemptsMade + 1 >= attempts })
  ctx.log('clustering run read its results pages', { runId: data.runId, ...result })
  return result
}
