/**
 * Rankings: tracked keywords, daily positions, Search Console, refresh suggestions and the weekly digest.
 */
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { createdAt, updatedAt, id } from './columns'
import { ownerId, users } from './accounts'
import { blogPosts } from './content'
import { savedKeywords } from './keywords'

/**
 * A keyword a user tracks in one market: the keyword of a published post (post_id set) and/or one they starred.
 * `keyword_norm` is the normalised keyword (the SERP cache key), shared across users for the one-call-per-day rule.
 */
export const trackedKeywords = pgTable(
  'tracked_keywords',
  {
    id: id(),
    userId: ownerId(),
    keyword: text('keyword').notNull(),
    keywordNorm: text('keyword_norm').notNull(),
    countryCode: text('country_code').notNull(),
    languageCode: text('language_code').notNull(),
    countryName: text('country_name').notNull().default(''),
    starred: boolean('starred').notNull().default(false),
    postId: uuid('post_id').references(() => blogPosts.id, { onDelete: 'set null' }),
    savedKeywordId: uuid('saved_keyword_id').references(() => savedKeywords.id, { onDelete: 'set null' }),
    /** Best position ever seen (denormalised so /rankings needs no scan of the whole history). */
    bestPosition: integer('best_position'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tracked_keywords_unique_idx').on(t.userId, t.keywordNorm, t.countryCode, t.languageCode),
    index('tracked_keywords_market_idx').on(t.keywordNorm, t.countryCode, t.languageCode),
  ],
)

/** One row per tracked keyword and UTC day: the user's best organic position, or not in the top 100, or a failed check. */
export const keywordPositions = pgTable(
  'keyword_positions',
  {
    trackedKeywordId: uuid('tracked_keyword_id')
      .notNull()
      .references(() => trackedKeywords.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    status: text('status', { enum: ['ranked', 'not_ranked', 'error'] }).notNull(),
    position: integer('position'),
    url: text('url'),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.trackedKeywordId, t.day] })],
)

/** The daily work list: one SERP check per distinct keyword and market and day, claimed by workers. */
export const rankChecks = pgTable(
  'rank_checks',
  {
    keywordNorm: text('keyword_norm').notNull(),
    countryCode: text('country_code').notNull(),
    languageCode: text('language_code').notNull(),
    day: text('day').notNull(),
    status: text('status', { enum: ['pending', 'running', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [
    primaryKey({ columns: [t.keywordNorm, t.countryCode, t.languageCode, t.day] }),
    index('rank_checks_day_status_idx').on(t.day, t.status),
  ],
)

/** A user's Search Console grant (refresh token encrypted with crypto.server) and the chosen property. */
export const searchConsoleConnections = pgTable('search_console_connections', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  refreshToken: text('refresh_token').notNull(),
  siteUrl: text('site_url'),
  status: text('status', { enum: ['active', 'disabled'] })
    .notNull()
    .default('active'),
  disabledReason: text('disabled_reason'),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  /** Last day (YYYY-MM-DD) pulled completely; the next pull starts the day after (16 months back at first). */
  syncedThrough: text('synced_through'),
  lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

/** Search Console rows by day, page and query. */
export const searchConsoleStats = pgTable(
  'search_console_stats',
  {
    userId: ownerId(),
    day: text('day').notNull(),
    page: text('page').notNull(),
    query: text('query').notNull(),
    clicks: integer('clicks').notNull(),
    impressions: integer('impressions').notNull(),
    ctr: real('ctr').notNull(),
    position: real('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.page, t.query, t.day] }),
    index('search_console_stats_day_idx').on(t.userId, t.day),
  ],
)

/** Posts that slipped, lost clicks, or have striking-distance queries; found weekly, one per post and week. */
export const refreshSuggestions = pgTable(
  'refresh_suggestions',
  {
    id: id(),
    userId: ownerId(),
    postId: uuid('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    week: text('week').notNull(),
    reasons: jsonb('reasons').notNull(),
    /** Striking-distance queries the post does not cover. */
    queries: jsonb('queries').notNull().default([]),
    status: text('status', { enum: ['open', 'refreshing', 'done'] })
      .notNull()
      .default('open'),
    /** Why the last refresh failed (shown on /rankings until the refresh is started again). */
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refresh_suggestions_week_idx').on(t.userId, t.postId, t.week)],
)

/** Per-user rankings preferences: the weekly digest (opt-out) and the last week it was sent. */
export const rankingsPreferences = pgTable('rankings_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  digestEnabled: boolean('digest_enabled').notNull().default(true),
  lastDigestWeek: text('last_digest_week'),
  updatedAt: updatedAt(),
})
