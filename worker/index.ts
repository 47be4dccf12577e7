import os from 'node:os'
import { UnrecoverableError, Worker, type Job } from 'bullmq'
import type { ZodType } from 'zod'
import {
  autopilotPublishJob,
  autopilotRunJob,
  enqueueAutopilotPublish,
} from '#app/features/autopilot/settings/jobs/autopilot.server'
import {
  generatePostJob,
  reconcileStalePostsJob,
  scheduleStalePostReconciliation,
} from '#app/features/content/jobs/post-generation.server'
import { closeQueues, jobRequestId, QUEUES, queueDepths, type QueueName } from '#app/platform/queue/queues.server'
import { pingJob } from '#app/platform/queue/system.server'
import { passwordResetMailJob } from '#app/features/accounts/jobs/account-mail.server'
import { processPasswordResetMail } from '#app/features/accounts/jobs/password-reset-mail.processor'
import { deliverWebhookJob } from '#app/features/autopilot/settings/jobs/webhook-delivery.server'
import { closeDb } from '#app/platform/db/client.server'
import { startupEnv } from '#app/platform/env.server'
import { capabilityReport } from '#app/platform/capabilities.server'
import { closeRedis, createRedis } from '#app/platform/redis.server'
import { installRequestIdLogging } from '#app/platform/observability/log.server'
import { installProcessGuards } from '#app/platform/observability/process-guards.server'
import { metrics, startMetricsServer } from '#app/platform/observability/metrics.server'
import { newRequestScope, runInRequestScope } from '#app/platform/http/request-scope.server'
import { privateNetworkWarning } from '#app/platform/security/ssrf.server'
import { flushSentry, initSentry, reportError } from '#app/platform/observability/sentry.server'
import type { Processor, ProcessorContext } from '#app/platform/queue/processor'
import { generatePostProcessor } from '#app/features/content/jobs/generate-post.processor'
import { processPing } from '#app/platform/queue/ping.processor'
import { processAutopilotPublish } from '#app/features/autopilot/jobs/autopilot-publish.processor'
import { processAutopilotRun } from '#app/features/autopilot/jobs/autopilot-run.processor'
import { processReconcileStalePosts } from '#app/features/content/jobs/reconcile-stale-posts.processor'
import { processWebhookDelivery } from '#app/features/autopilot/settings/jobs/webhook-deliver.processor'
import {
  processPublicationJob,
  processPublishingSweep,
  startPublishingSweep,
} from '#app/features/publishing/jobs/publish.processor'
import { publicationJob, publishingSweepJob } from '#app/features/publishing/jobs/publishing.server'
import { encryptStoredWebhookSecrets, restoreSchedules } from '#app/features/autopilot/settings/settings.server'
import { claimResanitize, resanitizeStalePosts } from '#app/features/content/post-html.server'
import { registry } from './registry'
import { clusterSerpsJob } from '#app/features/keywords/jobs/cluster-serps.server'
import { processClusterSerps } from '#app/features/keywords/jobs/cluster-serps.processor'
import { pruneAnalyticsJob, schedulePruneAnalytics } from '#app/features/marketing/jobs/analytics-retention.server'
import { processPruneAnalytics } from '#app/features/marketing/jobs/analytics-retention.processor'
import { rankingsJobs, scheduleRankings } from '#app/features/rankings/jobs/rankings.server'
import {
  processRankingsTick,
  processRankingsWeekly,
  processRefreshPost,
  processSearchConsoleAll,
  processSearchConsolePull,
} from '#app/features/rankings/jobs/rankings.processor'
import { scheduleVisibility, visibilityJobs } from '#app/features/visibility/jobs/visibility.server'
import { processAiVisibilityTick } from '#app/features/visibility/jobs/visibility.processor'

/**
 * The worker process: one BullMQ worker per queue. Handlers are registered by job name in ./registry
 * (each validates its payload with the shared zod schema and throws UnrecoverableError when it is bad).
 */
registry.register(pingJob, processPing)
registry.register(passwordResetMailJob, processPasswordResetMail)
registry.register(
  generatePostJob,
  generatePostProcessor({ onAutopilotPostWritten: (postId) => enqueueAutopilotPublish({ postId }) }),
)
registry.register(reconcileStalePostsJob, processReconcileStalePosts)
registry.register(autopilotRunJob, processAutopilotRun)
registry.register(autopilotPublishJob, processAutopilotPublish)
registry.register(deliverWebhookJob, processWebhookDelivery)
registry.register(rankingsJobs.tick, processRankingsTick)
registry.register(rankingsJobs.searchConsoleAll, processSearchConsoleAll)
registry.register(rankingsJobs.searchConsolePull, processSearchConsolePull)
registry.register(rankingsJobs.weekly, processRankingsWeekly)
registry.register(rankingsJobs.refreshPost, processRefreshPost)
registry.register(visibilityJobs.tick, processAiVisibilityTick)
registry.register(publicationJob, processPublicationJob)
registry.register(publishingSweepJob, processPublishingSweep)
registry.register(pruneAnalyticsJob, processPruneAnalytics)
registry.register(clusterSerpsJob, processClusterSerps)

const env = startupEnv('worker')
const workerId = `${os.hostname()}-${process.pid}`
const log = (msg: string, extra?: Record<string, unknown>) =>
  console.log(JSON.stringify({ at: new Date().toISOString(), worker: workerId, msg, ...extra }))

// Issue 20: error reports when SENTRY_DSN is set; a job enqueued during a request runs and logs under that request's
// id; /metrics (queue depths, job durations and failures, provider calls) on WORKER_METRICS_PORT.
await initSentry('worker')
installRequestIdLogging()
// Decision 0353: which provider each capability uses, and which variable would switch on a missing one.
for (const line of capabilityReport('worker')) log(line)
const switchesOn = privateNetworkWarning(env)
if (switchesOn) log(switchesOn, { level: 'warn' })
const metricsServer = startMetricsServer({
  port: env.WORKER_METRICS_PORT,
  host: env.METRICS_HOST,
  token: env.METRICS_TOKEN,
  log,
  beforeScrape: async () => {
    const { queueDepth } = metrics()
    for (const { queue, counts } of await queueDepths())
      for (const [state, count] of Object.entries(counts)) queueDepth.set({ queue, state }, count)
  },
})

const concurrency: Record<QueueName, number> = {
  [QUEUES.system]: 4,
  [QUEUES.posts]: env.POST_WORKER_CONCURRENCY,
  [QUEUES.autopilot]: 2,
  [QUEUES.webhooks]: 8,
  [QUEUES.rankings]: 2,
  [QUEUES.publishing]: 4,
  [QUEUES.keywords]: 2,
  [QUEUES.visibility]: 2,
}

/**
 * BullMQ's stalled-job detection: how long a job's lock lasts and how often the workers look for jobs whose lock ran
 * out (their worker died). Publications are taken over within 30 s of a worker's death (issue 33): their lock lasts
 * two thirds of the claim lease (10 s by default) and is looked for every third (5 s), so the job runs again about
 * when the dead worker's claim expires.
 */
function stallDetection(name: QueueName) {
  if (name !== QUEUES.publishing)
    return { lockDuration: env.WORKER_LOCK_DURATION_MS, stalledInterval: env.WORKER_STALLED_INTERVAL_MS }
  const lease = env.PUBLISH_CLAIM_LEASE_MS
  return {
    lockDuration: Math.min(env.WORKER_LOCK_DURATION_MS, Math.max(4_000, Math.round((lease * 2) / 3))),
    stalledInterval: Math.min(env.WORKER_STALLED_INTERVAL_MS, Math.max(2_000, Math.round(lease / 3))),
  }
}

const workers: Worker[] = []
/** Jobs running in this process with their lock token, so that a shutdown can hand them back to the queue. */
const running = new Map<Job, string | undefined>()
for (const name of Object.values(QUEUES)) {
  const connection = createRedis({ maxRetriesPerRequest: null })
  const worker: Worker = new Worker(
    name,
    (job: Job, token?: string) => {
      // The job runs in a scope of its own under the id of the request that enqueued it (or the job's own id).
      const scope = newRequestScope(jobRequestId(job.data) ?? `job-${name}-${job.id ?? 'unknown'}`)
      return runInRequestScope(scope, async () => {
        const started = performance.now()
        const { jobDuration, jobFailures } = metrics()
        log('job started', { queue: name, job: job.name, id: job.id, attempt: job.attemptsMade + 1 })
        running.set(job, token)
        try {
          const entry = registry.get(name, job.name)
          if (!entry) throw new UnrecoverableError(`No handler for job ${name}/${job.name}`)
          const parsed = (entry.schema as ZodType).safeParse(job.data)
          if (!parsed.success) throw new UnrecoverableError(`Bad payload for ${job.name}: ${parsed.error.message}`)
          const ctx: ProcessorContext = { job, worker, workerId, log }
          const result = await (entry.handler as Processor<unknown>)(parsed.data, ctx)
          const seconds = (performance.now() - started) / 1000
          jobDuration.observe({ queue: name, job: job.name, outcome: 'completed' }, seconds)
          log('job completed', { queue: name, job: job.name, id: job.id, ms: Math.round(seconds * 1000) })
          return result
        } catch (error) {
          jobDuration.observe({ queue: name, job: job.name, outcome: 'failed' }, (performance.now() - started) / 1000)
          jobFailures.inc({ queue: name, job: job.name })
          // Reported once a job has no attempt left (or cannot succeed): retries of a passing outage are not news.
          const attempts = job.opts.attempts ?? 1
          if (error instanceof UnrecoverableError || job.attemptsMade + 1 >= attempts)
            reportError(error, { tags: { queue: name, job: job.name, job_id: job.id, attempt: job.attemptsMade + 1 } })
          throw error
        } finally {
          running.delete(job)
        }
      })
    },
    {
      connection,
      prefix: env.QUEUE_PREFIX,
      concurrency: concurrency[name],
      // A limiter (far above real throughput) makes the manual rate limit set after a model 429 hold for every worker.
      ...(name === QUEUES.posts ? { limiter: { max: 1_000, duration: 1_000 } } : {}),
      ...stallDetection(name),
      maxStalledCount: 2,
    },
  )
  worker.on('error', (err) => log('worker error', { queue: name, error: err.message }))
  worker.on('failed', (job, err) =>
    log('job failed', { queue: name, job: job?.name, id: job?.id, attempt: job?.attemptsMade, error: err.message }),
  )
  workers.push(worker)
}
log('worker started', { queues: Object.values(QUEUES) })
// Auto Pilot schedules live in Redis; recreate any that an emptied Redis lost.
restoreSchedules().then(
  (result) => log('auto pilot schedules checked', result),
  (error: Error) => log('could not check auto pilot schedules', { error: error.message }),
)
// Webhook signing secrets stored in plain text before issue 33 (or with a rotated-out key) are encrypted with the
// current key; several workers starting at once each replace a row only if it still holds what they read.
encryptStoredWebhookSecrets().then(
  (result) => log('webhook signing secrets encrypted at rest', result),
  (error: Error) => log('could not encrypt stored webhook signing secrets', { error: error.message }),
)
// Posts whose job Redis lost are put back by a repeatable job (one scheduler, however many workers upsert it).
scheduleStalePostReconciliation().then(
  () => log('stale post reconciliation scheduled', { everyMs: env.POST_RECONCILE_EVERY_MS }),
  (error: Error) => log('could not schedule the stale post reconciliation', { error: error.message }),
)
// The schedulers live in Redis too: an emptied Redis (FLUSHALL, a failover that lost data) or one that was away at
// start would leave them gone. Upserting them again on the same cadence is harmless (same id and interval, so the
// next run keeps its time) and brings them back within one interval.
const keepSchedules = setInterval(() => {
  Promise.all([
    scheduleStalePostReconciliation(),
    startPublishingSweep(),
    scheduleRankings(),
    scheduleVisibility(),
    schedulePruneAnalytics(),
  ]).catch((error: Error) => log('could not renew the schedules', { error: error.message }))
}, env.POST_RECONCILE_EVERY_MS)
keepSchedules.unref()

// Rank tracking, Search Console and the weekly digest run on repeating schedules.
scheduleRankings().then(
  () => log('rankings schedules set'),
  (error: Error) => log('could not set the rankings schedules', { error: error.message }),
)

// AI search visibility (issue 37): the hourly tick of the day's AI checks.
scheduleVisibility().then(
  () => log('ai visibility schedule set'),
  (error: Error) => log('could not set the ai visibility schedule', { error: error.message }),
)

// Page-view events older than ANALYTICS_RETENTION_DAYS are deleted once a day (issue 34).
schedulePruneAnalytics().then(
  () => log('analytics retention scheduled'),
  (error: Error) => log('could not schedule the analytics retention', { error: error.message }),
)

// Posts are sanitized once when written; those stored under older sanitizing rules are sanitized again here.
// One worker (the first to start after the rules changed) does it; the others skip it.
claimResanitize()
  .then(async (claimed) => {
    if (claimed)
      log('stored post HTML checked against the sanitizer rules', { resanitized: await resanitizeStalePosts() })
  })
  .catch((error: Error) => log('could not re-sanitize stored posts', { error: error.message }))

startPublishingSweep().then(
  () => log('publishing sweep scheduled'),
  (error: Error) => log('could not schedule the publishing sweep', { error: error.message }),
)

/**
 * SIGTERM (a deploy): stop taking jobs at once (BullMQ's worker.close() stops fetching and waits for the active
 * jobs), let running jobs finish for up to SHUTDOWN_TIMEOUT_MS (below fly.toml's kill_timeout), then hand whatever
 * still runs back to its queue (moveToWait with our lock token: another worker starts it at once, without waiting
 * for the lock to expire, and without using up an attempt) and exit. Generation is checkpointed and its final write
 * is guarded, so a handed-back job is neither lost nor written (nor charged) twice.
 */
let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  log('worker stopping: no new jobs; letting running jobs finish', {
    signal,
    running: running.size,
    boundMs: env.SHUTDOWN_TIMEOUT_MS,
  })
  clearInterval(keepSchedules)
  // Handing back needs Redis: if it does not answer either, exit anyway (the lock expires and BullMQ's stalled
  // check puts the job back).
  setTimeout(() => process.exit(1), env.SHUTDOWN_TIMEOUT_MS + 3_000).unref()
  const closing = Promise.all(workers.map((w) => w.close()))
  const finished = await Promise.race([
    closing.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), env.SHUTDOWN_TIMEOUT_MS).unref()),
  ])
  if (!finished) {
    const jobs = [...running.entries()]
    const handedBack = await Promise.allSettled(jobs.map(([job, token]) => job.moveToWait(token)))
    log('worker stopping: handed running jobs back to their queues', {
      jobs: jobs.map(([job], i) => ({ queue: job.queueName, id: job.id, ok: handedBack[i].status === 'fulfilled' })),
    })
    await flushSentry()
    process.exit(1)
  }
  metricsServer?.close()
  await flushSentry()
  await closeQueues()
  await closeRedis()
  await closeDb()
  log('worker stopped')
  process.exit() // 0, or 1 after an uncaught exception (process.exitCode)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
installProcessGuards('worker', (reason) => void shutdown(reason))
