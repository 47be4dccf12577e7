/**
 * Keywords: the keyword library, provider answers and the Google results (SERP) cache.
 */
import { sql } from 'drizzle-orm'
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { createdAt, updatedAt, id } from './columns'
import { ownerId } from './accounts'

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
    // Issue 36 (docs/contracts.md "Keyword depth"): more per keyword. Null: not known for this row.
    /** 'informational' | 'commercial' | 'transactional' | 'navigational' (KeywordIntent). */
    intent: text('intent', { enum: ['informational', 'commercial', 'transactional', 'navigational'] }),
    /** Where the intent came from: the provider, or 'ai_estimate' when the model estimated it. */
    intentSource: keywordSource('intent_source'),
    /** Cost per click in `cpc_currency` (DataForSEO: USD; Google Ads: the account's currency). */
    cpc: doublePrecision('cpc'),
    cpcCurrency: text('cpc_currency'),
    /** Paid competition 0-1 and its level ('low' | 'medium' | 'high'). */
    competition: doublePrecision('competition'),
    competitionLevel: text('competition_level', { enum: ['low', 'medium', 'high'] }),
    /** The last 12 months, oldest first: [{ year, month, searches }] (MonthlySearches). */
    monthlySearches: jsonb('monthly_searches'),
    /** SERP features Google shows for it (SerpFeature ids: 'ai_overview', 'people_also_ask', 'video', 'local_pack'). */
    serpFeatures: text('serp_features').array(),
    /** How the row came: a search ('search'), the user's own domain ('domain') or a competitor's gap ('gap'). */
    origin: text('origin', { enum: ['search', 'domain', 'gap'] })
      .notNull()
      .default('search'),
    /** The user's domain ranks for it (a domain lookup): where, with which page, when seen. */
    rankedDomain: text('ranked_domain'),
    rankedPosition: integer('ranked_position'),
    rankedUrl: text('ranked_url'),
    rankedAt: timestamp('ranked_at', { withTimezone: true }),
    /** A competitor ranks for it and the user does not (a gap lookup): which domain, where, with which page. */
    competitorDomain: text('competitor_domain'),
    competitorPosition: integer('competitor_position'),
    competitorUrl: text('competitor_url'),
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
    // Issue 21: one index per sort of the keyword library (keyset pages), and trigram search. `.desc().nullsFirst()`
    // is Postgres' plain DESC, as the migrations create these indexes (drizzle's `.desc()` alone: DESC NULLS LAST).
    index('saved_keywords_date_idx').on(
      t.userId,
      t.searchedViaAutoPilot,
      t.createdAt.desc().nullsFirst(),
      sql`(coalesce(${t.avgMonthlySearches}, -1)) desc`,
      t.id.desc().nullsFirst(),
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
      t.createdAt.desc().nullsFirst(),
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

/**
 * Issue 36: one paid lookup of a new kind (a keyword's results page, a clustering run, a domain's ranked keywords, a
 * competitor gap), charged as one keyword search the first time a user makes it on a UTC day: the row and the quota
 * unit are written in one transaction, and the unique index makes a repeat of the same lookup that day free.
 */
export const keywordLookups = pgTable(
  'keyword_lookups',
  {
    id: id(),
    userId: ownerId(),
    kind: text('kind', { enum: ['serp', 'clusters', 'domain', 'gap'] }).notNull(),
    /** What was looked up: a saved keyword's id, a seed query, or a normalised domain. */
    subject: text('subject').notNull(),
    countryCode: text('country_code').notNull(),
    languageCode: text('language_code').notNull(),
    /** UTC day (YYYY-MM-DD). */
    lookedUpOn: text('looked_up_on').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('keyword_lookups_unique_idx').on(
      t.userId,
      t.kind,
      t.subject,
      t.countryCode,
      t.languageCode,
      t.lookedUpOn,
    ),
  ],
)

/**
 * Issue 36: a domain's strength (DataForSEO Backlinks bulk ranks, 0-1000), shared by every user, refreshed after 30
 * days. `domain` is bare (lower case, no "www.").
 */
export const domainRanks = pgTable('domain_ranks', {
  domain: text('domain').primaryKey(),
  rank: integer('rank'),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * Issue 36: a clustering run: the worker reads the results page (top 10) of each of the user's keywords of one market
 * that has none fresh, so that /keywords/clusters can group them. Clusters themselves are computed on read.
 */
export const keywordClusterRuns = pgTable(
  'keyword_cluster_runs',
  {
    id: id(),
    userId: ownerId(),
    countryCode: text('country_code').notNull(),
    languageCode: text('language_code').notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    keywordCount: integer('keyword_count').notNull().default(0),
    fetchedCount: integer('fetched_count').notNull().default(0),
    failedCount: integer('failed_count').notNull().default(0),
    error: text('error'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('keyword_cluster_runs_user_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    // One run in progress per user and market.
    uniqueIndex('keyword_cluster_runs_active_idx')
      .on(t.userId, t.countryCode, t.languageCode)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
)
