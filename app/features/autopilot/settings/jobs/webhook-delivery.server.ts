import { z } from 'zod'
import { addJob, defineJob, jobId, queue, QUEUES } from '#app/platform/queue/queues.server'

/**
 * The 'webhook-delivery' queue: one 'deliver-webhook' job per attempt of a delivery, with the attempt number as the
 * last part of its job id (`webhook-<deliveryId>-<attempt>`); retries are new delayed jobs.
 */
export const deliverWebhookJob = defineJob(
  QUEUES.webhooks,
  'deliver-webhook',
  z.object({ deliveryId: z.string().uuid() }),
)
export type DeliverWebhookJob = z.infer<typeof deliverWebhookJob.schema>

const deliveryJobId = (deliveryId: string, attempt: number) => jobId('webhook', deliveryId, String(attempt))

/** The attempt number of a delivery job, read from the end of its job id (0 when it has none). */
export function webhookAttemptOf(job: { id?: string | null }) {
  return Number(/-(\d+)$/.exec(job.id ?? '')?.[1] ?? 0)
}

export async function enqueueWebhookDelivery(data: DeliverWebhookJob, opts: { attempt?: number; delay?: number } = {}) {
  return addJob(deliverWebhookJob, data, (p) => ({
    jobId: deliveryJobId(p.deliveryId, opts.attempt ?? 0),
    attempts: 1,
    ...(opts.delay ? { delay: opts.delay } : {}),
  }))
}

/** Removes the (finished) job of one attempt, so that attempt can be enqueued again. */
export async function removeWebhookDeliveryJob(deliveryId: string, attempt: number) {
  await queue(QUEUES.webhooks).remove(deliveryJobId(deliveryId, attempt))
}
