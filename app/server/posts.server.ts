import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm'
import { enqueueGeneratePost, generatePostJobState, requeueGeneratePost } from '#app/jobs/post-generation.server'
import { excerpt, POST_MESSAGES, type PostStatus } from '#app/lib/posts'
import { findOverlap, type Overlap } from './cannibalisation.server'
import { db, schema } from './db.server'
import { getEnv } from './env.server'
import { aiConfigured } from './openai.server'
import { consumeQuota, refundQuota } from './quota.server'

/**
 * Blog posts: creating one (quota, idempotency, the generation job), reading them for the library, the post page
 * and the API, and the bookkeeping of failures (mark failed + give the quota unit back, exactly once).
 * The generation itself is in posts-pipeline.server.ts, run by the worker (its queue: app/jobs/post-generation).
 */
const posts = schema.blogPosts

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isUuid = (value: string) => UUID.test(value)

export { POST_MESSAGES }

export type CreatePostResult =
  | { ok: true; postId: string; created: boolean }
  | { ok: false; reason: 'quota' | 'not_found' | 'unavailable' }
  | { ok: false; reason: 'overlap'; overlap: Overlap }

class QuotaExceeded extends Error {}

/**
 * Creates a post for a saved keyword and enqueues its generation. The post row (unique per user and request key)
 * and the quota unit are written in one transaction, so a repeated request (double click, second tab, client
 * retry) neither charges nor enqueues twice: it answers with the existing post (`created: false`).
 */
export async function createPost(input: {
  userId: string
  keywordId: string
  requestKey: string
  source: 'manual' | 'autopilot'
  /**
   * Write it even when the user already has a post or page for a very similar search. Without it, a manual request
   * for such a keyword answers 'overlap' (Auto Pilot runs its own check and skips the keyword).
   */
  force?: boolean
}): Promise<CreatePostResult> {
  const requestKey = input.requestKey.trim().slice(0, 200)
  if (!isUuid(input.keywordId) || !requestKey) return { ok: false, reason: 'not_found' }
  if (!aiConfigured()) return { ok: false, reason: 'unavailable' }

  const [keyword] = await db
    .select({
      id: schema.savedKeywords.id,
      keyword: schema.savedKeywords.keyword,
      languageName: schema.savedKeywords.languageName,
    })
    .from(schema.savedKeywords)
    .where(and(eq(schema.savedKeywords.id, input.keywordId), eq(schema.savedKeywords.userId, input.userId)))
    .limit(1)
  if (!keyword) return { ok: false, reason: 'not_found' }

  if (input.source === 'manual' && !input.force) {
    // A repeat of this very request (its post may already exist) is not an overlap with itself.
    const overlap = await findOverlap(input.userId, keyword.keyword, { exceptRequestKey: requestKey })
    if (overlap) return { ok: false, reason: 'overlap', overlap }
  }

  let outcome: { postId: string; created: boolean; status: PostStatus }
  try {
    outcome = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(posts)
        .values({
          userId: input.userId,
          keywordId: keyword.id,
          requestKey,
          source: input.source,
          keyword: keyword.keyword,
          language: keyword.languageName || 'English',
          title: keyword.keyword,
        })
        .onConflictDoNothing({ target: [posts.userId, posts.requestKey] })
        .returning({ id: posts.id })
      if (!inserted) {
        const [existing] = await tx
          .select({ id: posts.id, status: posts.status })
          .from(posts)
          .where(and(eq(posts.userId, input.userId), eq(posts.requestKey, requestKey)))
          .limit(1)
        if (!existing) throw new Error('post vanished during creation')
        return { postId: existing.id, created: false, status: existing.status }
      }
      const quota = await consumeQuota(input.userId, 'blogPosts', tx)
      if (!quota.ok) throw new QuotaExceeded()
      return { postId: inserted.id, created: true, status: 'queued' as const }
    })
  } catch (error) {
    if (error instanceof QuotaExceeded) return { ok: false, reason: 'quota' }
    console.error('[posts] could not create a post', error)
    return { ok: false, reason: 'unavailable' }
  }

  // A repeat of a request whose job never got queued (Redis hiccup) queues it now; the job id makes this idempotent.
  if (!outcome.created && outcome.status !== 'queued') return { ok: true, postId: outcome.postId, created: false }
  try {
    await enqueueGeneratePost({ postId: outcome.postId })
  } catch (error) {
    console.error('[posts] could not enqueue the generation job', error)
    if (outcome.created) {
      await markPostFailed(outcome.postId, 'We could not start writing this post.').catch(() => {})
      return { ok: false, reason: 'unavailable' }
    }
  }
  return { ok: true, postId: outcome.postId, created: outcome.created }
}

/**
 * 'Try again' on a failed post: takes a quota unit again (it was given back when the post failed), puts the post
 * back in the queue and re-enqueues its job. Checkpointed steps are kept, so work already paid for is reused.
 */
export async function retryPost(
  userId: string,
  postId: string,
): Promise<{ ok: true } | { ok: false; reason: 'quota' | 'not_found' | 'unavailable' }> {
  if (!isUuid(postId)) return { ok: false, reason: 'not_found' }
  if (!aiConfigured()) return { ok: false, reason: 'unavailable' }
  try {
    const retried = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(posts)
        .set({ status: 'queued', failureReason: null, quotaRefunded: false, completedAt: null })
        .where(and(eq(posts.id, postId), eq(posts.userId, userId), eq(posts.status, 'failed')))
        .returning({ id: posts.id })
      if (!row) return false
      const quota = await consumeQuota(userId, 'blogPosts', tx)
      if (!quota.ok) throw new QuotaExceeded()
      return true
    })
    if (!retried) return { ok: false, reason: 'not_found' }
  } catch (error) {
    if (error instanceof QuotaExceeded) return { ok: false, reason: 'quota' }
    console.error('[posts] could not retry a post', error)
    return { ok: false, reason: 'unavailable' }
  }
  try {
    await requeueGeneratePost({ postId })
  } catch (error) {
    console.error('[posts] could not re-enqueue the generation job', error)
    await markPostFailed(postId, 'We could not start writing this post.').catch(() => {})
    return { ok: false, reason: 'unavailable' }
  }
  return { ok: true }
}

/**
 * Marks a post failed with a reason the user can read and gives its quota unit back, exactly once: the flag and
 * the refund change in one transaction, guarded by `quota_refunded = false`. A completed post is never touched.
 */
export async function markPostFailed(postId: string, reason: string): Promise<{ refunded: boolean }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(posts)
      .set({ status: 'failed', failureReason: reason, quotaRefunded: true })
      .where(and(eq(posts.id, postId), eq(posts.quotaRefunded, false), sql`${posts.status} <> 'completed'`))
      .returning({ userId: posts.userId })
    if (row) {
      await refundQuota(row.userId, 'blogPosts', tx)
      return { refunded: true }
    }
    // Already given back (so already failed): the first reason stays.
    await tx
      .update(posts)
      .set({ status: 'failed', failureReason: reason })
      .where(and(eq(posts.id, postId), inArray(posts.status, ['queued', 'generating'])))
    return { refunded: false }
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------------------------

export type PostCard = {
  id: string
  title: string
  keyword: string
  status: PostStatus
  failureReason: string | null
  createdAt: string
  excerpt: string
  seoScore: number | null
}

/** The library: the user's posts, newest first, with plain-text excerpts. */
export async function listPostCards(userId: string): Promise<PostCard[]> {
  const rows = await db
    .select({
      id: posts.id,
      title: posts.title,
      keyword: posts.keyword,
      status: posts.status,
      failureReason: posts.failureReason,
      createdAt: posts.createdAt,
      head: sql<string>`left(${posts.contentMarkdown}, 4000)`,
      seoScore: posts.seoScore,
    })
    .from(posts)
    .where(eq(posts.userId, userId))
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(500)
  return rows.map((r) => ({
    id: r.id,
    title: r.title || r.keyword,
    keyword: r.keyword,
    status: r.status,
    failureReason: r.failureReason,
    createdAt: r.createdAt.toISOString(),
    excerpt: r.status === 'completed' ? excerpt(r.head, { title: r.title }) : '',
    seoScore: r.status === 'completed' ? r.seoScore : null,
  }))
}

/** Full posts for the API, newest first. */
export async function listPosts(userId: string) {
  return db
    .select({
      id: posts.id,
      title: posts.title,
      keyword: posts.keyword,
      content: posts.contentMarkdown,
      status: posts.status,
      failureReason: posts.failureReason,
      createdAt: posts.createdAt,
      seoScore: posts.seoScore,
      seoChecklist: posts.seoChecklist,
      claims: posts.claims,
      jsonLd: posts.jsonLd,
      researchStatus: posts.researchStatus,
    })
    .from(posts)
    .where(eq(posts.userId, userId))
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(500)
}

/** One post of this user, or null (unknown id, malformed id, or someone else's post). */
export async function getPost(userId: string, postId: string) {
  if (!isUuid(postId)) return null
  const [post] = await db
    .select()
    .from(posts)
    .where(and(eq(posts.id, postId), eq(posts.userId, userId)))
    .limit(1)
  return post ?? null
}

/**
 * A safety net for posts left behind by a lost job (Redis failed over and lost the queue, a worker that stalled too
 * often, a job removed by hand): Postgres is the source of truth. A post still queued or generating
 * `POST_STALE_AFTER_MS` after its creation whose job is gone is queued again; one whose job failed is marked failed
 * (and its quota unit given back). Run by the worker's repeatable 'reconcile-stale-posts' job; idempotent, so
 * several workers may run it at once (the job id of a post's job is fixed, and marking failed happens once).
 */
export async function reconcileStalePosts({ limit = 100 }: { limit?: number } = {}) {
  const stale = await db
    .select({ id: posts.id })
    .from(posts)
    .where(
      and(
        inArray(posts.status, ['queued', 'generating']),
        lt(posts.createdAt, new Date(Date.now() - getEnv().POST_STALE_AFTER_MS)),
      ),
    )
    .orderBy(posts.createdAt)
    .limit(limit)
  let requeued = 0
  let failed = 0
  for (const { id } of stale) {
    const state = await generatePostJobState(id)
    if (state === 'unknown') {
      await enqueueGeneratePost({ postId: id })
      requeued++
    } else if (state === 'failed') {
      await markPostFailed(id, 'Writing this post stopped unexpectedly.')
      failed++
    }
  }
  return { checked: stale.length, requeued, failed }
}
