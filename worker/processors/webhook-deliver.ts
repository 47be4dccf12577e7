import type { DeliverWebhookJob } from '#app/jobs/queues.server'
import { processDelivery } from '#app/server/webhooks.server'
import type { ProcessorContext } from '../context'

/**
 * One attempt of a webhook delivery. The attempt number is the last part of the job id
 * (`webhook-<deliveryId>-<attempt>`); retries are scheduled by processDelivery as new delayed jobs.
 */
export async function processWebhookDelivery(data: DeliverWebhookJob, ctx: ProcessorContext) {
  const attempt = Number(/-(\d+)$/.exec(ctx.job.id ?? '')?.[1] ?? 0)
  return processDelivery(data.deliveryId, attempt, ctx.log)
}
