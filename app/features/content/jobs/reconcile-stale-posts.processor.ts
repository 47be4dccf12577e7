import { reconcileStalePosts } from '#app/features/content/posts.server'
import type { ProcessorContext } from '#app/platform/queue/processor'

/**
 * The repeatable maintenance job (every POST_RECONCILE_EVERY_MS): posts stuck in queued/generating whose job Redis
 * no longer has are queued again. Safe to run on several workers at once.
 */
export async function processReconcileStalePosts(_data: unknown, ctx: ProcessorContext) {
  const result = await reconcileStalePosts()
  if (result.requeued || result.failed) ctx.log('stale posts reconciled', result)
  return result
}
