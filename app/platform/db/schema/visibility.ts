/**
 * AI search visibility (issue 37): whether AI Overviews, AI Mode and the chat assistants cite the user's domain or
 * name their brand, for tracked keywords and for the user's prompts. The provider answers are shared across users
 * (ai_checks: one call per engine, subject, market, day and sample); what an answer means for one user (their brand,
 * domain and competitors) is in ai_results, rolled up by ISO week in ai_weekly for the page, the API and the digest.
 */
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { createdAt, updatedAt, id } from './columns'
import { ownerId, users } from './accounts'
import { trackedKeywords } from './rankings'

/** The engines, in the order the screens list them. Google's two read the SERP; the four others are LLM answers. */
export const AI_ENGINES = ['google_ai_overview', 'google_ai_mode', 'chatgpt', 'perplexity', 'gemini', 'claude'] as const
export type AiEngine = (typeof AI_ENGINES)[number]

/** Per-user settings: other names of the brand, competitors' domains, samples per prompt and check (1-5). */
export const aiVisibilitySettings = pgTable('ai_visibility_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  brandAliases: text('brand_aliases').array().notNull().default([]),
  competitorDomains: text('competitor_domains').array().notNull().default([]),
  samples: integer('samples').notNull().default(3),
  updatedAt: updatedAt(),
})

/** Questions a buyer would ask an assistant, per user and market: written by the user, or proposed ('suggested'). */
export const aiPrompts = pgTable(
  'ai_prompts',
  {
    id: id(),
    userId: ownerId(),
    text: text('text').notNull(),
    /** Lower case, spaces collapsed: the shared cache key with the market. */
    textNorm: text('text_norm').notNull(),
    countryCode: text('country_code').notNull(),
    languageCode: text('language_code').notNull(),
    status: text('status', { enum: ['active', 'suggested'] })
      .notNull()
      .default('active'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('ai_prompts_unique_idx').on(t.userId, t.textNorm, t.countryCode, t.languageCode)],
)

/**
 * The shared work list and answer cache: one provider call per engine, subject (keyword or prompt, normalised),
 * market, UTC day and sample, claimed by workers as rank_checks are. `present`: Google showed an AI Overview / AI Mode
 * answer (the LLM engines: an answer came back). `answer_text` is plain text (bounded), `references` the cited
 * sources `[{ url, domain, title, position }]` in the answer's order; both are data, never markup or instructions.
 */
export const aiChecks = pgTable(
  'ai_checks',
  {
    id: id(),
    kind: text('kind', { enum: ['keyword', 'prompt'] }).notNull(),
    engine: text('engine', { enum: AI_ENGINES }).notNull(),
    subjectNorm: text('subject_norm').notNull(),
    subject: text('subject').notNull(),
    countryCode: text('country_code').notNull(),
    languageCode: text('language_code').notNull(),
    day: text('day').notNull(),
    sample: integer('sample').notNull().default(0),
    status: text('status', { enum: ['pending', 'running', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    error: text('error'),
    present: boolean('present'),
    answerText: text('answer_text'),
    references: jsonb('references').notNull().default([]),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ai_checks_unit_idx').on(t.engine, t.subjectNorm, t.countryCode, t.languageCode, t.day, t.sample),
    index('ai_checks_day_status_idx').on(t.day, t.status),
  ],
)

/**
 * What one check means for one user: their brand named (`mentioned`), their domain cited (`cited_url`, its 1-based
 * `cited_position` among the references), the competitors named or cited. status 'gap': the check failed for good (no
 * rate counts it). One row per user and check.
 */
export const aiResults = pgTable(
  'ai_results',
  {
    userId: ownerId(),
    checkId: uuid('check_id')
      .notNull()
      .references(() => aiChecks.id, { onDelete: 'cascade' }),
    subjectKind: text('subject_kind', { enum: ['keyword', 'prompt'] }).notNull(),
    trackedKeywordId: uuid('tracked_keyword_id').references(() => trackedKeywords.id, { onDelete: 'cascade' }),
    promptId: uuid('prompt_id').references(() => aiPrompts.id, { onDelete: 'cascade' }),
    engine: text('engine', { enum: AI_ENGINES }).notNull(),
    day: text('day').notNull(),
    sample: integer('sample').notNull().default(0),
    status: text('status', { enum: ['ok', 'gap'] }).notNull(),
    present: boolean('present').notNull().default(false),
    mentioned: boolean('mentioned').notNull().default(false),
    cited: boolean('cited').notNull().default(false),
    citedUrl: text('cited_url'),
    citedPosition: integer('cited_position'),
    competitorsMentioned: text('competitors_mentioned').array().notNull().default([]),
    competitorsCited: text('competitors_cited').array().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.checkId] }),
    index('ai_results_user_day_idx').on(t.userId, t.day),
    index('ai_results_keyword_idx').on(t.trackedKeywordId),
    index('ai_results_prompt_idx').on(t.promptId),
  ],
)

/**
 * ai_results rolled up per user, subject, engine and ISO week (week = the Monday, YYYY-MM-DD), rewritten from
 * ai_results in the transaction that writes them. `answers` counts 'ok' results, `gaps` the failed ones;
 * `present`/`mentioned`/`cited` count answers. subject_id is the tracked keyword's or the prompt's id (no foreign
 * key: readers join it, and deleting a prompt deletes its rows).
 */
export const aiWeekly = pgTable(
  'ai_weekly',
  {
    userId: ownerId(),
    subjectKind: text('subject_kind', { enum: ['keyword', 'prompt'] }).notNull(),
    subjectId: uuid('subject_id').notNull(),
    engine: text('engine', { enum: AI_ENGINES }).notNull(),
    week: text('week').notNull(),
    answers: integer('answers').notNull().default(0),
    gaps: integer('gaps').notNull().default(0),
    present: integer('present').notNull().default(0),
    mentioned: integer('mentioned').notNull().default(0),
    cited: integer('cited').notNull().default(0),
    /** The user's pages cited that week with their counts, `{ url: n }`; competitors named or cited, `{ domain: n }`. */
    citedUrls: jsonb('cited_urls').notNull().default({}),
    competitors: jsonb('competitors').notNull().default({}),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.subjectKind, t.subjectId, t.engine, t.week] }),
    index('ai_weekly_user_week_idx').on(t.userId, t.week),
  ],
)

/** AI checks used per user and UTC month (YYYY-MM): the plan's bound, shown on /profile beside the other quotas. */
export const aiCheckUsage = pgTable(
  'ai_check_usage',
  {
    userId: ownerId(),
    month: text('month').notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month] })],
)
