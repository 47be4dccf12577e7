/**
 * Keywords: the keyword library, provider answers and the Google results (SERP) cache.
 */
import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
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
