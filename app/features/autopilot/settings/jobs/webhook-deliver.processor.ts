import { webhookAttemptOf, type DeliverWebhookJob } from './webhook-delivery.server'
import { processDelivery } from '#app/features/autopilot/settings/webhooks.server'
import type { ProcessorContext } from '#app/platform/queue/processor'

/**
 * One attempt of a webhook delivery. The attempt number is the last part of the job id
 * (`webhook-<deliveryId>-<attempt>`); retries are scheduled by processDelivery as new delayed jobs.
 */
export async function processWebhookDelivery(data: DeliverWebhookJob, ctx: ProcessorContext) {
  return processDelivery(data.deliveryId, webhookAttemptOf(ctx.job), ctx.log)
}
