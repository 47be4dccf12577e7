import type { AutopilotPublishJob } from '#app/features/autopilot/settings/jobs/autopilot.server'
import { publishAutopilotPost } from '#app/features/autopilot/autopilot.server'
import type { ProcessorContext } from '#app/platform/queue/processor'

/** A finished Auto Pilot post: one delivery of `post.published` to the user's webhook. */
export async function processAutopilotPublish(data: AutopilotPublishJob, ctx: ProcessorContext) {
  const result = await publishAutopilotPost(data.postId)
  ctx.log('autopilot publish', { postId: data.postId, ...result })
  return result
}
