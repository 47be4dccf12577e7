import { clockNow } from '#app/platform/clock.server'
import type { ProcessorContext } from '#app/platform/queue/processor'
import { aiVisibilityTick } from '../checks.server'
import type { AiVisibilityTickJob } from './visibility.server'

/** The hourly AI visibility tick: plans the day and works through its share of the AI checks. */
export async function processAiVisibilityTick(data: AiVisibilityTickJob, ctx: ProcessorContext) {
  const result = await aiVisibilityTick(clockNow(data.now))
  ctx.log('ai visibility tick', result)
  return result
}
