import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm'
import { isUuid } from '#app/platform/security/ids'
import { stripControlCharacters } from '#app/platform/security/safe-text'
import {
  enqueueGeneratePost,
  generatePostJobState,
  requeueGeneratePost,
} from '#app/features/content/jobs/post-generation.server'
import { NOT_QUEUED_REASON, POST_MESSAGES, type PostStatus } from './posts'
import { findOverlap, type Overlap } from './cannibalisation.server'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv } from '#app/platform/env.server'
import { aiConfigured } from '#app/platform/ai/openai.server'
import { consumeQuota, refundQuota } from '#app/features/billing/quota.server'

/**
 * Blog posts: creating one (quota, idempotency, the generation job), reading them for the library, the post page
 * and the API, and the bookkeeping of failures (mark failed + give the quota unit back, exactly once).
 * The generation itself is in posts-pipeline.server.ts, run by the worker (its queue: app/jobs/post-generation).
 */
const posts = schema.blogPosts

export { isUuid } from '#app/platform/security/ids'

export { POST_MESSAGES }

/**
 * `status` is the post's real state: a repeated request reports where its post is (queued, generating, completed or
 * failed), never 'queued' for a post that is not.
 */
export type CreatePostResult =
  | { ok: true; postId: string; created: boolean; status: PostStatus; failureReason: string | null }
  | { ok: false; reason: 'quota' | 'not_found' | 'unavailable' | 'in_progress' }
  | { ok: false; reason: 'overlap'; overlap: Overlap }

/** The index that allows one post per user and keyword being written at a time (migration 0013_failures). */
export const ONE_IN_PROGRESS_INDEX = 'blog_posts_one_in_progress_idx'

/** True for the unique violation of ONE_IN_PROGRESS_INDEX (a second post raced the first one). */
export function isInProgressConflict(error: unknown): boolean {
  for (
    let e = error as { code?: string; constraint_name?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  )
    if (e.code === '23505' && e.constraint_name === ONE_IN_PROGRESS_INDEX) return true
  return false
}

class QuotaExceeded extends Error {}

/** A cluster post covers at most this many sibling keywords besides its main keyword (issue 36). */
export const MAX_SECONDARY_KEYWORDS = 10
export const MAX_SECONDARY_KEYWORD_LENGTH = 200

/**
 * The sibling keywords a post covers, cleaned: control characters removed, spaces collapsed, empty ones, ones longer
 * than MAX_SECONDARY_KEYWORD_LENGTH, repeats and the main keyword itself dropped (case-insensitive); the first
 * MAX_SECONDARY_KEYWORDS kept.
 */
export function cleanSecondaryKeywords(list: readonly unknown[] | undefined, mainKeyword: string): string[] {
  const seen = new Set([mainKeyword.trim().toLocaleLowerCase('en-US').replace(/\s+/g, ' ')])
  const out: string[] = []
  for (const value of list ?? []) {
    if (typeof value !== 'string') continue
    const keyword = stripControlCharacters(value).replace(/\s+/g, ' ').trim()
    if (!keyword || keyword.length > MAX_SECONDARY_KEYWORD_LENGTH) continue
    const key = keyword.toLocaleLowerCase('en-US')
    if (seen.has(key)) continue
    seen.add(key)
    out.push(keyword)
    if (out.length === MAX_SECONDARY_KEYWORDS) break
  }
  return out
}

/**
 * Whether another request's post for this keyword is still queued or being written (false for a repeat of a
 * request that has its post already: that one is answered with its post's state).
 */
async function keywordInProgress(userId: string, keywordId: string, requestKey: string) {
  const earlier = await db
    .select({ status: posts.status, requestKey: posts.requestKey })
    .from(posts)
    .where(and(eq(posts.userId, userId), eq(posts.keywordId, keywordId)))
  if (earlier.some((p) => p.requestKey === requestKey)) return false
  return earlier.some((p) => p.status === 'queued' || p.status === 'generating')
}

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
  /**
   * Issue 36: a cluster's post: the sibling keywords the post also covers (its brief lists them as related searches).
   * At most 10, each at most 200 characters; cleaned by `cleanSecondaryKeywords`.
   */
  secondaryKeywords?: string[]
}): Promise<CreatePostResult> {
  const requestKey = stripControlCharacters(input.requestKey).trim().slice(0, 200)
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

  // One post per keyword at a time (the unique index below makes this atomic); a finished one is caught by the
  // overlap check (the user confirms or updates it). A repeat of the same request is answered further down.
  if (await keywordInProgress(input.userId, keyword.id, requestKey)) return { ok: false, reason: 'in_progress' }

  if (input.source === 'manual' && !input.force) {
    // A repeat of this very request (its post may already exist) is not an overlap with itself.
    const overlap = await findOverlap(input.userId, keyword.keyword, { exceptRequestKey: requestKey })
    if (overlap) {
      // Another tab's request for this keyword may have started its post since the check above: that is 'in progress'.
      if (await keywordInProgress(input.userId, keyword.id, requestKey)) return { ok: false, reason: 'in_progress' }
      return { ok: false, reason: 'overlap', overlap }
    }
  }

  let outcome: { postId: string; created: boolean; status: PostStatus; failureReason: string | null }
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
          secondaryKeywords: cleanSecondaryKeywords(input.secondaryKeywords, keyword.keyword),
        })
        .onConflictDoNothing({ target: [posts.userId, posts.requestKey] })
        .returning({ id: posts.id })
      if (!inserted) {
        const [existing] = await tx
          .select({ id: posts.id, status: posts.status, failureReason: posts.failureReason })
          .from(posts)
          .where(and(eq(posts.userId, input.userId), eq(posts.requestKey, requestKey)))
          .limit(1)
        if (!existing) throw new Error('post vanished during creation')
        return { postId: existing.id, created: false, status: existing.status, failureReason: existing.failureReason }
      }
      const quota = await consumeQuota(input.userId, 'blogPosts', tx)
      if (!quota.ok) throw new QuotaExceeded()
      return { postId: inserted.id, created: true, status: 'queued' as const, failureReason: null }
    })
  } catch (error) {
    if (error instanceof QuotaExceeded) return { ok: false, reason: 'quota' }
    if (isInProgressConflict(error)) {
      // Two copies of one request raced (a double submit): the copy that lost may have hit the one-in-progress index
      // rather than the request key's. It answers with the winner's post, as a later repeat would.
      const [same] = await db
        .select({ id: posts.id, status: posts.status, failureReason: posts.failureReason })
        .from(posts)
        .where(and(eq(posts.userId, input.userId), eq(posts.requestKey, requestKey)))
        .limit(1)
      if (same)
        return { ok: true, postId: same.id, created: false, status: same.status, failureReason: same.failureReason }
      return { ok: false, reason: 'in_progress' }
    }
    console.error('[posts] could not create a post', error)
    return { ok: false, reason: 'unavailable' }
  }

  const { postId } = outcome
  if (!outcome.created) {
    // A repeat of a request that failed only because the queue was unreachable (it answered 503 and gave the unit
    // back): this one starts the post, as 'Try again' would, and answers like a first request.
    if (outcome.status === 'failed' && outcome.failureReason === NOT_QUEUED_REASON) {
      const retried = await retryPost(input.userId, postId)
      if (retried.ok) return { ok: true, postId, created: false, status: 'queued', failureReason: null }
      if (retried.reason !== 'not_found') return retried
      // Another repeat got there first: report where the post is now.
      const now = await getPost(input.userId, postId)
      if (!now) return { ok: false, reason: 'not_found' }
      return { ok: true, postId, created: false, status: now.status, failureReason: now.failureReason }
    }
    // A queued post whose job may never have reached the queue (Redis hiccup) is queued now; the job id makes this
    // idempotent, and if Redis is still away the stale-post reconciliation queues it later.
    if (outcome.status === 'queued') {
      await enqueueGeneratePost({ postId }).catch((error: unknown) =>
        console.error('[posts] could not enqueue the generation job', error),
      )
    }
    return { ok: true, postId, created: false, status: outcome.status, failureReason: outcome.failureReason }
  }
  try {
    await enqueueGeneratePost({ postId })
  } catch (error) {
    console.error('[posts] could not enqueue the generation job', error)
    await markPostFailed(postId, NOT_QUEUED_REASON).catch(() => {})
    return { ok: false, reason: 'unavailable' }
  }
  return { ok: true, postId, created: true, status: 'queued', failureReason: null }
}

/**
 * 'Try again' on a failed post: takes a quota unit again (it was given back when the post failed), puts the post
 * back in the queue and re-enqueues its job. Checkpointed steps are kept, so work already paid for is reused.
 */
export async function retryPost(
  userId: string,
  postId: string,
): Promise<{ ok: true } | { ok: false; reason: 'quota' | 'not_found' | 'unavailable' | 'in_progress' }> {
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
    if (isInProgressConflict(error)) return { ok: false, reason: 'in_progress' }
    console.error('[posts] could not retry a post', error)
    return { ok: false, reason: 'unavailable' }
  }
  try {
    await requeueGeneratePost({ postId })
  } catch (error) {
    console.error('[posts] could not re-enqueue the generation job', error)
    await markPostFailed(postId, NOT_QUEUED_REASON).catch(() => {})
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

/** One post of this user, or null (unknown id, malformed id, or someone else's post). */
export async function getPost(userId: string, postId: string) {
  if (!isUuid(postId)) return null
  // A post being deleted (issue 33) answers 'No blog post found.' everywhere.
  const [post] = await db
    .select()
    .from(posts)
    .where(and(eq(posts.id, postId), eq(posts.userId, userId), isNull(posts.deletingAt)))
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
