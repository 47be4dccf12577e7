import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { deletePost } from '#app/features/content/library.server'
import { enqueuePublication } from '#app/features/publishing/jobs/publishing.server'
import { db, schema } from '#app/platform/db/client.server'
import { isUuid } from '#app/platform/security/ids'
import { KIND_LABELS, type DestinationKind } from './publishing'
import type { CopyChoice, DeletingPost, LiveCopy } from './deletion'

/**
 * Deleting a post that has live copies (issue 33): the user says, per copy, what happens to it on the site
 * ('unpublish': back to a draft there, 'delete': deleted there, 'leave': left as it is). The choices go through the
 * publication machinery (a new revision with action 'unpublish' and its `unpublish_mode`); meanwhile the post has
 * `deleting_at` and is hidden from every screen, and it is deleted for good when the last of those copies has come
 * down (publications.server.ts `finish`). A copy that fails to come down keeps the post 'being deleted', shown on
 * the library with 'Try again' and 'Leave it there and delete the post': a post is never lost while a copy it
 * should have taken down is still live.
 */

/**
 * The post's copies that are (or may be becoming) live: published, failed with a remote copy (an update that
 * failed leaves the previous version live), or being published right now.
 */
const liveCondition = sql`(${schema.publications.status} = 'pending'
  or (${schema.publications.status} in ('published', 'failed') and ${schema.publications.remoteId} is not null))`

export async function liveCopiesOf(userId: string, postId: string): Promise<LiveCopy[]> {
  if (!isUuid(postId)) return []
  const rows = await db
    .select({ p: schema.publications, name: schema.destinations.name, kind: schema.destinations.kind })
    .from(schema.publications)
    .innerJoin(schema.destinations, eq(schema.destinations.id, schema.publications.destinationId))
    .where(and(eq(schema.publications.userId, userId), eq(schema.publications.postId, postId), liveCondition))
    .orderBy(schema.destinations.name)
  return rows.map(({ p, name, kind }) => ({
    destinationId: p.destinationId,
    destinationName: name,
    kind: kind as DestinationKind,
    kindLabel: KIND_LABELS[kind as DestinationKind] ?? kind,
    status: p.status as LiveCopy['status'],
    remoteUrl: p.remoteUrl,
  }))
}

export type DeletionResult =
  | { ok: true; deleted: true }
  | { ok: true; deleted: false; copies: LiveCopy[] }
  | { ok: false; reason: 'not_found' }
  /** Live copies without a choice: nothing was done. */
  | { ok: false; reason: 'choices'; copies: LiveCopy[] }

/**
 * Deletes a post, taking its live copies down as chosen (`choices`: destination id → choice). Without live copies
 * the post is deleted at once, as it always was; with some, every one needs a choice. When every choice is 'leave'
 * the post is deleted at once too; otherwise it is marked as being deleted and the copies' unpublish revisions are
 * queued.
 */
export async function deletePostWithCopies(
  userId: string,
  postId: string,
  choices: Record<string, CopyChoice>,
): Promise<DeletionResult> {
  if (!isUuid(postId)) return { ok: false, reason: 'not_found' }
  const [post] = await db
    .select({ id: schema.blogPosts.id, deletingAt: schema.blogPosts.deletingAt })
    .from(schema.blogPosts)
    .where(and(eq(schema.blogPosts.id, postId), eq(schema.blogPosts.userId, userId)))
    .limit(1)
  if (!post || post.deletingAt) return { ok: false, reason: 'not_found' }
  const copies = await liveCopiesOf(userId, postId)
  if (copies.length === 0) return (await deletePost(userId, postId)) ? { ok: true, deleted: true } : notFound
  // A choice for a destination without a live copy (it came down meanwhile) has nothing to do.
  if (copies.some((c) => !choices[c.destinationId])) return { ok: false, reason: 'choices', copies }
  const takeDown = copies.filter((c) => choices[c.destinationId] !== 'leave')
  if (takeDown.length === 0) return (await deletePost(userId, postId)) ? { ok: true, deleted: true } : notFound

  const queued = await db.transaction(async (tx) => {
    // One deletion at a time: a second request (a double click) finds the post being deleted already.
    const marked = await tx
      .update(schema.blogPosts)
      .set({ deletingAt: new Date(), scheduledPublishAt: null, scheduledTargets: null })
      .where(and(eq(schema.blogPosts.id, postId), sql`${schema.blogPosts.deletingAt} is null`))
      .returning({ id: schema.blogPosts.id })
    if (marked.length === 0) return null
    const jobs: Array<{ id: string; revision: number }> = []
    for (const copy of takeDown) {
      const mode = choices[copy.destinationId] === 'delete' ? 'delete' : 'draft'
      const rows = await tx.execute<{ id: string; revision: number }>(sql`
        update ${schema.publications} set status = 'pending', action = 'unpublish', unpublish_mode = ${mode},
          revision = revision + 1, attempts = 0, last_error = null, claimed_by = null, claimed_at = null, claim_expires_at = null,
          updated_at = now()
        where post_id = ${postId} and destination_id = ${copy.destinationId} and user_id = ${userId}
        returning id, revision`)
      jobs.push(...([...rows] as Array<{ id: string; revision: number }>))
    }
    return jobs
  })
  if (!queued) return notFound
  // A job that cannot be queued now is queued again by the sweep (requeueStalledPublications).
  for (const job of queued)
    await enqueuePublication({ publicationId: job.id, revision: job.revision }).catch((error: unknown) =>
      console.error('[publishing] could not queue an unpublish of a deleted post', error),
    )
  return { ok: true, deleted: false, copies: takeDown }
}

const notFound = { ok: false as const, reason: 'not_found' as const }

/**
 * Deletes a post being deleted once none of its copies is still coming down: no publication pending, and none whose
 * unpublish failed (that copy may still be live: the user decides). Called by `finish` after every publication
 * outcome, and when the library shows the posts being deleted. True when the post was deleted.
 */
export async function settleDeletion(postId: string): Promise<boolean> {
  const rows = await db.execute<{ id: string }>(sql`
    delete from ${schema.blogPosts} where id = ${postId} and deleting_at is not null
      and not exists (select 1 from ${schema.publications} where post_id = ${postId}
        and (status = 'pending' or (status = 'failed' and action = 'unpublish')))
    returning id`)
  return [...rows].length > 0
}

/** The user's posts being deleted (those whose copies have all come down are deleted now). */
export async function deletingPosts(userId: string): Promise<DeletingPost[]> {
  const posts = await db
    .select({
      id: schema.blogPosts.id,
      title: schema.blogPosts.title,
      keyword: schema.blogPosts.keyword,
      deletingAt: schema.blogPosts.deletingAt,
    })
    .from(schema.blogPosts)
    .where(and(eq(schema.blogPosts.userId, userId), isNotNull(schema.blogPosts.deletingAt)))
    .orderBy(schema.blogPosts.deletingAt)
    .limit(50)
  if (posts.length === 0) return []
  const pubs = await db
    .select({ p: schema.publications, name: schema.destinations.name, kind: schema.destinations.kind })
    .from(schema.publications)
    .innerJoin(schema.destinations, eq(schema.destinations.id, schema.publications.destinationId))
    .where(
      and(
        inArray(
          schema.publications.postId,
          posts.map((p) => p.id),
        ),
        eq(schema.publications.action, 'unpublish'),
      ),
    )
  const out: DeletingPost[] = []
  for (const post of posts) {
    const mine = pubs.filter((r) => r.p.postId === post.id)
    const blocking = mine.filter((r) => r.p.status === 'pending' || r.p.status === 'failed')
    // Nothing is coming down any more (a destination removed meanwhile, a lost outcome): finish the deletion.
    if (blocking.length === 0 && (await settleDeletion(post.id))) continue
    out.push({
      id: post.id,
      title: post.title || post.keyword,
      since: post.deletingAt!.toISOString(),
      copies: mine.map((r) => ({
        destinationName: r.name,
        kindLabel: KIND_LABELS[r.kind as DestinationKind] ?? r.kind,
        status: r.p.status,
        lastError: r.p.lastError,
      })),
      stuck: blocking.some((r) => r.p.status === 'failed'),
    })
  }
  return out
}

/** 'Try again': the copies that failed to come down get a new unpublish revision (same mode). */
export async function retryDeletion(userId: string, postId: string): Promise<boolean> {
  if (!isUuid(postId)) return false
  const rows = await db.execute<{ id: string; revision: number }>(sql`
    update ${schema.publications} set status = 'pending', revision = revision + 1, attempts = 0, last_error = null,
      claimed_by = null, claimed_at = null, claim_expires_at = null, updated_at = now()
    where post_id = ${postId} and user_id = ${userId} and action = 'unpublish' and status = 'failed'
      and exists (select 1 from ${schema.blogPosts} where id = ${postId} and deleting_at is not null)
    returning id, revision`)
  const jobs = [...rows] as Array<{ id: string; revision: number }>
  for (const job of jobs) await enqueuePublication({ publicationId: job.id, revision: job.revision })
  return jobs.length > 0
}

/**
 * 'Leave it there and delete the post': the user gives up on the copies that failed to come down (they stay on the
 * site as they are). A copy still coming down keeps the post until it is done.
 */
export async function abandonDeletion(userId: string, postId: string): Promise<boolean> {
  if (!isUuid(postId)) return false
  const rows = await db.execute<{ id: string }>(sql`
    delete from ${schema.blogPosts} where id = ${postId} and user_id = ${userId} and deleting_at is not null
      and not exists (select 1 from ${schema.publications} where post_id = ${postId} and status = 'pending')
    returning id`)
  return [...rows].length > 0
}
