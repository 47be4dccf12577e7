import os from 'node:os'
import { UnrecoverableError, Worker, type Job } from 'bullmq'
import type { ZodType } from 'zod'
import { payloads, QUEUES, closeQueues, type QueueName } from '#app/jobs/queues.server'
import { closeDb } from '#app/server/db.server'
import { getEnv } from '#app/server/env.server'
import { closeRedis, createRedis } from '#app/server/redis.server'
import type { Processor, ProcessorContext } from './context'
import { processGeneratePost } from './processors/generate-post'
import { processPing } from './processors/ping'
import { processAutopilotPublish } from './processors/autopilot-publish'
import { processAutopilotRun } from './processors/autopilot-run'
import { processWebhookDelivery } from './processors/webhook-deliver'
import { processPublicationJob, processPublishingSweep, startPublishingSweep } from './processors/publish'
import { PUBLISHING_JOBS, publishingPayloads } from '#app/jobs/publishing.server'
import { restoreSchedules } from '#app/server/autopilot.server'
import { registry } from './registry'

/**
 * The worker process: one BullMQ worker per queue. Handlers are registered by job name in ./registry
 * (each validates its payload with the shared zod schema and throws UnrecoverableError when it is bad).
 */
registry.register(QUEUES.system, 'ping', payloads.ping, processPing)
registry.register(QUEUES.posts, 'generate-post', payloads.generatePost, processGeneratePost)
registry.register(QUEUES.autopilot, 'run', payloads.autopilotRun, processAutopilotRun)
registry.register(QUEUES.autopilot, 'publish-post', payloads.autopilotPublish, processAutopilotPublish)
registry.register(QUEUES.webhooks, 'deliver-webhook', payloads.deliverWebhook, processWebhookDelivery)
registry.register(QUEUES.publishing, PUBLISHING_JOBS.publish, publishingPayloads.publish, processPublicationJob)
registry.register(QUEUES.publishing, PUBLISHING_JOBS.sweep, publishingPayloads.sweep, processPublishingSweep)

const env = getEnv()
const workerId = `${os.hostname()}-${process.pid}`
const log = (msg: string, extra?: Record<string, unknown>) =>
  console.log(JSON.stringify({ at: new Date().toISOString(), worker: workerId, msg, ...extra }))

const concurrency: Record<QueueName, number> = {
  [QUEUES.system]: 4,
  [QUEUES.posts]: Number(process.env.POST_WORKER_CONCURRENCY ?? 4),
  [QUEUES.autopilot]: 2,
  [QUEUES.webhooks]: 8,
  [QUEUES.publishing]: 4,
}

const workers: Worker[] = []
for (const name of Object.values(QUEUES)) {
  const connection = createRedis({ maxRetriesPerRequest: null })
  const worker: Worker = new Worker(
    name,
    async (job: Job) => {
      const entry = registry.get(name, job.name)
      if (!entry) throw new UnrecoverableError(`No handler for job ${name}/${job.name}`)
      const parsed = (entry.schema as ZodType).safeParse(job.data)
      if (!parsed.success) throw new UnrecoverableError(`Bad payload for ${job.name}: ${parsed.error.message}`)
      const ctx: ProcessorContext = { job, worker, workerId, log }
      return (entry.handler as Processor<unknown>)(parsed.data, ctx)
    },
    {
      connection,
      prefix: env.QUEUE_PREFIX,
      concurrency: concurrency[name],
      // A limiter (far above real throughput) makes the manual rate limit set after a model 429 hold for every worker.
      ...(name === QUEUES.posts ? { limiter: { max: 1_000, duration: 1_000 } } : {}),
      stalledInterval: Number(process.env.WORKER_STALLED_INTERVAL_MS ?? 30_000),
      maxStalledCount: 2,
      lockDuration: Number(process.env.WORKER_LOCK_DURATION_MS ?? 30_000),
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

startPublishingSweep().then(
  () => log('publishing sweep scheduled'),
  (error: Error) => log('could not schedule the publishing sweep', { error: error.message }),
)

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  log('worker stopping: letting active jobs finish', { signal })
  const force = setTimeout(() => process.exit(1), 30_000)
  force.unref()
  await Promise.all(workers.map((w) => w.close()))
  await closeQueues()
  await closeRedis()
  await closeDb()
  log('worker stopped')
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
