import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()
/** A row's own id: a random UUID. */
const id = () => uuid('id').primaryKey().defaultRandom()
/** The user a row belongs to; the row goes when the user's account is deleted. */
const ownerId = () =>
  uuid('user_id')
    .notNull()
    .references((): AnyPgColumn => users.id, { onDelete: 'cascade' })

// ---------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------
export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    passwordHash: text('password_hash'),
    googleSub: text('google_sub'),
    website: text('website'),
    marketSegment: text('market_segment'),
    productService: text('product_service'),
    countryCode: text('country_code'),
    countryName: text('country_name'),
    languageCode: text('language_code'),
    languageName: text('language_name'),
    onboardingComplete: boolean('onboarding_complete').notNull().default(false),
    /** Issue 13: when the owner proved the address (verification link, or Google's verified e-mail). */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_google_sub_idx').on(t.googleSub),
  ],
)

/** Browser sessions (cookie holds the id) and API sessions (Bearer tokens reference the id). */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: ownerId(),
    kind: text('kind', { enum: ['web', 'api'] })
      .notNull()
      .default('web'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    /** Issue 13: shown on /profile (the IP only as a prefix: /24 or /48). */
    ipPrefix: text('ip_prefix'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
)

/** Single-use codes minted by our own Google callback, redeemed at /oauth-callback. Stored hashed. */
export const oauthCodes = pgTable('oauth_codes', {
  codeHash: text('code_hash').primaryKey(),
  userId: ownerId(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
})

// ---------------------------------------------------------------------------
// Plans, subscriptions and usage (one row per user)
// ---------------------------------------------------------------------------
export const subscriptionStatus = pgEnum('subscription_status', ['trial', 'active', 'past_due', 'canceled'])

export const subscriptions = pgTable(
  'subscriptions',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: subscriptionStatus('status').notNull().default('trial'),
    plan: text('plan', { enum: ['monthly', 'quarterly', 'yearly'] }),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }).notNull(),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    stripePriceId: text('stripe_price_id'),
    amountCents: integer('amount_cents'),
    currency: text('currency'),
    interval: text('interval'),
    intervalCount: integer('interval_count'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /**
     * Start of the current usage window: the trial counts as one; Premium windows are one month long (rolled over
     * by quota.server.ts) and start afresh at each renewal.
     */
    usagePeriodStart: timestamp('usage_period_start', { withTimezone: true }).notNull().defaultNow(),
    keywordSearchCount: integer('keyword_search_count').notNull().default(0),
    blogPostCount: integer('blog_post_count').notNull().default(0),
    /** When the Stripe read behind the applied state began: a state read earlier than this is stale and skipped. */
    stripeStateAt: timestamp('stripe_state_at', { withTimezone: true }),
    // Issue 19: billing (migration 0010_billing.sql)
    /** The last Checkout Session a webhook or the return page saw completed: /checkout-success trusts it offline. */
    lastCheckoutSessionId: text('last_checkout_session_id'),
    /** When the 'payment failed' e-mail went out for the current past-due episode (cleared once paid again). */
    paymentFailedNotifiedAt: timestamp('payment_failed_notified_at', { withTimezone: true }),
    /** Why Premium ended, from Stripe's cancellation_details.reason ('payment_failed', 'cancellation_requested'…). */
    endedReason: text('ended_reason'),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_customer_idx').on(t.stripeCustomerId),
    index('subscriptions_stripe_sub_idx').on(t.stripeSubscriptionId),
  ],
)

export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
})

// ---------------------------------------------------------------------------
// Keywords
// ---------------------------------------------------------------------------
export const keywordSource = pgEnum('keyword_source', ['dataforseo', 'google_ads', 'ai_estimate'])

export const savedKeywords = pgTable(
  'saved_keywords',
  {
    id: id(),
    userId: ownerId(),
    keyword: text('keyword').notNull(),
    countryCode: text('country_code').notNull(),
    countryName: text('country_name').notNull().default(''),
    languageCode: text('language_code').notNull(),
    languageName: text('language_name').notNull().default(''),
    avgMonthlySearches: integer('avg_monthly_searches'),
    difficultyScore: integer('difficulty_score'),
    source: keywordSource('source').notNull(),
    seedQuery: text('seed_query').notNull().default(''),
    searchedViaAutoPilot: boolean('searched_via_auto_pilot').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('saved_keywords_unique_idx').on(
      t.userId,
      sql`lower(${t.keyword})`,
      t.countryCode,
      t.languageCode,
      t.searchedViaAutoPilot,
    ),
    // Issue 21: one index per sort of the keyword library (keyset pages), and trigram search.
    index('saved_keywords_date_idx').on(
      t.userId,
      t.searchedViaAutoPilot,
      t.createdAt.desc(),
      sql`(coalesce(${t.avgMonthlySearches}, -1)) desc`,
      t.id.desc(),
    ),
    index('saved_keywords_keyword_idx').on(t.userId, t.searchedViaAutoPilot, sql`lower(${t.keyword})`, t.id),
    index('saved_keywords_volume_idx').on(
      t.userId,
      t.searchedViaAutoPilot,
      sql`coalesce(${t.avgMonthlySearches}, -1)`,
      t.id,
    ),
    index('saved_keywords_difficulty_idx').on(
      t.userId,
      t.searchedViaAutoPilot,
      sql`coalesce(${t.difficultyScore}, -1)`,
      t.id,
    ),
    index('saved_keywords_keyword_trgm_idx').using('gin', sql`${t.keyword} gin_trgm_ops`),
    // The market filter (country and language), newest first: its capped count and its page (migration 0017).
    index('saved_keywords_market_idx').on(
      t.userId,
      t.searchedViaAutoPilot,
      t.countryCode,
      t.languageCode,
      t.createdAt.desc(),
    ),
  ],
)

/** Provider answers cached across users for 24 hours, keyed by provider, query, country and language. */
export const keywordCache = pgTable('keyword_cache', {
  key: text('key').primaryKey(),
  source: keywordSource('source').notNull(),
  results: jsonb('results').notNull(),
  createdAt: createdAt(),
})

// ---------------------------------------------------------------------------
// Blog posts
// ---------------------------------------------------------------------------
export const postStatus = pgEnum('post_status', ['queued', 'generating', 'completed', 'failed'])

export const blogPosts = pgTable(
  'blog_posts',
  {
    id: id(),
    userId: ownerId(),
    keywordId: uuid('keyword_id').references(() => savedKeywords.id, { onDelete: 'set null' }),
    /** Idempotency key of the request that created the post (one post per request). */
    requestKey: text('request_key').notNull(),
    source: text('source', { enum: ['manual', 'autopilot'] })
      .notNull()
      .default('manual'),
    status: postStatus('status').notNull().default('queued'),
    failureReason: text('failure_reason'),
    keyword: text('keyword').notNull(),
    language: text('language').notNull().default('English'),
    title: text('title').notNull().default(''),
    slug: text('slug').notNull().default(''),
    metaDescription: text('meta_description').notNull().default(''),
    contentMarkdown: text('content_markdown').notNull().default(''),
    contentHtml: text('content_html').notNull().default(''),
    /**
     * Issue 20: the SANITIZER_VERSION (app/lib/markdown.ts) whose rules made `content_html`. The body is sanitized
     * once when written or edited; rows with an older version are sanitized again by the worker. 0: not yet.
     */
    sanitizerVersion: integer('sanitizer_version').notNull().default(0),
    model: text('model'),
    promptVersion: text('prompt_version'),
    /** Checkpointed model outputs, so a retried job resumes instead of paying twice. */
    steps: jsonb('steps').notNull().default({}),
    usage: jsonb('usage').notNull().default({}),
    timings: jsonb('timings').notNull().default({}),
    quotaRefunded: boolean('quota_refunded').notNull().default(false),
    // Shared content contract (docs/contracts.md): written by the content engine (issue 14), read by publishing
    // (15), rankings (16) and the library (21).
    /** The brief the post was written from (search intent, reader, angle, outline, questions, facts with sources). */
    brief: jsonb('brief'),
    /** How much research the brief had: 'full', 'partial' (some fetches failed) or 'none' (no search data). */
    researchStatus: text('research_status', { enum: ['full', 'partial', 'none'] }),
    /** Deterministic SEO score 0–100 (app/lib), recomputed on every save; null until scored. */
    seoScore: integer('seo_score'),
    /** The score's checklist: [{ id, label, passed, fix }]. */
    seoChecklist: jsonb('seo_checklist'),
    /** The claim ledger: [{ text, sourceUrl }]; sourceUrl null marks an unsourced figure or quotation. */
    claims: jsonb('claims'),
    /** JSON-LD objects (Article, FAQPage) for the exported HTML, the post page and the webhook payload. */
    jsonLd: jsonb('json_ld'),
    /** Review before publishing (issue 15): null (not needed), 'waiting', 'approved' or 'rejected'. */
    reviewStatus: text('review_status', { enum: ['waiting', 'approved', 'rejected'] }),
    /** The canonical public URL once a destination has published the post (issue 15); read by 14 and 16. */
    publishedUrl: text('published_url'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** A publication planned for later (issue 15): when, and where ('webhook' or destination ids). */
    scheduledPublishAt: timestamp('scheduled_publish_at', { withTimezone: true }),
    scheduledTargets: jsonb('scheduled_targets'),
    /** Last edit by the user in the editor (issue 14). */
    editedAt: timestamp('edited_at', { withTimezone: true }),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('blog_posts_request_idx').on(t.userId, t.requestKey),
    // Issue 12: one post per user and keyword being written at a time (migration 0013_failures).
    uniqueIndex('blog_posts_one_in_progress_idx')
      .on(t.userId, t.keywordId)
      .where(sql`${t.status} in ('queued', 'generating') and ${t.keywordId} is not null`),
    // Issue 21: keyset pages of the library, the language filter, and trigram search of titles and keywords.
    index('blog_posts_page_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('blog_posts_language_idx').on(t.userId, t.language),
    index('blog_posts_title_trgm_idx').using('gin', sql`${t.title} gin_trgm_ops`),
    index('blog_posts_keyword_trgm_idx').using('gin', sql`${t.keyword} gin_trgm_ops`),
    index('blog_posts_sanitizer_idx')
      .on(t.sanitizerVersion)
      .where(sql`${t.status} = 'completed'`),
    index('blog_posts_scheduled_idx')
      .on(t.scheduledPublishAt)
      .where(sql`${t.scheduledPublishAt} IS NOT NULL`),
  ],
)

// ---------------------------------------------------------------------------
// Auto Pilot and webhooks
// ---------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------
// Public site
// ---------------------------------------------------------------------------
export const leads = pgTable(
  'leads',
  {
    id: id(),
    email: text('email').notNull(),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('leads_email_lower_idx').on(sql`lower(${t.email})`)],
)

export const helpRequests = pgTable('help_requests', {
  id: id(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  email: text('email').notNull(),
  question: text('question').notNull(),
  emailedAt: timestamp('emailed_at', { withTimezone: true }),
  createdAt: createdAt(),
})

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type', { enum: ['pageview', 'web-vital'] }).notNull(),
    path: text('path').notNull(),
    name: text('name'),
    value: real('value'),
    createdAt: createdAt(),
  },
  (t) => [index('analytics_events_created_idx').on(t.createdAt)],
)

/** AI answers of the public free tools, cached by normalised input. */
export const aiCache = pgTable('ai_cache', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: createdAt(),
})

// ---------------------------------------------------------------------------
// System: the trivial job that proves web → Redis → worker → Postgres
// ---------------------------------------------------------------------------
export const jobPings = pgTable('job_pings', {
  id: id(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
  processedBy: text('processed_by'),
  createdAt: createdAt(),
})

// ---------------------------------------------------------------------------
// Shared content contract (docs/contracts.md)
// ---------------------------------------------------------------------------
/** Earlier versions of a post (the editor keeps the last 20; restore makes a new version). */
export const postVersions = pgTable(
  'post_versions',
  {
    id: id(),
    postId: uuid('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    /** What made this version: the first generation, an edit, a section rewrite, a refresh or a restore. */
    origin: text('origin', { enum: ['generated', 'edit', 'rewrite', 'refresh', 'restore'] }).notNull(),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    metaDescription: text('meta_description').notNull(),
    contentMarkdown: text('content_markdown').notNull(),
    contentHtml: text('content_html').notNull(),
    seoScore: integer('seo_score'),
    createdAt: createdAt(),
  },
  (t) => [index('post_versions_post_idx').on(t.postId, t.createdAt)],
)

/**
 * Google organic results per keyword, market and day (DataForSEO SERP API), shared by every user: the content
 * engine's research (top 10, reused for 7 days) and the daily rank tracker (top 100, one call per keyword, market
 * and day) read and write the same rows. `keyword` is normalised (trimmed, lower case, single spaces).
 */
export const serpCache = pgTable(
  'serp_cache',
  {
    id: id(),
    keyword: text('keyword').notNull(),
    countryCode: text('country_code').notNull(),
    languageCode: text('language_code').notNull(),
    /** UTC date the results were fetched (YYYY-MM-DD). */
    fetchedOn: text('fetched_on').notNull(),
    /** How many results were asked for (10 for research, 100 for tracking); a deeper answer serves a shallower ask. */
    depth: integer('depth').notNull(),
    /** SerpResult (app/lib/serp.ts): organic items, People also ask, related searches. */
    result: jsonb('result').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('serp_cache_key_idx').on(t.keyword, t.countryCode, t.languageCode, t.fetchedOn)],
)

// ---------------------------------------------------------------------------
// Issue 16: rankings (tracked keywords, daily positions, Search Console, refresh suggestions, digest)
// ---------------------------------------------------------------------------
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
// Issue 13: single-use account links (e-mail verification, password reset), stored hashed
// ---------------------------------------------------------------------------
export const accountTokens = pgTable(
  'account_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: ownerId(),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    /** The address the link was sent to: a verification only counts for the address it was sent to. */
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('account_tokens_user_idx').on(t.userId, t.purpose)],
)

// ---------------------------------------------------------------------------
// Issue 14: content engine (business context and voice, research and sitemap caches)
// ---------------------------------------------------------------------------
/** How a user's posts speak and sell: value proposition, call to action, tone, what to avoid, a writing sample. */
export const contentSettings = pgTable('content_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  valueProposition: text('value_proposition').notNull().default(''),
  ctaText: text('cta_text').notNull().default(''),
  ctaUrl: text('cta_url').notNull().default(''),
  /** 'friendly' | 'expert' | 'direct' | 'playful' */
  tone: text('tone').notNull().default('friendly'),
  toneNotes: text('tone_notes').notNull().default(''),
  /** Words and claims to avoid, one per line. */
  avoid: text('avoid').notNull().default(''),
  /** A pasted sample of the user's writing, or the text fetched from `writingSampleUrl`. */
  writingSample: text('writing_sample').notNull().default(''),
  writingSampleUrl: text('writing_sample_url'),
  updatedAt: updatedAt(),
})

/** Research (the SERP plus what the top pages cover) per keyword and market, reused for 7 days. */
export const researchCache = pgTable('research_cache', {
  key: text('key').primaryKey(),
  result: jsonb('result').notNull(),
  createdAt: createdAt(),
})

/** The URLs of a site's sitemap.xml, read at most once a day. */
export const sitemapCache = pgTable('sitemap_cache', {
  url: text('url').primaryKey(),
  urls: jsonb('urls').notNull(),
  fetchedOn: text('fetched_on').notNull(),
  createdAt: createdAt(),
})

// ---------------------------------------------------------------------------
// Issue 15: publishing destinations and publications
// ---------------------------------------------------------------------------
/** Where a user's posts are published: a WordPress site, a Ghost site or a Webflow CMS collection. */
export const destinations = pgTable(
  'destinations',
  {
    id: id(),
    userId: ownerId(),
    kind: text('kind', { enum: ['wordpress', 'ghost', 'webflow'] }).notNull(),
    name: text('name').notNull(),
    /** Settings that are not secret (site URL, user name, post status, categories, field mapping…), per kind. */
    config: jsonb('config').notNull(),
    /** The secret part (Application Password, Admin API key, API token), encrypted with crypto.server.ts. */
    credentials: text('credentials').notNull(),
    /** Whether Auto Pilot publishes here (manual 'Publish to…' can pick any destination). */
    autopilot: boolean('autopilot').notNull().default(true),
    /** Start of the current run of failed publications (null after a success). */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    pausedReason: text('paused_reason'),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    lastCheckError: text('last_check_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('destinations_user_idx').on(t.userId)],
)

/** One row per post and destination: the remote copy's id, URL and state. */
export const publications = pgTable(
  'publications',
  {
    id: id(),
    userId: ownerId(),
    postId: uuid('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    destinationId: uuid('destination_id')
      .notNull()
      .references(() => destinations.id, { onDelete: 'cascade' }),
    /**
     * pending: a job will call the remote; published; unpublished; failed (see lastError); missing: the remote
     * copy was deleted by hand (re-created only after the user confirms).
     */
    status: text('status', { enum: ['pending', 'published', 'unpublished', 'failed', 'missing'] })
      .notNull()
      .default('pending'),
    /** What the pending job does: create or update the remote copy, or take it down. */
    action: text('action', { enum: ['publish', 'update', 'unpublish'] })
      .notNull()
      .default('publish'),
    /** Bumped on every request, so a newer request gets a job of its own and an older job knows it is stale. */
    revision: integer('revision').notNull().default(1),
    remoteId: text('remote_id'),
    remoteUrl: text('remote_url'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** A claim on the remote call (worker id and time), so two workers never call the remote for one revision. */
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('publications_post_destination_idx').on(t.postId, t.destinationId),
    index('publications_user_idx').on(t.userId, t.status),
  ],
)
