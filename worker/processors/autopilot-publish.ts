import type { AutopilotPublishJob } from '#app/jobs/autopilot.server'
import { publishAutopilotPost } from '#app/server/autopilot.server'
import type { ProcessorContext } from '../context'

/** A finished Auto Pilot post: one delivery of `post.published` to the user's webhook. */
export async function processAutopilotPublish(data: AutopilotPublishJob, ctx: ProcessorContext) {
  const result = await publishAutopilotPost(data.postId)
  ctx.log('autopilot publish', { postId: data.postId, ...result })
  return result
}
