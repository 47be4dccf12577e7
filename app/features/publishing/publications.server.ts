import { and, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm'
import { httpUrlOrNull, plainField, PUBLISHING_MESSAGES, type PublishTarget } from './publishing'
import { pauseAutopilot } from '#app/features/autopilot/settings/settings.server'
import { bodyWithoutTitle } from '#app/features/content/posts'
import { enqueuePublication } from '#app/features/publishing/jobs/publishing.server'
import { DecryptError } from '#app/platform/security/crypto.server'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv } from '#app/platform/env.server'
import { destinationClient, type Destination } from './destinations.server'
import { emitPostEvent, webhookTargetOf } from './events.server'
import { PublishError, type HttpStats } from './http.server'
import type { RemoteArticle } from './types'

/**
 * Publications: one row per post and destination. A request (publish, update, unpublish) bumps the row's revision
 * and queues a job for that revision; the worker claims the revision, calls the remote and records the answer.
 * Postgres is the source of truth: a lost job is queued again by the periodic sweep, a stale job (an older
 * revision) does nothing, and a claim keeps two workers from calling the remote for the same revision at once.
 * Remote creation is idempotent through the clients' look-up by remote id or slug.
 */

type Post = typeof schema.blogPosts.$inferSelect
type Publication = typeof schema.publications.$inferSelect

export type PublishRequestResult =
  | { ok: true; scheduled: boolean; publicationIds: string[]; webhook: boolean }
  | { ok: false; message: string; status: 400 | 404 }

async function ownedPost(userId: string, postId: string) {
  const [post] = await db
    .select()
    .from(schema.blogPosts)
    .where(and(eq(schema.blogPosts.id, postId), eq(schema.blogPosts.userId, userId)))
    .limit(1)
  return post ?? null
}

async function ownedDestinations(userId: string, ids: string[]) {
  if (ids.length === 0) return []
  return db
    .select()
    .from(schema.destinations)
    .where(and(eq(schema.destinations.userId, userId), inArray(schema.destinations.id, ids)))
}

/**
 * The article a destination receives: sanitized HTML without the title's H1, plus the post's JSON-LD when it has one; the title and the
 * excerpt as plain text (no tags: a CMS stores an editor's title unfiltered and themes print it raw).
 */
export function articleOf(post: Post): RemoteArticle {
  const jsonLd = post.jsonLd
    ? `\n<script type="application/ld+json">${JSON.stringify(post.jsonLd).replace(/</g, '\\u003c')}</script>`
    : ''
  return {
    title: plainField(post.title),
    slug: post.slug,
    html: `${bodyWithoutTitle(post.contentHtml)}${jsonLd}`,
    excerpt: plainField(post.metaDescription),
  }
}

/**
 * Publishes a post now or at `publishAt` to destinations and/or the webhook. `initial` (Auto Pilot) leaves
 * existing publications alone, so a retried run never updates twice; a user's request always sends the current
 * version. `confirmRecreate` re-creates copies that were deleted on the site.
 */
export async function requestPublish(
  userId: string,
  postId: string,
  targets: PublishTarget[],
  opts: { publishAt?: Date; initial?: boolean; confirmRecreate?: boolean } = {},
): Promise<PublishRequestResult> {
  const post = await ownedPost(userId, postId)
  if (!post) return { ok: false, message: 'No blog post found.', status: 404 }
  if (post.status !== 'completed') return { ok: false, message: PUBLISHING_MESSAGES.notReady, status: 400 }
  const destinationIds = targets.filter((t) => t !== 'webhook')
  const destinations = await ownedDestinations(userId, destinationIds)
  if (destinations.length !== destinationIds.length) return { ok: false, message: 'Unknown destination.', status: 400 }
  const webhook = targets.includes('webhook')
  if (webhook && !(await webhookTargetOf(userId)))
    return { ok: false, message: 'Save a webhook URL on the Auto Pilot page first.', status: 400 }

  if (opts.publishAt && opts.publishAt.getTime() > Date.now() + 60_000) {
    await db
      .update(schema.blogPosts)
      .set({ scheduledPublishAt: opts.publishAt, scheduledTargets: targets })
      .where(eq(schema.blogPosts.id, post.id))
    return { ok: true, scheduled: true, publicationIds: [], webhook }
  }
  if (post.scheduledPublishAt)
    await db
      .update(schema.blogPosts)
      .set({ scheduledPublishAt: null, scheduledTargets: null })
      .where(eq(schema.blogPosts.id, post.id))
  const publicationIds = await publishNow(post, destinations, { initial: opts.initial, confirm: opts.confirmRecreate })
  if (webhook) await emitPostEvent(post, 'post.published')
  return { ok: true, scheduled: false, publicationIds, webhook }
}

async function publishNow(post: Post, destinations: Destination[], opts: { initial?: boolean; confirm?: boolean }) {
  const ids: string[] = []
  for (const d of destinations) {
    const rows = opts.initial
      ? await db
          .insert(schema.publications)
          .values({ userId: post.userId, postId: post.id, destinationId: d.id, status: 'pending', action: 'publish' })
          .onConflictDoNothing()
          .returning()
      : await db.execute<{ id: string; revision: number }>(sql`
          insert into ${schema.publications} (user_id, post_id, destination_id, status, action)
          values (${post.userId}, ${post.id}, ${d.id}, 'pending', 'publish')
          on conflict (post_id, destination_id) do update set
            status = case when ${schema.publications}.status = 'missing' and not ${Boolean(opts.confirm)}
                          then 'missing' else 'pending' end,
            remote_id = case when ${schema.publications}.status = 'missing' then null
                             else ${schema.publications}.remote_id end,
            action = case when ${schema.publications}.remote_id is null or ${schema.publications}.status = 'missing'
                          then 'publish' else 'update' end,
            revision = ${schema.publications}.revision + 1,
            attempts = 0, last_error = null, claimed_by = null, claimed_at = null, claim_expires_at = null, updated_at = now()
          where ${schema.publications}.status <> 'missing' or ${Boolean(opts.confirm)}
          returning id, revision`)
    for (const row of [...rows] as Array<{ id: string; revision: number }>) {
      ids.push(row.id)
      await enqueuePublication({ publicationId: row.id, revision: row.revision })
    }
  }
  return ids
}

/** Takes the post down on one destination (revert to draft or delete, per destination) or tells the webhook. */
export async function requestUnpublish(userId: string, postId: string, target: PublishTarget) {
  const post = await ownedPost(userId, postId)
  if (!post) return { ok: false as const, message: 'No blog post found.', status: 404 as const }
  if (target === 'webhook') {
    const sent = await emitPostEvent(post, 'post.unpublished')
    return sent
      ? { ok: true as const }
      : { ok: false as const, message: 'The webhook never received this post.', status: 400 as const }
  }
  const rows = await db.execute<{ id: string; revision: number }>(sql`
    update ${schema.publications} set status = 'pending', action = 'unpublish', revision = revision + 1,
      attempts = 0, last_error = null, claimed_by = null, claimed_at = null, claim_expires_at = null, updated_at = now()
    where post_id = ${post.id} and destination_id = ${target} and user_id = ${userId}
      and remote_id is not null and status in ('published', 'failed')
    returning id, revision`)
  const row = [...rows][0]
  if (!row) return { ok: false as const, message: 'This post is not published there.', status: 400 as const }
  await enqueuePublication({ publicationId: row.id, revision: row.revision })
  return { ok: true as const }
}

export type PublicationView = {
  id: string
  postId: string
  destinationId: string
  destinationName: string
  kind: string
  status: Publication['status']
  action: Publication['action']
  remoteUrl: string | null
  lastError: string | null
  attempts: number
  publishedAt: string | null
  updatedAt: string
}

export async function listPublications(userId: string, postIds: string[]): Promise<PublicationView[]> {
  if (postIds.length === 0) return []
  const rows = await db
    .select({ p: schema.publications, name: schema.destinations.name, kind: schema.destinations.kind })
    .from(schema.publications)
    .innerJoin(schema.destinations, eq(schema.destinations.id, schema.publications.destinationId))
    .where(and(eq(schema.publications.userId, userId), inArray(schema.publications.postId, postIds)))
    .orderBy(desc(schema.publications.updatedAt))
  return rows.map(({ p, name, kind }) => ({
    id: p.id,
    postId: p.postId,
    destinationId: p.destinationId,
    destinationName: name,
    kind,
    status: p.status,
    action: p.action,
    remoteUrl: p.remoteUrl,
    lastError: p.lastError,
    attempts: p.attempts,
    publishedAt: p.publishedAt?.toISOString() ?? null,
    updatedAt: p.updatedAt.toISOString(),
  }))
}

/**
 * Moves a scheduled post to another time (the calendar), or cancels its schedule (`at` null). Only a post that is
 * scheduled can move: a published post stays where it is.
 */
export async function moveScheduled(userId: string, postId: string, at: Date | null) {
  const rows = await db
    .update(schema.blogPosts)
    .set(at ? { scheduledPublishAt: at } : { scheduledPublishAt: null, scheduledTargets: null })
    .where(
      and(
        eq(schema.blogPosts.id, postId),
        eq(schema.blogPosts.userId, userId),
        sql`${schema.blogPosts.scheduledPublishAt} is not null`,
      ),
    )
    .returning({ id: schema.blogPosts.id })
  return rows.length > 0
}

// ---------------------------------------------------------------------------
// The worker's side
// ---------------------------------------------------------------------------

export type ProcessOutcome =
  | { status: 'stale' }
  | { status: 'published' | 'unpublished'; remoteId: string | null; remoteUrl: string | null }
  | { status: 'failed' | 'missing'; error: string }

/**
 * Runs one revision of a publication. Throws (so the job is retried with backoff) while a retryable failure has
 * attempts left or another worker holds a fresh claim; records the final state otherwise.
 */
export async function processPublication(
  data: { publicationId: string; revision: number },
  ctx: { workerId: string; attempt: number; maxAttempts: number; stats?: HttpStats },
): Promise<ProcessOutcome> {
  const leaseMs = getEnv().PUBLISH_CLAIM_LEASE_MS
  let pub = await claimPublication(data, ctx.workerId, leaseMs)
  if (pub === 'stale') return { status: 'stale' }
  if (pub === 'held') {
    // Another worker holds the claim. A live one renews it (the heartbeat below); a dead one's claim runs out within
    // the lease: wait for that once, inside this attempt, rather than spend the job's attempts on a corpse.
    const waitMs = Math.min(await claimExpiresInMs(data.publicationId), leaseMs) + 200
    await new Promise((resolve) => setTimeout(resolve, waitMs))
    pub = await claimPublication(data, ctx.workerId, leaseMs)
    if (pub === 'stale') return { status: 'stale' }
    if (pub === 'held') throw new Error('another worker is publishing this revision; trying again later')
  }
  // The heartbeat: while this worker works on the publication its claim stays fresh; if it dies, the claim expires
  // within PUBLISH_CLAIM_LEASE_MS and the retried job (or the sweep) takes over.
  const claim = pub
  const heartbeat = setInterval(
    () => {
      db.update(schema.publications)
        .set({ claimExpiresAt: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
        .where(
          and(
            eq(schema.publications.id, claim.id),
            eq(schema.publications.revision, claim.revision),
            eq(schema.publications.claimedBy, ctx.workerId),
          ),
        )
        .catch((error: unknown) => console.error('[publishing] could not renew a claim', claim.id, error))
    },
    Math.max(250, Math.floor(leaseMs / 3)),
  )
  heartbeat.unref()
  try {
    return await publishClaimed(claim, ctx)
  } finally {
    clearInterval(heartbeat)
  }
}

/**
 * Claims one revision for this worker (and counts the attempt): the row, 'held' while another worker's claim is
 * fresh, or 'stale' when the revision is no longer the pending one.
 */
async function claimPublication(
  data: { publicationId: string; revision: number },
  workerId: string,
  leaseMs: number,
): Promise<Publication | 'held' | 'stale'> {
  const [claimed] = await db
    .update(schema.publications)
    .set({
      claimedBy: workerId,
      claimedAt: sql`now()`,
      claimExpiresAt: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
      attempts: sql`${schema.publications.attempts} + 1`,
    })
    .where(
      and(
        eq(schema.publications.id, data.publicationId),
        eq(schema.publications.revision, data.revision),
        eq(schema.publications.status, 'pending'),
        // A claim made before claim_expires_at existed (a rolling deploy) holds for the old 120-second lease.
        sql`(${schema.publications.claimExpiresAt} < now() or (${schema.publications.claimExpiresAt} is null and
          (${schema.publications.claimedAt} is null or ${schema.publications.claimedAt} < now() - interval '120 seconds')))`,
      ),
    )
    .returning()
  if (claimed) return claimed
  const [row] = await db
    .select({ revision: schema.publications.revision, status: schema.publications.status })
    .from(schema.publications)
    .where(eq(schema.publications.id, data.publicationId))
    .limit(1)
  return row && row.revision === data.revision && row.status === 'pending' ? 'held' : 'stale'
}

/** How long until the current claim on a publication runs out (by the database's clock, which every worker shares). */
async function claimExpiresInMs(publicationId: string) {
  const [row] = [
    ...(await db.execute<{ ms: number | string | null }>(sql`
      select greatest(0, extract(epoch from (claim_expires_at - now())) * 1000) as ms
      from ${schema.publications} where id = ${publicationId}`)),
  ]
  return Number(row?.ms ?? 0)
}

async function publishClaimed(
  pub: Publication,
  ctx: { workerId: string; attempt: number; maxAttempts: number; stats?: HttpStats },
): Promise<ProcessOutcome> {
  const [post] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, pub.postId)).limit(1)
  const [destination] = await db
    .select()
    .from(schema.destinations)
    .where(eq(schema.destinations.id, pub.destinationId))
    .limit(1)
  if (!post || !destination) return finish(pub, { status: 'failed', error: 'The post or the destination is gone.' })
  if (destination.pausedAt)
    return finish(pub, {
      status: 'failed',
      error: `The destination is paused: ${destination.pausedReason ?? 'it kept failing'}. Resume it first.`,
    })

  try {
    const client = destinationClient(destination, { stats: ctx.stats })
    if (pub.action === 'unpublish') {
      if (pub.remoteId) await client.unpublish(pub.remoteId)
      const deleted = (destination.config as { unpublishMode?: string }).unpublishMode === 'delete'
      await destinationSucceeded(destination)
      return finish(pub, {
        status: 'unpublished',
        remoteId: deleted ? null : pub.remoteId,
        remoteUrl: deleted ? null : pub.remoteUrl,
      })
    }
    const answer = await client.publish(articleOf(post), pub.remoteId)
    // The site's answer is data: a link that is not http(s) (`javascript:…`) is never stored or shown.
    const result = { ...answer, remoteUrl: httpUrlOrNull(answer.remoteUrl) }
    await destinationSucceeded(destination)
    const outcome = await finish(pub, { status: 'published', ...result })
    if (outcome.status === 'published') await afterPublished(post, result.remoteUrl, pub.action === 'update')
    return outcome
  } catch (error) {
    if (error instanceof DecryptError)
      return finish(pub, {
        status: 'failed',
        error: 'The saved credentials can no longer be read (the encryption key changed). Enter them again.',
      })
    if (!(error instanceof PublishError)) throw error
    if (error.kind === 'missing')
      return finish(pub, { status: 'missing', error: PUBLISHING_MESSAGES.missingRemote(destination.name) })
    if (error.retryable && ctx.attempt + 1 < ctx.maxAttempts) {
      await db
        .update(schema.publications)
        .set({
          lastError: error.message,
          claimedBy: null,
          claimedAt: null,
          claimExpiresAt: null,
          updatedAt: new Date(),
        })
        .where(and(eq(schema.publications.id, pub.id), eq(schema.publications.revision, pub.revision)))
      throw error
    }
    await destinationFailed(destination, error)
    return finish(pub, { status: 'failed', error: error.message })
  }
}

async function finish(
  pub: Publication,
  outcome:
    | { status: 'published' | 'unpublished'; remoteId: string | null; remoteUrl: string | null }
    | { status: 'failed' | 'missing'; error: string },
): Promise<ProcessOutcome> {
  const values =
    'error' in outcome
      ? { status: outcome.status, lastError: outcome.error }
      : {
          status: outcome.status,
          remoteId: outcome.remoteId,
          remoteUrl: outcome.remoteUrl,
          lastError: null,
          ...(outcome.status === 'published' ? { publishedAt: pub.publishedAt ?? new Date() } : {}),
        }
  const rows = await db
    .update(schema.publications)
    .set({ ...values, claimedBy: null, claimedAt: null, claimExpiresAt: null, updatedAt: new Date() })
    .where(and(eq(schema.publications.id, pub.id), eq(schema.publications.revision, pub.revision)))
    .returning({ id: schema.publications.id })
  // A newer request arrived while the remote answered: its own job sends the newer version.
  return rows.length ? outcome : { status: 'stale' }
}

/** The first published copy becomes the post's canonical URL; an update tells the webhook (once it knows the post). */
async function afterPublished(post: Post, remoteUrl: string | null, wasUpdate: boolean) {
  await db
    .update(schema.blogPosts)
    .set({
      publishedUrl: sql`coalesce(${schema.blogPosts.publishedUrl}, ${remoteUrl})`,
      publishedAt: sql`coalesce(${schema.blogPosts.publishedAt}, now())`,
    })
    .where(eq(schema.blogPosts.id, post.id))
  if (wasUpdate) await emitPostEvent(post, 'post.updated', { onlyIfKnown: true })
}

async function destinationSucceeded(d: Destination) {
  if (d.failingSince)
    await db
      .update(schema.destinations)
      .set({ failingSince: null, updatedAt: new Date() })
      .where(eq(schema.destinations.id, d.id))
}

/** Errors that will not go away by themselves pause the destination at once; others after a day of failures. */
const PAUSING_KINDS = new Set(['auth', 'permission', 'not_platform', 'blocked', 'tls', 'redirect'])

async function destinationFailed(d: Destination, error: PublishError) {
  const since = d.failingSince ?? new Date()
  const pause = PAUSING_KINDS.has(error.kind) || Date.now() - since.getTime() >= getEnv().WEBHOOK_DISABLE_AFTER_MS
  await db
    .update(schema.destinations)
    .set({
      failingSince: since,
      ...(pause && !d.pausedAt ? { pausedAt: new Date(), pausedReason: error.message } : {}),
      updatedAt: new Date(),
    })
    .where(eq(schema.destinations.id, d.id))
  if (pause && !d.pausedAt && d.autopilot) {
    await pauseAutopilot(d.userId, PUBLISHING_MESSAGES.pausedByDestination(d.name))
  }
}

// ---------------------------------------------------------------------------
// The periodic sweep (every minute, any number of workers)
// ---------------------------------------------------------------------------

/** Publishes posts whose scheduled time has come. Each post is claimed by exactly one worker. */
export async function publishDueScheduled(now = new Date()) {
  // Claim by clearing the time (RETURNING gives the targets, still stored); requestPublish clears the rest.
  const due = await db
    .update(schema.blogPosts)
    .set({ scheduledPublishAt: null })
    .where(
      and(
        lte(schema.blogPosts.scheduledPublishAt, now),
        eq(schema.blogPosts.status, 'completed'),
        sql`${schema.blogPosts.id} in (select id from ${schema.blogPosts} where scheduled_publish_at <= ${now.toISOString()}::timestamptz for update skip locked)`,
      ),
    )
    .returning({
      id: schema.blogPosts.id,
      userId: schema.blogPosts.userId,
      targets: schema.blogPosts.scheduledTargets,
      at: schema.blogPosts.scheduledPublishAt,
    })
  let published = 0
  for (const row of due) {
    const targets = Array.isArray(row.targets) ? (row.targets as string[]) : []
    try {
      const result = await requestPublish(row.userId, row.id, targets)
      await db.update(schema.blogPosts).set({ scheduledTargets: null }).where(eq(schema.blogPosts.id, row.id))
      if (result.ok) published++
      else console.error('[publishing] a scheduled post could not be published', row.id, result.message)
    } catch (error) {
      // Put the schedule back so that the next sweep tries again.
      await db
        .update(schema.blogPosts)
        .set({ scheduledPublishAt: now, scheduledTargets: targets })
        .where(and(eq(schema.blogPosts.id, row.id), isNull(schema.blogPosts.scheduledPublishAt)))
      throw error
    }
  }
  return { due: due.length, published }
}

/**
 * Pending publications nobody is working on are queued again under a new revision (so a job that failed for good
 * cannot block the new one): those whose job was lost (Redis emptied, a crash between commit and enqueue) and those
 * whose claim expired (the worker holding it died), whatever their attempt count: no publication stays
 * 'Publishing…' with no attempt left.
 */
export async function requeueStalledPublications(olderThanMs = 120_000) {
  const rows = await db.execute<{ id: string; revision: number }>(sql`
    update ${schema.publications} set revision = revision + 1, attempts = 0, claimed_by = null, claimed_at = null, claim_expires_at = null,
      updated_at = now()
    where id in (
      select id from ${schema.publications}
      where status = 'pending'
        and ((claimed_by is null and updated_at < now() - make_interval(secs => ${olderThanMs / 1000}))
          or claim_expires_at < now())
      order by updated_at limit 500 for update skip locked)
    returning id, revision`)
  const stuck = [...rows]
  for (const row of stuck) await enqueuePublication({ publicationId: row.id, revision: row.revision })
  return { requeued: stuck.length }
}
