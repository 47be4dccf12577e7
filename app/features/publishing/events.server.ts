import { and, eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { createDelivery, postEventBody, type PostEventType } from '#app/features/autopilot/settings/webhooks.server'
import { postMessageId, randomMessageId } from '#app/platform/webhooks/signing.server'
import { webhookImages } from './media.server'

/**
 * Post lifecycle events on the user's Standard Webhooks endpoint: `post.published` once per post (its message id is
 * derived from the post, so a retried run never sends it twice), then `post.updated` and `post.unpublished` for a
 * post the endpoint already knows.
 */
type Post = typeof schema.blogPosts.$inferSelect

/** The user's webhook URL, when one is saved. */
export async function webhookTargetOf(userId: string) {
  const [row] = await db
    .select({ url: schema.autopilotSettings.webhookUrl })
    .from(schema.autopilotSettings)
    .where(eq(schema.autopilotSettings.userId, userId))
    .limit(1)
  return row?.url ?? null
}

async function endpointKnowsPost(post: Post) {
  const [row] = await db
    .select({ id: schema.webhookDeliveries.id })
    .from(schema.webhookDeliveries)
    .where(
      and(
        eq(schema.webhookDeliveries.postId, post.id),
        eq(schema.webhookDeliveries.messageId, postMessageId(post.id, 'post.published')),
      ),
    )
    .limit(1)
  return Boolean(row)
}

/** Sends one lifecycle event; false when there is no webhook or (for updates) the endpoint never got the post. */
export async function emitPostEvent(post: Post, type: PostEventType, opts: { onlyIfKnown?: boolean } = {}) {
  const url = await webhookTargetOf(post.userId)
  if (!url) return false
  if ((type !== 'post.published' || opts.onlyIfKnown) && !(await endpointKnowsPost(post))) return false
  // Re-read the post so that the event carries what is stored now (score, URL, latest edit).
  const [current] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id)).limit(1)
  if (!current) return false
  await createDelivery({
    userId: post.userId,
    messageId: type === 'post.published' ? postMessageId(post.id, type) : randomMessageId(),
    eventType: type,
    postId: post.id,
    url,
    body: postEventBody(type, current, new Date(), type === 'post.unpublished' ? {} : await webhookImages(current.id)),
  })
  return true
}
