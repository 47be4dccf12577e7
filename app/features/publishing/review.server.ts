import { and, desc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm'
import { markdownDiff, type DiffRow } from './diff'
import {
  passesQualityGate,
  PUBLISHING_MESSAGES,
  unverifiedClaims,
  unverifiedReason,
  type PublishTarget,
  type ReviewSettings,
} from './publishing'
import { findAutopilotSettings, pauseAutopilot } from '#app/features/autopilot/settings/settings.server'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv } from '#app/platform/env.server'
import { mailConfigured, sendMail } from '#app/platform/mail/mail.server'
import { webhookTargetOf } from './events.server'
import { requestPublish } from './publications.server'

/**
 * Review before publishing. Auto Pilot publishes by itself only what passes the bar of the user's review mode;
 * everything else waits in 'Waiting for review' and the user is told by e-mail. Approving publishes (now or on a
 * date), rejecting keeps the keyword from being used again, and three rejections in a row pause Auto Pilot.
 */

type Post = typeof schema.blogPosts.$inferSelect
type Settings = typeof schema.autopilotSettings.$inferSelect

/** Where Auto Pilot publishes: its destinations that are not paused, and the webhook when one is saved. */
export async function autopilotTargets(userId: string): Promise<PublishTarget[]> {
  const rows = await db
    .select({ id: schema.destinations.id })
    .from(schema.destinations)
    .where(
      and(
        eq(schema.destinations.userId, userId),
        eq(schema.destinations.autopilot, true),
        isNull(schema.destinations.pausedAt),
      ),
    )
  const targets: PublishTarget[] = rows.map((r) => r.id)
  if (await webhookTargetOf(userId)) targets.push('webhook')
  return targets
}

export type GateOutcome =
  | { status: 'skipped'; reason: string }
  | { status: 'published'; targets: number }
  | { status: 'waiting'; reasons: string[] }

/**
 * Called once an Auto Pilot post is written. Idempotent: the post's review status is claimed with a conditional
 * update, and publication uses `initial` (an existing publication is left alone), so a retry does nothing twice.
 */
export async function gateAutopilotPost(postId: string): Promise<GateOutcome> {
  const [post] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, postId)).limit(1)
  if (!post || post.source !== 'autopilot' || post.status !== 'completed')
    return { status: 'skipped', reason: 'not a finished Auto Pilot post' }
  const settings = await findAutopilotSettings(post.userId)
  if (!settings?.enabled) return { status: 'skipped', reason: 'auto pilot is off' }

  if (post.reviewStatus === 'approved') return publishApproved(post)
  if (post.reviewStatus) return { status: 'skipped', reason: `already ${post.reviewStatus}` }

  const gate = passesQualityGate(post, settings.minScore)
  // A figure that could not be verified on its source stops Auto Pilot in every mode: a person decides.
  const unverified = unverifiedClaims(post.claims)
  if (unverified === 0 && (settings.reviewMode === 'always' || (settings.reviewMode === 'quality' && gate.passes))) {
    const claimed = await setReview(post.id, 'approved', null)
    if (!claimed) return { status: 'skipped', reason: 'decided by another worker' }
    return publishApproved(post)
  }
  const claimed = await setReview(post.id, 'waiting', null)
  if (!claimed) return { status: 'skipped', reason: 'decided by another worker' }
  const reasons =
    settings.reviewMode === 'quality'
      ? gate.reasons
      : unverified > 0
        ? [unverifiedReason(unverified)]
        : [settings.reviewMode === 'review' ? 'you review every post' : 'drafts wait for your approval']
  await tellReviewWaiting(post, settings, reasons).catch((error: Error) =>
    console.error('[publishing] review e-mail failed', error.message),
  )
  return { status: 'waiting', reasons }
}

async function publishApproved(post: Post): Promise<GateOutcome> {
  const targets = await autopilotTargets(post.userId)
  if (targets.length === 0) return { status: 'skipped', reason: 'no destination' }
  const result = await requestPublish(post.userId, post.id, targets, { initial: true })
  if (!result.ok) return { status: 'skipped', reason: result.message }
  return { status: 'published', targets: targets.length }
}

async function setReview(postId: string, status: 'approved' | 'waiting' | 'rejected', from: 'waiting' | null) {
  const rows = await db
    .update(schema.blogPosts)
    .set({ reviewStatus: status })
    .where(
      and(
        eq(schema.blogPosts.id, postId),
        from === null ? isNull(schema.blogPosts.reviewStatus) : eq(schema.blogPosts.reviewStatus, from),
      ),
    )
    .returning({ id: schema.blogPosts.id })
  return rows.length > 0
}

async function tellReviewWaiting(post: Post, settings: Settings, reasons: string[]) {
  if (!mailConfigured()) return
  const [user] = await db
    .select({ email: schema.users.email, name: schema.users.name })
    .from(schema.users)
    .where(eq(schema.users.id, post.userId))
    .limit(1)
  if (!user) return
  const appUrl = getEnv().APP_URL.replace(/\/+$/, '')
  const link = `${appUrl}/blogpost/${post.id}`
  const when =
    settings.reviewMode === 'auto_approve'
      ? `It will be published automatically in ${settings.approveAfterHours} hours unless you reject it.`
      : 'It will not be published until you approve it.'
  const why = reasons.length ? `It is waiting because ${reasons.join(' and ')}.` : ''
  const text = [
    `Hi${user.name ? ` ${user.name}` : ''},`,
    '',
    `Auto Pilot wrote "${post.title}" for the keyword "${post.keyword}". ${why}`,
    when,
    '',
    `Review it (sign-in required): ${link}`,
    `All drafts waiting for review: ${appUrl}/autopilot#review`,
    '',
    '— Rankwell',
  ].join('\n')
  const esc = (s: string) =>
    s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
  const html = `<p>Hi${user.name ? ` ${esc(user.name)}` : ''},</p><p>Auto Pilot wrote <strong>${esc(post.title)}</strong> for the keyword “${esc(post.keyword)}”. ${esc(why)}</p><p>${esc(when)}</p><p><a href="${esc(link)}">Review the draft</a> (sign-in required) · <a href="${esc(appUrl)}/autopilot#review">All drafts waiting for review</a></p><p>— Rankwell</p>`
  await sendMail({ to: user.email, subject: `A draft is waiting for your review: ${post.title}`, text, html })
}

/**
 * Where an approved post goes: a post already published somewhere (a refreshed one) is updated where it lives;
 * a new draft goes to Auto Pilot's destinations.
 */
async function reviewTargets(post: Post): Promise<PublishTarget[]> {
  const live = await db
    .select({ id: schema.publications.destinationId })
    .from(schema.publications)
    .innerJoin(schema.destinations, eq(schema.destinations.id, schema.publications.destinationId))
    .where(
      and(
        eq(schema.publications.postId, post.id),
        eq(schema.publications.userId, post.userId),
        isNotNull(schema.publications.remoteId),
        inArray(schema.publications.status, ['published', 'pending', 'failed']),
        ne(schema.publications.action, 'unpublish'),
        isNull(schema.destinations.pausedAt),
      ),
    )
  if (live.length) return live.map((r) => r.id)
  return autopilotTargets(post.userId)
}

export type ReviewResult = { ok: true; message: string } | { ok: false; message: string; status: 400 | 404 }

/** Approves a waiting draft: publishes it to Auto Pilot's destinations now, or schedules it. */
export async function approvePost(userId: string, postId: string, publishAt?: Date): Promise<ReviewResult> {
  const [post] = await db
    .select()
    .from(schema.blogPosts)
    .where(
      and(eq(schema.blogPosts.id, postId), eq(schema.blogPosts.userId, userId), isNull(schema.blogPosts.deletingAt)),
    )
    .limit(1)
  if (!post) return { ok: false, message: 'No blog post found.', status: 404 }
  if (post.reviewStatus !== 'waiting')
    return { ok: false, message: 'This draft is not waiting for review.', status: 400 }
  const targets = await reviewTargets(post)
  if (targets.length === 0)
    return { ok: false, message: 'Add a publishing destination or a webhook first.', status: 400 }
  if (!(await setReview(post.id, 'approved', 'waiting')))
    return { ok: false, message: 'This draft is not waiting for review.', status: 400 }
  const result = await requestPublish(userId, post.id, targets, { publishAt })
  if (!result.ok) {
    await setReview(post.id, 'waiting', null).catch(() => {})
    return { ok: false, message: result.message, status: result.status }
  }
  return {
    ok: true,
    message: result.scheduled ? PUBLISHING_MESSAGES.approvedScheduled : PUBLISHING_MESSAGES.approved,
  }
}

/** Rejects a waiting draft; after three rejections in a row Auto Pilot pauses itself. */
export async function rejectPost(userId: string, postId: string): Promise<ReviewResult> {
  const rows = await db
    .update(schema.blogPosts)
    .set({ reviewStatus: 'rejected', scheduledPublishAt: null, scheduledTargets: null })
    .where(
      and(
        eq(schema.blogPosts.id, postId),
        eq(schema.blogPosts.userId, userId),
        eq(schema.blogPosts.reviewStatus, 'waiting'),
        isNull(schema.blogPosts.deletingAt),
      ),
    )
    .returning({ id: schema.blogPosts.id })
  if (!rows.length) return { ok: false, message: 'This draft is not waiting for review.', status: 400 }
  const lastDecisions = await db
    .select({ reviewStatus: schema.blogPosts.reviewStatus })
    .from(schema.blogPosts)
    .where(
      and(
        eq(schema.blogPosts.userId, userId),
        eq(schema.blogPosts.source, 'autopilot'),
        inArray(schema.blogPosts.reviewStatus, ['approved', 'rejected']),
      ),
    )
    .orderBy(desc(schema.blogPosts.completedAt))
    .limit(3)
  if (lastDecisions.length === 3 && lastDecisions.every((d) => d.reviewStatus === 'rejected'))
    await pauseAutopilot(userId, PUBLISHING_MESSAGES.pausedByRejections)
  return { ok: true, message: PUBLISHING_MESSAGES.rejected }
}

/** Saves the review settings (read from the form by `reviewSettingsForm`). */
export async function saveReviewSettings(userId: string, settings: ReviewSettings) {
  await db.insert(schema.autopilotSettings).values({ userId }).onConflictDoNothing()
  await db
    .update(schema.autopilotSettings)
    .set({ ...settings, updatedAt: new Date() })
    .where(eq(schema.autopilotSettings.userId, userId))
}

export type WaitingDraft = {
  id: string
  title: string
  keyword: string
  seoScore: number | null
  /** Claims not verified on their sources (issue 32): Auto Pilot does not publish such a draft. */
  unverified: number
  completedAt: string | null
  autoApproveAt: string | null
  /** A post already live (a refresh): its live copy against this version, for the reviewer (issue 33). */
  diff: DiffRow[]
}

/** Drafts waiting for review, newest first. */
export async function listWaitingDrafts(userId: string, limit = 50): Promise<WaitingDraft[]> {
  const settings = await findAutopilotSettings(userId)
  const rows = await db
    .select()
    .from(schema.blogPosts)
    .where(
      and(
        eq(schema.blogPosts.userId, userId),
        eq(schema.blogPosts.reviewStatus, 'waiting'),
        isNull(schema.blogPosts.deletingAt),
      ),
    )
    .orderBy(desc(schema.blogPosts.completedAt))
    .limit(limit)
  return rows.map((p) => ({
    id: p.id,
    title: p.title || p.keyword,
    keyword: p.keyword,
    seoScore: p.seoScore,
    /** Claims not verified on their source (such a draft is never approved automatically). */
    unverified: unverifiedClaims(p.claims),
    completedAt: p.completedAt?.toISOString() ?? null,
    diff: p.liveMarkdown !== null ? markdownDiff(p.liveMarkdown, p.contentMarkdown) : [],
    autoApproveAt:
      settings?.reviewMode === 'auto_approve' && p.completedAt && unverifiedClaims(p.claims) === 0
        ? new Date(p.completedAt.getTime() + settings.approveAfterHours * 3600_000).toISOString()
        : null,
  }))
}

export async function countWaitingDrafts(userId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(schema.blogPosts)
    .where(
      and(
        eq(schema.blogPosts.userId, userId),
        eq(schema.blogPosts.reviewStatus, 'waiting'),
        isNull(schema.blogPosts.deletingAt),
      ),
    )
  return row?.n ?? 0
}

/**
 * In 'approve automatically after H hours' mode, drafts whose window passed are approved (one worker each), except
 * drafts with a claim not verified on its source (a person decides those).
 */
export async function autoApproveDue(now = new Date()) {
  const due = await db.execute<{ id: string; user_id: string }>(sql`
    update ${schema.blogPosts} p set review_status = 'approved'
    from ${schema.autopilotSettings} s
    where s.user_id = p.user_id and s.review_mode = 'auto_approve' and s.enabled
      and p.review_status = 'waiting' and p.source = 'autopilot' and p.deleting_at is null
      and p.completed_at <= ${now.toISOString()}::timestamptz - make_interval(hours => s.approve_after_hours)
      and not exists (
        select 1 from jsonb_array_elements(case when jsonb_typeof(p.claims) = 'array' then p.claims else '[]'::jsonb end) c
        where c->>'status' = 'unverified' or (c->>'status' is null and coalesce(c->>'sourceUrl', '') = ''))
      and p.id in (select id from ${schema.blogPosts} where review_status = 'waiting' for update skip locked)
    returning p.id, p.user_id`)
  let published = 0
  for (const row of due) {
    const targets = await autopilotTargets(row.user_id)
    if (targets.length === 0) continue
    const result = await requestPublish(row.user_id, row.id, targets, { initial: true })
    if (result.ok) published++
  }
  return { approved: [...due].length, published }
}

/** The user's review settings (with defaults for a user who never opened Auto Pilot). */
export async function reviewSettingsOf(userId: string) {
  const s = await findAutopilotSettings(userId)
  return {
    reviewMode: s?.reviewMode ?? 'quality',
    minScore: s?.minScore ?? 80,
    approveAfterHours: s?.approveAfterHours ?? 24,
  }
}
