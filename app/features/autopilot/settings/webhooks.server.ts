import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import { formatWindow, retryDelayMs } from './autopilot'
import { postMessageId, randomMessageId, signWebhook } from '#app/platform/webhooks/signing.server'
import { isUuid } from '#app/platform/security/ids'
import { isRetryableStatus, parseRetryAfter } from '#app/platform/http/http-retry'
import {
  enqueueWebhookDelivery,
  removeWebhookDeliveryJob,
} from '#app/features/autopilot/settings/jobs/webhook-delivery.server'
import { findAutopilotSettings, webhookSecretOf } from './settings.server'
import { DecryptError } from '#app/platform/security/crypto.server'
import { bodyWithoutTitle, markdownWithoutTitle } from '#app/features/content/posts'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv } from '#app/platform/env.server'
import { plainField, safeSlug } from '#app/platform/security/plain-field'
import { jsonLdObjectsOf } from '#app/platform/seo/json-ld'
import { observeProvider } from '#app/platform/observability/metrics.server'
import {
  allowPrivateNetworks,
  BlockedAddressError,
  guardedPost,
  RequestTimeoutError,
} from '#app/platform/security/ssrf.server'

/**
 * Auto Pilot's outgoing webhooks (Stripe's incoming ones are handled in billing.server.ts), delivered to the
 * Standard Webhooks specification (v1): every message has a `webhook-id` that stays the same on every retry, a `webhook-timestamp` of the attempt and a `webhook-signature` `v1,<base64 HMAC-SHA256>`
 * of `id.timestamp.body` keyed with the user's `whsec_` secret. The body is stored with the delivery, so every
 * retry sends the very same bytes. "Claim, then send": a delivery row per (post, event) with a unique message id,
 * and every attempt is claimed with a conditional UPDATE, so two worker processes never make the same attempt.
 */

const USER_AGENT = 'Rankwell-Webhooks/1.0 (+https://rankwell.app)'
/** A signing secret encrypted with a key this server no longer has: a new one (Rotate secret) fixes it. */
const UNREADABLE_SECRET = 'The signing secret can no longer be read. Rotate the secret on the Auto Pilot page.'

type Post = typeof schema.blogPosts.$inferSelect

export type PostEventType = 'post.published' | 'post.updated' | 'post.unpublished'

/**
 * The body of a post lifecycle event: the post as published (HTML and Markdown), its SEO score and checklist,
 * its claim ledger and JSON-LD, and where it is live. `post.unpublished` carries the post without its content.
 * Documented in the README ('Auto Pilot webhooks'): `title` and `meta_description` are plain text, `slug` is
 * `[a-z0-9-]`, `body_html`/`body_markdown` are the post without its H1 title (for a site that prints `title` as the
 * page's heading), `content_html`/`content_markdown` the post as Rankwell shows it, `json_ld` an array of JSON-LD
 * objects (Article, FAQPage) for the page's `<script type="application/ld+json">`.
 */
export function postEventBody(
  type: PostEventType,
  post: Post,
  now = new Date(),
  /** Issue 33: `featured_image` and `images` (publishing's webhookImages), absent from post.unpublished. */
  images: Record<string, unknown> = {},
) {
  const appUrl = getEnv().APP_URL.replace(/\/+$/, '')
  const content =
    type === 'post.unpublished'
      ? {}
      : {
          content_markdown: post.contentMarkdown,
          content_html: post.contentHtml,
          // The body a site publishes under its own title field (the post without its H1 title).
          body_markdown: markdownWithoutTitle(post.contentMarkdown),
          body_html: bodyWithoutTitle(post.contentHtml),
          ...images,
        }
  return JSON.stringify({
    type,
    timestamp: now.toISOString(),
    data: {
      post: {
        id: post.id,
        title: plainField(post.title),
        slug: safeSlug(post.slug || post.title, `post-${post.id.slice(0, 8)}`),
        meta_description: plainField(post.metaDescription),
        keyword: post.keyword,
        language: post.language,
        ...content,
        seo_score: post.seoScore ?? null,
        seo_checklist: post.seoChecklist ?? null,
        claims: post.claims ?? [],
        json_ld: jsonLdObjectsOf(post.jsonLd),
        published_url: post.publishedUrl ?? null,
        created_at: post.createdAt.toISOString(),
        url: `${appUrl}/blogpost/${post.id}`,
      },
    },
  })
}

export function postPublishedBody(post: Post, now = new Date()) {
  return postEventBody('post.published', post, now)
}

export function testEventBody(now = new Date()) {
  return JSON.stringify({
    type: 'test',
    timestamp: now.toISOString(),
    data: { message: 'This is a test event from Rankwell. Your endpoint received and can verify it.' },
  })
}

function disabledError(settings: { webhookDisabledReason: string | null }) {
  return `Endpoint disabled: ${settings.webhookDisabledReason ?? 'too many failed deliveries'}`
}

/**
 * Records a delivery and queues its first attempt. Returns null when a delivery with this message id exists
 * already (the post was published before). When the endpoint is disabled the delivery is recorded as failed,
 * so the user sees it and can redeliver it after re-enabling.
 */
export async function createDelivery(input: {
  userId: string
  messageId: string
  eventType: string
  postId?: string | null
  url: string
  body: string
}) {
  const settings = await findAutopilotSettings(input.userId)
  const disabled = Boolean(settings?.webhookDisabledAt)
  const [row] = await db
    .insert(schema.webhookDeliveries)
    .values({
      userId: input.userId,
      messageId: input.messageId,
      eventType: input.eventType,
      postId: input.postId ?? null,
      url: input.url,
      body: input.body,
      status: disabled ? 'failed' : 'pending',
      lastError: disabled && settings ? disabledError(settings) : null,
    })
    .onConflictDoNothing({ target: schema.webhookDeliveries.messageId })
    .returning()
  if (!row) return null
  if (!disabled) await enqueueWebhookDelivery({ deliveryId: row.id }, { attempt: 0 })
  return row
}

/** Publishes a completed post to the user's webhook, once per post. */
export async function publishPostToWebhook(post: Post, url: string) {
  return createDelivery({
    userId: post.userId,
    messageId: postMessageId(post.id, 'post.published'),
    eventType: 'post.published',
    postId: post.id,
    url,
    body: postPublishedBody(post),
  })
}

export type WebhookActionResult = { ok: true } | { ok: false; message: string }

export async function sendTestEvent(userId: string): Promise<WebhookActionResult> {
  const settings = await findAutopilotSettings(userId)
  if (!settings?.webhookUrl) return { ok: false, message: 'Save a webhook URL first.' }
  if (settings.webhookDisabledAt) return { ok: false, message: 'Re-enable the webhook before sending a test event.' }
  await createDelivery({
    userId,
    messageId: randomMessageId(),
    eventType: 'test',
    url: settings.webhookUrl,
    body: testEventBody(),
  })
  return { ok: true }
}

/** Sends a finished delivery again: same webhook-id, same body, a fresh round of retries. */
export async function redeliver(userId: string, deliveryId: string): Promise<WebhookActionResult> {
  if (!isUuid(deliveryId)) return { ok: false, message: 'This delivery cannot be redelivered right now.' }
  const settings = await findAutopilotSettings(userId)
  if (!settings?.webhookUrl) return { ok: false, message: 'Save a webhook URL first.' }
  if (settings.webhookDisabledAt) return { ok: false, message: 'Re-enable the webhook before redelivering.' }
  const [row] = await db
    .update(schema.webhookDeliveries)
    .set({ status: 'pending', retryWindowStartedAt: new Date(), nextAttemptAt: null, updatedAt: new Date() })
    .where(
      and(
        eq(schema.webhookDeliveries.id, deliveryId),
        eq(schema.webhookDeliveries.userId, userId),
        inArray(schema.webhookDeliveries.status, ['delivered', 'failed']),
      ),
    )
    .returning()
  if (!row) return { ok: false, message: 'This delivery cannot be redelivered right now.' }
  // A finished job of an attempt that was skipped (the endpoint got disabled) may still hold this job id.
  await removeWebhookDeliveryJob(row.id, row.attempts)
  await enqueueWebhookDelivery({ deliveryId: row.id }, { attempt: row.attempts })
  return { ok: true }
}

export async function listDeliveries(userId: string, limit = 20) {
  return db
    .select({
      id: schema.webhookDeliveries.id,
      messageId: schema.webhookDeliveries.messageId,
      eventType: schema.webhookDeliveries.eventType,
      status: schema.webhookDeliveries.status,
      attempts: schema.webhookDeliveries.attempts,
      lastStatusCode: schema.webhookDeliveries.lastStatusCode,
      lastError: schema.webhookDeliveries.lastError,
      lastDurationMs: schema.webhookDeliveries.lastDurationMs,
      nextAttemptAt: schema.webhookDeliveries.nextAttemptAt,
      createdAt: schema.webhookDeliveries.createdAt,
      updatedAt: schema.webhookDeliveries.updatedAt,
    })
    .from(schema.webhookDeliveries)
    .where(eq(schema.webhookDeliveries.userId, userId))
    .orderBy(desc(schema.webhookDeliveries.createdAt))
    .limit(limit)
}

type Outcome =
  | { kind: 'delivered'; statusCode: number; durationMs: number }
  | { kind: 'retry'; statusCode: number | null; durationMs: number; error: string; retryAfterMs: number | null }
  | { kind: 'fail'; statusCode: number | null; durationMs: number; error: string; disableEndpoint?: boolean }

/** What a network failure means, in words that reveal nothing of our network (the details go to our log only). */
const NETWORK_REASONS: Record<string, string> = {
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was closed unexpectedly',
  EHOSTUNREACH: 'the host could not be reached',
  ENETUNREACH: 'the host could not be reached',
}

function describeError(err: unknown): { error: string; retryable: boolean } {
  // The owner sees a generic reason: never the address a name resolved to, nor the raw error of our network stack.
  if (err instanceof BlockedAddressError) {
    console.warn('[webhook] refused address:', err.message)
    return { error: 'Refused: the webhook URL must point to a public internet address.', retryable: false }
  }
  if (err instanceof RequestTimeoutError) return { error: `Timed out: ${err.message}`, retryable: true }
  const e = err as NodeJS.ErrnoException
  console.warn('[webhook] network error:', e?.code ?? '', e?.message ?? String(err))
  const reason =
    (e?.code && NETWORK_REASONS[e.code]) ||
    (e?.code?.startsWith('ERR_TLS') || /certificate|ssl|tls/i.test(e?.message ?? '')
      ? 'the TLS handshake failed'
      : 'the connection failed')
  return { error: `Network error: ${reason}.`, retryable: true }
}

async function attempt(url: string, secret: string, messageId: string, body: string): Promise<Outcome> {
  const env = getEnv()
  const timestamp = Math.floor(Date.now() / 1000)
  const started = performance.now()
  try {
    const res = await observeProvider(
      'webhook',
      () =>
        guardedPost(url, {
          allowPrivate: allowPrivateNetworks('webhook', env),
          timeoutMs: env.WEBHOOK_TIMEOUT_MS,
          body,
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': USER_AGENT,
            'webhook-id': messageId,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signWebhook(secret, messageId, timestamp, body),
          },
        }),
      (answer) => answer.status < 200 || answer.status >= 300,
    )
    if (res.status >= 200 && res.status < 300)
      return { kind: 'delivered', statusCode: res.status, durationMs: res.durationMs }
    const snippet = res.body.replace(/\s+/g, ' ').trim().slice(0, 200)
    if (res.status >= 300 && res.status < 400) {
      const location = typeof res.headers.location === 'string' ? ` to ${res.headers.location.slice(0, 200)}` : ''
      return {
        kind: 'fail',
        statusCode: res.status,
        durationMs: res.durationMs,
        error: `HTTP ${res.status}: redirect${location} not followed`,
      }
    }
    const error = `HTTP ${res.status}${snippet ? `: ${snippet}` : ''}`
    if (isRetryableStatus(res.status)) {
      const retryAfter = res.headers['retry-after']
      return {
        kind: 'retry',
        statusCode: res.status,
        durationMs: res.durationMs,
        error,
        retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter),
      }
    }
    if (res.status === 410)
      return { kind: 'fail', statusCode: 410, durationMs: res.durationMs, error, disableEndpoint: true }
    return { kind: 'fail', statusCode: res.status, durationMs: res.durationMs, error }
  } catch (err) {
    const durationMs = Math.round(performance.now() - started)
    const { error, retryable } = describeError(err)
    return retryable
      ? { kind: 'retry', statusCode: null, durationMs, error, retryAfterMs: null }
      : { kind: 'fail', statusCode: null, durationMs, error }
  }
}

/**
 * Marks the user's endpoint as failing (keeping the start of the streak) and disables it when it has failed
 * without a single success for the whole window: either the streak is older than the window, or a delivery has
 * used up its day of retries and no delivery succeeded since its first failure (`exhaustedSince`).
 * A 410 Gone disables at once. Returns whether this call disabled the endpoint.
 */
async function recordEndpointFailure(
  userId: string,
  error: string,
  opts: { failedAt: Date; gone?: boolean; exhaustedSince?: Date | null },
) {
  const env = getEnv()
  const s = schema.autopilotSettings
  await db
    .update(s)
    .set({ webhookFailingSince: sql`coalesce(${s.webhookFailingSince}, ${opts.failedAt.toISOString()}::timestamptz)` })
    .where(eq(s.userId, userId))
  const windowMs = env.WEBHOOK_DISABLE_AFTER_MS
  const reason = opts.gone
    ? `The endpoint answered 410 Gone. Last error: ${error}`
    : `Every delivery failed for ${formatWindow(windowMs)}. Last error: ${error}`
  const condition = opts.gone
    ? sql`true`
    : opts.exhaustedSince
      ? sql`(${s.webhookFailingSince} <= now() - make_interval(secs => ${windowMs / 1000}) or ${s.webhookFailingSince} <= ${opts.exhaustedSince.toISOString()}::timestamptz)`
      : sql`${s.webhookFailingSince} <= now() - make_interval(secs => ${windowMs / 1000})`
  const disabled = await db
    .update(s)
    .set({ webhookDisabledAt: new Date(), webhookDisabledReason: reason.slice(0, 500), updatedAt: new Date() })
    .where(and(eq(s.userId, userId), isNull(s.webhookDisabledAt), condition))
    .returning({ userId: s.userId })
  if (disabled.length === 0) return false
  // Pending retries of this endpoint stop; they stay visible and can be redelivered after re-enabling.
  await db
    .update(schema.webhookDeliveries)
    .set({
      status: 'failed',
      nextAttemptAt: null,
      lastError: `Endpoint disabled: ${reason}`.slice(0, 500),
      updatedAt: new Date(),
    })
    .where(and(eq(schema.webhookDeliveries.userId, userId), eq(schema.webhookDeliveries.status, 'pending')))
  return true
}

/** When this delivery's current round first failed (the start of its retries). */
async function firstFailureInWindow(deliveryId: string, since: Date) {
  const [row] = await db
    .select({ at: sql<string | null>`min(${schema.webhookAttempts.attemptedAt})` })
    .from(schema.webhookAttempts)
    .where(
      and(
        eq(schema.webhookAttempts.deliveryId, deliveryId),
        sql`${schema.webhookAttempts.attemptedAt} >= ${since.toISOString()}::timestamptz`,
        sql`(${schema.webhookAttempts.statusCode} is null or ${schema.webhookAttempts.statusCode} not between 200 and 299)`,
      ),
    )
  return row?.at ? new Date(row.at) : null
}

/**
 * One attempt of a delivery (the worker's `deliver-webhook` job). `attemptNumber` is the number of attempts
 * made before this one; the claim only succeeds for the process that moves the counter from it.
 */
export async function processDelivery(
  deliveryId: string,
  attemptNumber: number,
  log: (msg: string, extra?: Record<string, unknown>) => void = () => {},
) {
  const env = getEnv()
  const [current] = await db
    .select()
    .from(schema.webhookDeliveries)
    .where(eq(schema.webhookDeliveries.id, deliveryId))
    .limit(1)
  if (!current || current.status !== 'pending') return { skipped: 'not pending' as const }
  const settings = await findAutopilotSettings(current.userId)
  if (!settings?.webhookUrl || !settings.webhookSecret) {
    await db
      .update(schema.webhookDeliveries)
      .set({ status: 'failed', lastError: 'No webhook URL is configured.', nextAttemptAt: null, updatedAt: new Date() })
      .where(and(eq(schema.webhookDeliveries.id, deliveryId), eq(schema.webhookDeliveries.status, 'pending')))
    return { skipped: 'no endpoint' as const }
  }
  if (settings.webhookDisabledAt) {
    await db
      .update(schema.webhookDeliveries)
      .set({ status: 'failed', lastError: disabledError(settings), nextAttemptAt: null, updatedAt: new Date() })
      .where(and(eq(schema.webhookDeliveries.id, deliveryId), eq(schema.webhookDeliveries.status, 'pending')))
    return { skipped: 'endpoint disabled' as const }
  }

  let secret: string
  try {
    secret = webhookSecretOf(settings)!
  } catch (error) {
    if (!(error instanceof DecryptError)) throw error
    await db
      .update(schema.webhookDeliveries)
      .set({ status: 'failed', lastError: UNREADABLE_SECRET, nextAttemptAt: null, updatedAt: new Date() })
      .where(and(eq(schema.webhookDeliveries.id, deliveryId), eq(schema.webhookDeliveries.status, 'pending')))
    return { skipped: 'unreadable secret' as const }
  }

  // Claim this attempt. A stale claim (a worker died mid-attempt) may be taken over after a minute.
  const [claimed] = await db
    .update(schema.webhookDeliveries)
    .set({ attempts: attemptNumber + 1, nextAttemptAt: null, url: settings.webhookUrl, updatedAt: new Date() })
    .where(
      and(
        eq(schema.webhookDeliveries.id, deliveryId),
        eq(schema.webhookDeliveries.status, 'pending'),
        sql`(${schema.webhookDeliveries.attempts} = ${attemptNumber} or (${schema.webhookDeliveries.attempts} = ${attemptNumber + 1}
          and ${schema.webhookDeliveries.nextAttemptAt} is null
          and ${schema.webhookDeliveries.updatedAt} < now() - make_interval(secs => ${Math.ceil(env.WEBHOOK_TIMEOUT_MS / 1000) + 60})))`,
      ),
    )
    .returning()
  if (!claimed) return { skipped: 'claimed elsewhere' as const }

  const outcome = await attempt(settings.webhookUrl, secret, claimed.messageId, claimed.body)
  const attemptedAt = new Date()
  await db.insert(schema.webhookAttempts).values({
    deliveryId,
    attemptedAt,
    statusCode: outcome.statusCode,
    durationMs: outcome.durationMs,
    error: outcome.kind === 'delivered' ? null : outcome.error.slice(0, 1000),
  })
  log('webhook attempt', { deliveryId, attempt: attemptNumber + 1, outcome: outcome.kind, status: outcome.statusCode })

  const base = { lastStatusCode: outcome.statusCode, lastDurationMs: outcome.durationMs, updatedAt: new Date() }
  const finish = (status: 'delivered' | 'failed', lastError: string | null) =>
    db
      .update(schema.webhookDeliveries)
      .set({ ...base, status, lastError: lastError?.slice(0, 500) ?? null, nextAttemptAt: null })
      .where(eq(schema.webhookDeliveries.id, deliveryId))

  if (outcome.kind === 'delivered') {
    await finish('delivered', null)
    await db
      .update(schema.autopilotSettings)
      .set({ webhookFailingSince: null })
      .where(eq(schema.autopilotSettings.userId, claimed.userId))
    return { outcome: 'delivered' as const }
  }

  if (outcome.kind === 'fail') {
    const disabled = await recordEndpointFailure(claimed.userId, outcome.error, {
      failedAt: attemptedAt,
      gone: outcome.disableEndpoint,
    })
    await finish('failed', disabled ? `Endpoint disabled. ${outcome.error}` : outcome.error)
    return { outcome: disabled ? ('endpoint disabled' as const) : ('failed' as const) }
  }

  // Retryable: back off, up to the end of the retry window (one last attempt exactly at its end).
  const windowEnd = claimed.retryWindowStartedAt.getTime() + env.WEBHOOK_DISABLE_AFTER_MS
  const exhausted = Date.now() >= windowEnd
  const disabled = await recordEndpointFailure(claimed.userId, outcome.error, {
    failedAt: attemptedAt,
    exhaustedSince: exhausted ? await firstFailureInWindow(deliveryId, claimed.retryWindowStartedAt) : null,
  })
  if (disabled) {
    await finish('failed', `Endpoint disabled. ${outcome.error}`)
    return { outcome: 'endpoint disabled' as const }
  }
  if (exhausted) {
    await finish('failed', `Gave up after ${attemptNumber + 1} attempts. ${outcome.error}`)
    return { outcome: 'gave up' as const }
  }
  const wanted = retryDelayMs(attemptNumber + 1, {
    baseMs: env.WEBHOOK_RETRY_BASE_MS,
    windowMs: env.WEBHOOK_DISABLE_AFTER_MS,
    retryAfterMs: outcome.retryAfterMs,
  })
  // Capped so that one last attempt happens just after the window's end.
  const delay = Math.max(0, Math.min(wanted, windowEnd - Date.now() + 1_000))
  await db
    .update(schema.webhookDeliveries)
    .set({ ...base, lastError: outcome.error.slice(0, 500), nextAttemptAt: new Date(Date.now() + delay) })
    .where(and(eq(schema.webhookDeliveries.id, deliveryId), eq(schema.webhookDeliveries.status, 'pending')))
  await enqueueWebhookDelivery({ deliveryId }, { attempt: attemptNumber + 1, delay })
  return { outcome: 'retry scheduled' as const, delay }
}
