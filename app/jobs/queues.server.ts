import { Queue, type JobsOptions } from 'bullmq'
import { z } from 'zod'
import { getEnv } from '#app/server/env.server'
import { createRedis } from '#app/server/redis.server'
import type { Redis } from 'ioredis'

/**
 * Queue names, job payload schemas and producers, shared by the web app and the worker.
 * Producers validate before `queue.add`; job ids are deterministic so the same request never makes two jobs.
 */
export const QUEUES = {
  system: 'system',
  posts: 'post-generation',
  autopilot: 'autopilot',
  webhooks: 'webhook-delivery',
  publishing: 'publishing',
} as const
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES]

export const payloads = {
  ping: z.object({ pingId: z.string().uuid() }),
  generatePost: z.object({ postId: z.string().uuid() }),
  autopilotRun: z.object({ userId: z.string().uuid(), slot: z.string().optional() }),
  autopilotPublish: z.object({ postId: z.string().uuid() }),
  deliverWebhook: z.object({ deliveryId: z.string().uuid() }),
}
export type PingJob = z.infer<typeof payloads.ping>
export type GeneratePostJob = z.infer<typeof payloads.generatePost>
export type AutopilotRunJob = z.infer<typeof payloads.autopilotRun>
export type AutopilotPublishJob = z.infer<typeof payloads.autopilotPublish>
export type DeliverWebhookJob = z.infer<typeof payloads.deliverWebhook>

export const defaultJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
}

declare global {
  var __rankwellQueues: { connection: Redis; queues: Map<string, Queue> } | undefined
}

function registry() {
  globalThis.__rankwellQueues ??= {
    connection: createRedis({ maxRetriesPerRequest: 1, commandTimeout: 3_000 }),
    queues: new Map(),
  }
  return globalThis.__rankwellQueues
}

export function queue(name: QueueName): Queue {
  const reg = registry()
  let q = reg.queues.get(name)
  if (!q) {
    q = new Queue(name, { connection: reg.connection, prefix: getEnv().QUEUE_PREFIX, defaultJobOptions })
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

export async function enqueuePing(data: PingJob) {
  const payload = payloads.ping.parse(data)
  return queue(QUEUES.system).add('ping', payload, { jobId: jobId('ping', payload.pingId) })
}

export async function enqueueGeneratePost(data: GeneratePostJob) {
  const payload = payloads.generatePost.parse(data)
  return queue(QUEUES.posts).add('generate-post', payload, {
    jobId: jobId('post', payload.postId),
    attempts: 6,
    backoff: { type: 'exponential', delay: 5_000 },
  })
}

/** Called by the post pipeline when an Auto Pilot post is complete: publish it to the user's webhook. */
export async function enqueueAutopilotPublish(data: AutopilotPublishJob) {
  const payload = payloads.autopilotPublish.parse(data)
  return queue(QUEUES.autopilot).add('publish-post', payload, { jobId: jobId('publish', payload.postId) })
}

export async function enqueueDeliverWebhook(data: DeliverWebhookJob, opts: { attempt?: number; delay?: number } = {}) {
  const payload = payloads.deliverWebhook.parse(data)
  return queue(QUEUES.webhooks).add('deliver-webhook', payload, {
    jobId: jobId('webhook', payload.deliveryId, String(opts.attempt ?? 0)),
    attempts: 1,
    ...(opts.delay ? { delay: opts.delay } : {}),
  })
}
