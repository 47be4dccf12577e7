import { z } from 'zod'
import { getEnv } from '#app/platform/env.server'
import { addJob, defineJob, jobId, queue, QUEUES, withinQueueTimeout } from '#app/platform/queue/queues.server'

/**
 * The 'post-generation' queue: one 'generate-post' job per post (job id `post-<postId>`, so a post never has two),
 * and the repeatable 'reconcile-stale-posts' maintenance job that puts back the jobs Redis lost.
 */
export const generatePostJob = defineJob(QUEUES.posts, 'generate-post', z.object({ postId: z.string().uuid() }))
export type GeneratePostJob = z.infer<typeof generatePostJob.schema>

export const reconcileStalePostsJob = defineJob(QUEUES.posts, 'reconcile-stale-posts', z.object({}).strict())
export type ReconcileStalePostsJob = z.infer<typeof reconcileStalePostsJob.schema>

/** The job id of a post's generation job. */
export const generatePostJobId = (postId: string) => jobId('post', postId)

export async function enqueueGeneratePost(data: GeneratePostJob) {
  return addJob(generatePostJob, data, (p) => ({
    jobId: generatePostJobId(p.postId),
    attempts: 6,
    backoff: { type: 'exponential', delay: 5_000 },
  }))
}

/**
 * Enqueues the post's job again: a finished (failed or completed) job with the same id is removed first; a job
 * still waiting, delayed or running is left alone (it will pick the post up).
 */
export async function requeueGeneratePost(data: GeneratePostJob) {
  const { postId } = generatePostJob.schema.parse(data)
  const existing = await withinQueueTimeout(queue(QUEUES.posts).getJob(generatePostJobId(postId)), 'get a post job')
  if (existing) {
    const state = await withinQueueTimeout(existing.getState(), 'read a post job')
    if (state === 'failed' || state === 'completed') await withinQueueTimeout(existing.remove(), 'remove a post job')
    else return
  }
  await enqueueGeneratePost({ postId })
}

/** The state of a post's generation job in Redis ('unknown' when there is none). */
export async function generatePostJobState(postId: string) {
  return withinQueueTimeout(queue(QUEUES.posts).getJobState(generatePostJobId(postId)), 'read a post job')
}

/**
 * Pauses post generation on every worker for `ms` (BullMQ's manual rate limit on the queue, honoured because the
 * post workers have a limiter). The processor then throws `Worker.RateLimitError()` to put its job back.
 */
export async function pausePostGeneration(ms: number) {
  await queue(QUEUES.posts).rateLimit(ms)
}

/**
 * The repeatable reconciliation job, every `POST_RECONCILE_EVERY_MS`. One job scheduler with a fixed id: every
 * worker process upserts the same one at start, so several workers still make one job per tick.
 */
export async function scheduleStalePostReconciliation() {
  await queue(QUEUES.posts).upsertJobScheduler(
    'reconcile-stale-posts',
    { every: getEnv().POST_RECONCILE_EVERY_MS },
    {
      name: reconcileStalePostsJob.name,
      data: reconcileStalePostsJob.schema.parse({}),
      opts: { attempts: 1, removeOnComplete: { count: 10 }, removeOnFail: { count: 50 } },
    },
  )
}

/** Removes a post's generation job unless a worker is running it (a deleted post); a running job finds the post gone. */
export async function removeGeneratePostJob(postId: string) {
  const job = await withinQueueTimeout(queue(QUEUES.posts).getJob(generatePostJobId(postId)), 'get a post job')
  if (job && !(await withinQueueTimeout(job.isActive(), 'read a post job')))
    await withinQueueTimeout(job.remove(), 'remove a post job')
}
