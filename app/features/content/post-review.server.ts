import { and, eq, isNull, sql } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { isUuid } from '#app/platform/security/ids'

/**
 * 'Mark as reviewed' (issue 35): the owner read and checked a finished post on its page. Sets or clears
 * `blog_posts.reviewed_at`; the 'Get started' checklist counts a post as reviewed when `reviewed_at` is set or its
 * review (before publishing) was approved. Only the owner's finished posts, not one being deleted; false otherwise.
 */
const posts = schema.blogPosts

async function setReviewed(userId: string, postId: string, reviewed: boolean): Promise<boolean> {
  if (!isUuid(postId)) return false
  const rows = await db
    .update(posts)
    // A second 'Mark as reviewed' keeps the first time.
    .set({ reviewedAt: reviewed ? sql`coalesce(${posts.reviewedAt}, now())` : null })
    .where(and(eq(posts.id, postId), eq(posts.userId, userId), eq(posts.status, 'completed'), isNull(posts.deletingAt)))
    .returning({ id: posts.id })
  return rows.length > 0
}

export const markPostReviewed = (userId: string, postId: string) => setReviewed(userId, postId, true)
export const unmarkPostReviewed = (userId: string, postId: string) => setReviewed(userId, postId, false)
