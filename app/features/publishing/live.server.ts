import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { isUuid } from '#app/platform/security/ids'
import { markdownDiff, type DiffRow } from './diff'
import { requestPublish, type PublishRequestResult } from './publications.server'
import { KIND_LABELS, type DestinationKind } from './publishing'

/**
 * 'Update the live copy' (issue 33): after an edit (editor save, section rewrite, restore, refresh) a post that is
 * live on a destination differs from what its readers see. `live_markdown` is the Markdown last sent
 * (publications.server.ts `afterPublished`); the offer shows while the post's Markdown differs from it.
 */

export type LiveDestination = { destinationId: string; destinationName: string; kindLabel: string }

type PostVersions = {
  id: string
  contentMarkdown: string
  liveMarkdown: string | null
  editedAt: Date | null
  publishedAt: Date | null
}

/** True when the post was changed since its live copy was sent. */
export function liveCopyOutdated(post: PostVersions) {
  // Published before live_markdown existed: an edit after the first publication is the best sign there is.
  if (post.liveMarkdown === null) return Boolean(post.editedAt && post.publishedAt && post.editedAt > post.publishedAt)
  return post.liveMarkdown !== post.contentMarkdown
}

/** The destinations where the post is live (published, or failed with its previous version still there). */
export async function liveDestinations(userId: string, postId: string): Promise<LiveDestination[]> {
  if (!isUuid(postId)) return []
  const rows = await db
    .select({ id: schema.destinations.id, name: schema.destinations.name, kind: schema.destinations.kind })
    .from(schema.publications)
    .innerJoin(schema.destinations, eq(schema.destinations.id, schema.publications.destinationId))
    .where(
      and(
        eq(schema.publications.userId, userId),
        eq(schema.publications.postId, postId),
        inArray(schema.publications.status, ['published', 'failed']),
        isNotNull(schema.publications.remoteId),
      ),
    )
    .orderBy(schema.destinations.name)
  return rows.map((r) => ({
    destinationId: r.id,
    destinationName: r.name,
    kindLabel: KIND_LABELS[r.kind as DestinationKind] ?? r.kind,
  }))
}

/** The destinations whose live copy is older than the post (none when the post has not changed since). */
export async function outdatedLiveCopies(userId: string, post: PostVersions): Promise<LiveDestination[]> {
  if (!liveCopyOutdated(post)) return []
  return liveDestinations(userId, post.id)
}

/** The diff of the live copy and the post as it is now (empty when unknown or equal). */
export function liveDiff(post: Pick<PostVersions, 'contentMarkdown' | 'liveMarkdown'>): DiffRow[] {
  if (post.liveMarkdown === null) return []
  return markdownDiff(post.liveMarkdown, post.contentMarkdown)
}

/** 'Update the live copy': an update of every destination where the post is live. */
export async function updateLiveCopies(userId: string, postId: string): Promise<PublishRequestResult> {
  const targets = await liveDestinations(userId, postId)
  if (targets.length === 0) return { ok: false, message: 'This post is not live anywhere.', status: 400 }
  return requestPublish(
    userId,
    postId,
    targets.map((t) => t.destinationId),
  )
}
