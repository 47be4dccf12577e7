/**
 * Auto Pilot: its settings and runs, and the deliveries of its signed webhook (Standard Webhooks).
 */
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { createdAt, updatedAt, id } from './columns'
import { ownerId, users } from './accounts'
import { blogPosts } from './content'
import { savedKeywords } from './keywords'

export const autopilotSettings = pgTable('autopilot_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  /** Days between posts: 1 (daily) to 7 (weekly). */
  cadenceDays: integer('cadence_days').notNull().default(1),
  webhookUrl: text('webhook_url'),
  webhookSecret: text('webhook_secret'),
  webhookDisabledAt: timestamp('webhook_disabled_at', { withTimezone: true }),
  webhookDisabledReason: text('webhook_disabled_reason'),
  /** Start of the current run of failed webhook attempts (null after a success); disables the endpoint after a day. */
  webhookFailingSince: timestamp('webhook_failing_since', { withTimezone: true }),
  notice: text('notice'),
  /**
   * How Auto Pilot's drafts reach the destinations (issue 15): 'quality' publishes a draft whose SEO score is at
   * least `minScore` with no unsourced claim and holds the rest for review; 'review' holds every draft;
   * 'auto_approve' publishes a held draft after `approveAfterHours` unless the user rejected it; 'always' publishes
   * every draft at once (no review, the behaviour before review existed).
   */
  reviewMode: text('review_mode', { enum: ['quality', 'review', 'auto_approve', 'always'] })
    .notNull()
    .default('quality'),
  minScore: integer('min_score').notNull().default(80),
  approveAfterHours: integer('approve_after_hours').notNull().default(24),
  updatedAt: updatedAt(),
})

export const autopilotRuns = pgTable(
  'autopilot_runs',
  {
    id: id(),
    userId: ownerId(),
    slot: text('slot').notNull(),
    status: text('status', { enum: ['running', 'completed', 'skipped', 'failed'] })
      .notNull()
      .default('running'),
    keywordId: uuid('keyword_id').references(() => savedKeywords.id, { onDelete: 'set null' }),
    postId: uuid('post_id').references(() => blogPosts.id, { onDelete: 'set null' }),
    note: text('note'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('autopilot_runs_slot_idx').on(t.userId, t.slot)],
)

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    userId: ownerId(),
    /** The Standard Webhooks `webhook-id`, stable across retries. */
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    postId: uuid('post_id').references(() => blogPosts.id, { onDelete: 'set null' }),
    url: text('url').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    lastDurationMs: integer('last_duration_ms'),
    /** When the current round of retries started (creation, or a manual redelivery); retries stop a day later. */
    retryWindowStartedAt: timestamp('retry_window_started_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the next retry is due; null while an attempt is in flight or when none is scheduled. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_message_idx').on(t.messageId),
    index('webhook_deliveries_user_idx').on(t.userId, t.createdAt),
  ],
)

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: id(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull().default(0),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId)],
)
