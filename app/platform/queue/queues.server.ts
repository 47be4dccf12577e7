import { Queue, type JobsOptions } from 'bullmq'
import type { ZodType } from 'zod'
import { getEnv } from '#app/platform/env.server'
import { createRedis } from '#app/platform/redis.server'
import { currentRequestId } from '#app/platform/http/request-scope.server'
import type { Redis } from 'ioredis'

/**
 * The one home of BullMQ on the producer side: queue names, the shared connection and the `defineJob`/`addJob`
 * helpers. Each queue has a module of its own next to this one (`system`, `post-generation`, `autopilot`,
 * `webhook-delivery`) exporting its job definitions (name + zod payload schema, also used by the worker's
 * registry) and typed functions for every queue operation. Nothing outside app/jobs/ and worker/ imports bullmq.
 */
export const QUEUES = {
  system: 'system',
  posts: 'post-generation',
  autopilot: 'autopilot',
  webhooks: 'webhook-delivery',
  rankings: 'rankings',
  publishing: 'publishing',
  /** Issue 36: keyword research's background lookups (a clustering run reading each keyword's results page). */
  keywords: 'keywords',
  /** Issue 37: AI search visibility's daily checks (AI Overviews, AI Mode, the assistants' answers). */
  visibility: 'ai-visibility',
} as const
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES]

/** A job: the queue it runs on, its name and the schema of its payload (checked by producers and the worker). */
export type JobDefinition<T> = { queue: QueueName; name: string; schema: ZodType<T> }

export function defineJob<T>(queueName: QueueName, name: string, schema: ZodType<T>): JobDefinition<T> {
  return { queue: queueName, name, schema }
}

export const defaultJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
}

/**
 * Every job added during a request carries that request's id in its data (`requestId`; payload schemas ignore the
 * extra key), and the worker runs and logs the job under the same id (issue 20).
 */
class TracedQueue extends Queue {
  override add(...[name, data, opts]: Parameters<Queue['add']>): ReturnType<Queue['add']> {
    const requestId = currentRequestId()
    const traced =
      requestId && data && typeof data === 'object' && !Array.isArray(data) && !('requestId' in data)
        ? { ...(data as Record<string, unknown>), requestId }
        : data
    return super.add(name, traced, opts)
  }
}

/** The request id a job was enqueued under, if any. */
export function jobRequestId(data: unknown): string | undefined {
  const id = data && typeof data === 'object' ? (data as { requestId?: unknown }).requestId : undefined
  return typeof id === 'string' ? id : undefined
}

/** Jobs per queue and state, for the worker's metrics. */
export async function queueDepths(): Promise<Array<{ queue: QueueName; counts: Record<string, number> }>> {
  return Promise.all(
    Object.values(QUEUES).map(async (name) => ({
      queue: name,
      counts: await queue(name).getJobCounts('waiting', 'active', 'delayed', 'failed', 'prioritized'),
    })),
  )
}

declare global {
  var __rankwellQueues: { connection: Redis; queues: Map<string, Queue> } | undefined
}

function registry() {
  // The producers' connection fails fast: no offline queue (a command while Redis is away fails at once), one retry,
  // a short command timeout. Workers have connections of their own that wait (worker/index.ts).
  globalThis.__rankwellQueues ??= {
    connection: createRedis({
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: getEnv().REDIS_COMMAND_TIMEOUT_MS,
    }),
    queues: new Map(),
  }
  return globalThis.__rankwellQueues
}

/** A queue operation that did not finish in time (Redis unreachable); outage.server.ts counts it as a Redis outage. */
export class QueueTimeoutError extends Error {
  override name = 'QueueTimeoutError'
}

/**
 * Runs a queue operation with a deadline (REDIS_COMMAND_TIMEOUT_MS + 1 s): BullMQ waits for its connection to be
 * ready before its first command, without a limit of its own, so a request made while Redis is down would hang.
 */
export async function withinQueueTimeout<T>(operation: Promise<T>, what: string): Promise<T> {
  const ms = getEnv().REDIS_COMMAND_TIMEOUT_MS + 1_000
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QueueTimeoutError(`Queue operation timed out after ${ms} ms: ${what}`)), ms)
  })
  // The operation may still fail after the deadline; its rejection is handled here so that it is not unhandled.
  operation.catch(() => {})
  try {
    return await Promise.race([operation, deadline])
  } finally {
    clearTimeout(timer)
  }
}

export function queue(name: QueueName): Queue {
  const reg = registry()
  let q = reg.queues.get(name)
  if (!q) {
    q = new TracedQueue(name, { connection: reg.connection, prefix: getEnv().QUEUE_PREFIX, defaultJobOptions })
    q.on('error', (err) => console.error(`[queue ${name}]`, err.message))
    reg.queues.set(name, q)
  }
  return q
}

export async function closeQueues() {
  const reg = globalThis.__rankwellQueues
  globalThis.__rankwellQueues = undefined
  if (!reg) return
  await Promise.all([...reg.queues.values()].map((q) => q.close()))
  await reg.connection.quit().catch(() => reg.connection.disconnect())
}

/** Job ids may not contain ':' (BullMQ uses it as a key separator). */
export function jobId(...parts: string[]) {
  return parts.map((p) => p.replace(/:/g, '_')).join('-')
}

/**
 * Validates the payload with the job's schema, then adds the job to its queue. `opts` may be computed from the
 * validated payload (for a job id built from it).
 */
export async function addJob<T>(job: JobDefinition<T>, data: T, opts?: JobsOptions | ((payload: T) => JobsOptions)) {
  const payload = job.schema.parse(data)
  return withinQueueTimeout(
    queue(job.queue).add(job.name, payload, typeof opts === 'function' ? opts(payload) : opts),
    `add ${job.queue}/${job.name}`,
  )
}
