import OpenAI from 'openai'
import { parseRetryAfter } from '#app/platform/http/http-retry'
import { pausePostGeneration, type GeneratePostJob } from './post-generation.server'
import { markPostFailed } from '#app/features/content/posts.server'
import { failureReason, generatePost, isFinalError } from '#app/features/content/posts-pipeline.server'
import { rateLimitedJob, UnrecoverableError, type ProcessorContext } from '#app/platform/queue/processor'

/**
 * The 'generate-post' job. Outcomes:
 * - success: the post is written once; an Auto Pilot post is handed on for publishing.
 * - 429 or timeout from the model: the whole queue pauses for a while (BullMQ manual rate limit) and the job goes
 *   back to waiting without using up an attempt; checkpoints mean nothing already answered is asked again.
 * - other errors: retried with exponential backoff (the queue's defaults), unless no retry can help.
 * - the last attempt failed, or the error is final: the post is marked failed with a readable reason and its
 *   quota unit is given back (exactly once), and the job fails without further retries.
 */
const MAX_SLOWDOWNS = 20
const MAX_SLOWDOWN_MS = 60_000

/** How long to pause the queue for a 429 or a timeout, or null when the error is not of that kind. */
export function slowDownMs(error: unknown, slowdowns: number): number | null {
  const backoff = Math.min(MAX_SLOWDOWN_MS, 1_000 * 2 ** Math.min(slowdowns, 6))
  if (error instanceof OpenAI.APIConnectionTimeoutError) return backoff
  if (!(error instanceof OpenAI.APIError) || error.status !== 429 || error.code === 'insufficient_quota') return null
  const headers = error.headers
  const ms = Number(headers?.get('retry-after-ms'))
  if (Number.isFinite(ms) && ms > 0) return Math.min(MAX_SLOWDOWN_MS, Math.max(ms, 250))
  const retryAfter = parseRetryAfter(headers?.get('retry-after'))
  if (retryAfter) return Math.min(MAX_SLOWDOWN_MS, retryAfter)
  return backoff
}

/**
 * The processor of 'generate-post'. `onAutopilotPostWritten` hands a finished Auto Pilot post on for publishing: the
 * worker wires it to Auto Pilot's queue (Auto Pilot sits above content, so content does not import it).
 */
export function generatePostProcessor(hooks: { onAutopilotPostWritten: (postId: string) => Promise<unknown> }) {
  return (data: GeneratePostJob, ctx: ProcessorContext) => processGeneratePost(data, ctx, hooks)
}

async function processGeneratePost(
  data: GeneratePostJob,
  ctx: ProcessorContext,
  hooks: { onAutopilotPostWritten: (postId: string) => Promise<unknown> },
) {
  const { job } = ctx
  try {
    const result = await generatePost(data.postId)
    if ((result.outcome === 'completed' || result.outcome === 'already-completed') && result.source === 'autopilot')
      await hooks.onAutopilotPostWritten(data.postId)
    ctx.log('post generated', { postId: data.postId, outcome: result.outcome })
    return result
  } catch (error) {
    // Starts that ended neither in success nor in a counted failure: rate-limit pauses (and stalls).
    const slowdowns = Math.max(0, (job.attemptsStarted ?? 0) - job.attemptsMade - 1)
    const pause = slowDownMs(error, slowdowns)
    if (pause !== null && slowdowns < MAX_SLOWDOWNS) {
      ctx.log('model asks us to slow down: pausing the post queue', { postId: data.postId, ms: pause })
      await pausePostGeneration(pause)
      throw rateLimitedJob()
    }
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1)
    if (isFinalError(error) || lastAttempt) {
      const reason = failureReason(error)
      await markPostFailed(data.postId, reason)
      ctx.log('post failed', { postId: data.postId, reason, error: (error as Error).message })
      throw new UnrecoverableError(reason)
    }
    throw error
  }
}
