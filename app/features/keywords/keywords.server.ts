import crypto from 'node:crypto'
import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm'
import { z } from 'zod'
import {
  compareKeywords,
  keywordCacheKey,
  keywordSearchSchema,
  type KeywordSearchInput,
  type KeywordSource,
} from './keywords'
import { db, schema } from '#app/platform/db/client.server'
import { isUuid } from '#app/platform/security/ids'
import {
  keywordProvider,
  KeywordProviderError,
  type KeywordIdea,
  type KeywordProvider,
  type ProviderQuery,
} from '#app/features/keywords/providers/index.server'
import { classifyOutage } from '#app/platform/http/outage.server'
import { consumeQuota, quotaAvailable } from '#app/features/billing/quota.server'
import { redis } from '#app/platform/redis.server'
import {
  cleanMonthly,
  isKeywordIntent,
  KEYWORD_INTENTS,
  serpFeaturesOf,
  SERP_FEATURES,
  type MonthlySearches,
  type SerpFeature,
} from './keyword-metrics'

/**
 * Keyword research: provider answers cached for 24 hours across users (table keyword_cache), saved per user
 * (table saved_keywords, one row per keyword and market; a new search of the same keyword updates its row and
 * dates it anew), and the quota-counted search of the Keywords screen and POST /api/search.
 */
export type KeywordQuery = {
  query: string
  countryCode: string
  languageCode: string
  countryName?: string
  languageName?: string
}
/** A saved row as a search returns it, with issue 36's metrics and lookup columns. */
export type SavedKeyword = Omit<SavedKeywordBase, 'monthlySearches' | 'serpFeatures'> & {
  monthlySearches: MonthlySearches | null
  serpFeatures: SerpFeature[] | null
}
type SavedKeywordBase = Pick<
  typeof schema.savedKeywords.$inferSelect,
  | 'id'
  | 'userId'
  | 'keyword'
  | 'countryCode'
  | 'countryName'
  | 'languageCode'
  | 'languageName'
  | 'avgMonthlySearches'
  | 'difficultyScore'
  | 'source'
  | 'seedQuery'
  | 'searchedViaAutoPilot'
  | 'createdAt'
  | 'updatedAt'
  | 'intent'
  | 'intentSource'
  | 'cpc'
  | 'cpcCurrency'
  | 'competition'
  | 'competitionLevel'
  | 'monthlySearches'
  | 'serpFeatures'
  | 'origin'
  | 'rankedPosition'
  | 'rankedUrl'
  | 'competitorDomain'
  | 'competitorPosition'
  | 'competitorUrl'
>

export { KeywordProviderError }
/** No keyword data provider (nor the AI fallback) is configured. */
export class KeywordsUnavailableError extends Error {
  constructor() {
    super('no keyword data provider is configured')
    this.name = 'KeywordsUnavailableError'
  }
}
/** The query failed validation (callers validate with keywordSearchSchema first). */
export class InvalidKeywordQueryError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InvalidKeywordQueryError'
  }
}

export const CACHE_TTL_MS = 24 * 60 * 60 * 1000

/** Which provider answers searches now ('dataforseo' | 'google_ads' | 'ai_estimate'), or null when none. */
export function activeKeywordSource(): KeywordSource | null {
  return keywordProvider()?.id ?? null
}

/** Parses a raw query once (throws InvalidKeywordQueryError); everything below takes the parsed query. */
function parseKeywordQuery(q: KeywordQuery): ProviderQuery {
  const parsed = keywordSearchSchema.safeParse(q)
  if (!parsed.success) throw new InvalidKeywordQueryError(parsed.error.issues[0]?.message ?? 'invalid keyword query')
  return parsed.data
}

// ---------------------------------------------------------------------------
// The 24-hour cache
// ---------------------------------------------------------------------------

const cachedIdeasSchema = z.array(
  z.object({
    keyword: z.string(),
    avgMonthlySearches: z.number().nullable(),
    difficultyScore: z.number().nullable(),
    intent: z.enum(KEYWORD_INTENTS).nullish(),
    intentSource: z.enum(['dataforseo', 'google_ads', 'ai_estimate']).nullish(),
    cpc: z.number().nullish(),
    cpcCurrency: z.string().nullish(),
    competition: z.number().nullish(),
    competitionLevel: z.enum(['low', 'medium', 'high']).nullish(),
    monthlySearches: z.array(z.object({ year: z.number(), month: z.number(), searches: z.number() })).nullish(),
    serpFeatures: z.array(z.enum(SERP_FEATURES)).nullish(),
  }),
)
/** The ideas, the provider's note when part of its answer is missing (such an answer is not cached), the cache write. */
type Fetched = { ideas: KeywordIdea[]; note: string | null; stored: Promise<void> }
/** Concurrent misses of one key in this process share one provider call (and one cache write). */
const inflight = new Map<string, Promise<Fetched>>()
let lastPrune = 0

async function pruneCache() {
  if (Date.now() - lastPrune < 60 * 60 * 1000) return
  lastPrune = Date.now()
  await db.delete(schema.keywordCache).where(lt(schema.keywordCache.createdAt, new Date(Date.now() - CACHE_TTL_MS)))
}

/** A fresh (under 24 hours) cached answer, or null. */
async function readCache(key: string): Promise<KeywordIdea[] | null> {
  const [hit] = await db
    .select({ results: schema.keywordCache.results })
    .from(schema.keywordCache)
    .where(
      and(eq(schema.keywordCache.key, key), gt(schema.keywordCache.createdAt, new Date(Date.now() - CACHE_TTL_MS))),
    )
    .limit(1)
  const parsed = hit ? cachedIdeasSchema.safeParse(hit.results) : null
  return parsed?.success ? parsed.data : null
}

async function writeCache(key: string, source: KeywordSource, ideas: KeywordIdea[]) {
  try {
    await db
      .insert(schema.keywordCache)
      .values({ key, source, results: ideas })
      .onConflictDoUpdate({ target: schema.keywordCache.key, set: { source, results: ideas, createdAt: sql`now()` } })
  } catch (error) {
    console.error('[keywords] could not cache an answer:', error)
  }
  void pruneCache().catch((error: unknown) => console.error('[keywords] could not prune the cache:', error))
}

/**
 * The provider's ideas for a query and market, through the 24-hour cache: the cached answer when a fresh one exists
 * (`cached`, the lookup of `cacheKey` the caller may have started early), else a provider call whose answer is being
 * written to the cache (`stored`).
 */
async function ideasThroughCache(
  provider: KeywordProvider,
  query: ProviderQuery,
  cacheKey: string,
  cached: Promise<KeywordIdea[] | null>,
): Promise<Fetched> {
  const hit = await cached
  if (hit) return { ideas: hit, note: null, stored: Promise.resolve() }
  let pending = inflight.get(cacheKey)
  if (!pending) {
    pending = provider
      .ideas(query)
      .then(({ ideas, note }) => ({
        ideas,
        note,
        // A degraded answer (its intent call failed) is saved but not cached: the next search asks again.
        stored: note ? Promise.resolve() : writeCache(cacheKey, provider.id, ideas),
      }))
      .finally(() => inflight.delete(cacheKey))
    inflight.set(cacheKey, pending)
  }
  return pending
}

// ---------------------------------------------------------------------------
// Saved keywords
// ---------------------------------------------------------------------------

const MAX_KEYWORD_LENGTH = 200

/** One row per keyword (case-insensitive), cleaned, in a stable order (so concurrent upserts lock rows alike). */
function cleanIdeas(ideas: KeywordIdea[]): KeywordIdea[] {
  const byKey = new Map<string, KeywordIdea>()
  for (const idea of ideas) {
    const keyword = idea.keyword.normalize('NFC').replace(/\s+/g, ' ').trim().slice(0, MAX_KEYWORD_LENGTH)
    if (!keyword) continue
    const key = keyword.toLowerCase()
    if (!byKey.has(key)) byKey.set(key, { ...idea, keyword })
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, idea]) => idea)
}

type SavedRow = {
  id: string
  user_id: string
  keyword: string
  country_code: string
  country_name: string
  language_code: string
  language_name: string
  avg_monthly_searches: number | null
  difficulty_score: number | null
  source: KeywordSource
  seed_query: string
  searched_via_auto_pilot: boolean
  created_at: Date | string
  updated_at: Date | string
  intent: string | null
  intent_source: KeywordSource | null
  cpc: number | null
  cpc_currency: string | null
  competition: number | null
  competition_level: 'low' | 'medium' | 'high' | null
  monthly_searches: unknown
  serp_features: string[] | null
  origin: 'search' | 'domain' | 'gap'
  ranked_position: number | null
  ranked_url: string | null
  competitor_domain: string | null
  competitor_position: number | null
  competitor_url: string | null
}

/** A text[] literal of our own SERP feature ids (never user text), or null. */
const featuresLiteral = (features: SerpFeature[] | null | undefined) =>
  features ? `{${serpFeaturesOf(features).join(',')}}` : null
const monthlyJson = (monthly: MonthlySearches | null | undefined) => {
  const clean = cleanMonthly(monthly)
  return clean.length ? JSON.stringify(clean) : null
}
const finiteOrNull = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : null)

const asDate = (v: Date | string) => (v instanceof Date ? v : new Date(v))
/** The stored months (jsonb), cleaned; null when none. */
export function readMonthly(v: unknown): MonthlySearches | null {
  let value = v
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      return null
    }
  }
  const clean = cleanMonthly(value)
  return clean.length ? clean : null
}

/**
 * Upserts the user's rows: a keyword already saved for the same market updates its row and gets a new date, so it
 * sorts as new. One statement; Drizzle's conflict target takes columns only and the unique index is on
 * lower(keyword), so it is SQL.
 */
async function saveIdeas(
  userId: string,
  query: ProviderQuery,
  source: KeywordSource,
  ideas: KeywordIdea[],
  viaAutoPilot: boolean,
  executor: Pick<typeof db, 'execute'> = db,
) {
  const rows = cleanIdeas(ideas)
  if (rows.length === 0) return []
  const values = rows.map((i) => {
    const intent = isKeywordIntent(i.intent) ? i.intent : null
    const cpc = finiteOrNull(i.cpc)
    return sql`(${userId}::uuid, ${i.keyword}, ${query.countryCode}, ${query.countryName}, ${query.languageCode}, ${query.languageName}, ${i.avgMonthlySearches}::integer, ${i.difficultyScore}::integer, ${source}::keyword_source, ${query.query}, ${viaAutoPilot}::boolean, now(), now(), ${intent}::text, ${intent ? (i.intentSource ?? source) : null}::keyword_source, ${cpc}::double precision, ${cpc === null ? null : (i.cpcCurrency ?? null)}::text, ${finiteOrNull(i.competition)}::double precision, ${i.competitionLevel ?? null}::text, ${monthlyJson(i.monthlySearches)}::jsonb, ${featuresLiteral(i.serpFeatures)}::text[])`
  })
  // Issue 36: a search updates the metrics it got (a metric it did not get, e.g. the intent of a degraded answer,
  // keeps the row's earlier value) and never origin, ranked_* or competitor_* (a domain or gap lookup's columns).
  const saved = await executor.execute<SavedRow>(sql`
    insert into ${schema.savedKeywords} (user_id, keyword, country_code, country_name, language_code, language_name,
      avg_monthly_searches, difficulty_score, source, seed_query, searched_via_auto_pilot, created_at, updated_at,
      intent, intent_source, cpc, cpc_currency, competition, competition_level, monthly_searches, serp_features)
    values ${sql.join(values, sql`, `)}
    on conflict (user_id, lower(keyword), country_code, language_code, searched_via_auto_pilot) do update set
      keyword = excluded.keyword, country_name = excluded.country_name, language_name = excluded.language_name,
      avg_monthly_searches = excluded.avg_monthly_searches, difficulty_score = excluded.difficulty_score,
      source = excluded.source, seed_query = excluded.seed_query,
      created_at = excluded.created_at, updated_at = excluded.updated_at,
      intent = coalesce(excluded.intent, saved_keywords.intent),
      intent_source = case when excluded.intent is null then saved_keywords.intent_source else excluded.intent_source end,
      cpc = coalesce(excluded.cpc, saved_keywords.cpc),
      cpc_currency = case when excluded.cpc is null then saved_keywords.cpc_currency else excluded.cpc_currency end,
      competition = coalesce(excluded.competition, saved_keywords.competition),
      competition_level = coalesce(excluded.competition_level, saved_keywords.competition_level),
      monthly_searches = coalesce(excluded.monthly_searches, saved_keywords.monthly_searches),
      serp_features = coalesce(excluded.serp_features, saved_keywords.serp_features)
    returning *`)
  const out: SavedKeyword[] = [...saved].map((r) => ({
    id: r.id,
    userId: r.user_id,
    keyword: r.keyword,
    countryCode: r.country_code,
    countryName: r.country_name,
    languageCode: r.language_code,
    languageName: r.language_name,
    avgMonthlySearches: r.avg_monthly_searches,
    difficultyScore: r.difficulty_score,
    source: r.source,
    seedQuery: r.seed_query,
    searchedViaAutoPilot: r.searched_via_auto_pilot,
    createdAt: asDate(r.created_at),
    updatedAt: asDate(r.updated_at),
    intent: isKeywordIntent(r.intent) ? r.intent : null,
    intentSource: r.intent_source,
    cpc: r.cpc === null ? null : Number(r.cpc),
    cpcCurrency: r.cpc_currency,
    competition: r.competition === null ? null : Number(r.competition),
    competitionLevel: r.competition_level,
    monthlySearches: readMonthly(r.monthly_searches),
    serpFeatures: r.serp_features ? serpFeaturesOf(r.serp_features) : null,
    origin: r.origin,
    rankedPosition: r.ranked_position,
    rankedUrl: r.ranked_url,
    competitorDomain: r.competitor_domain,
    competitorPosition: r.competitor_position,
    competitorUrl: r.competitor_url,
  }))
  return out.sort(compareKeywords)
}

/** The lookup of a query's cached answer (started early by the caller) and its cache key, built once. */
type CacheLookup = { key: string; cached: Promise<KeywordIdea[] | null> }

function lookUpCache(provider: KeywordProvider, query: ProviderQuery): CacheLookup {
  const key = keywordCacheKey(provider.id, query)
  const cached = readCache(key)
  cached.catch(() => {}) // awaited later, or never when the quota refuses
  return { key, cached }
}

/** Ideas for the query (cache or provider), saved as the user's rows; waits for the cache write too. */
async function fetchAndSaveIdeas(
  userId: string,
  query: ProviderQuery,
  provider: KeywordProvider,
  viaAutoPilot: boolean,
  lookup: CacheLookup,
): Promise<SavedKeyword[]> {
  const { ideas, stored } = await ideasThroughCache(provider, query, lookup.key, lookup.cached)
  const [saved] = await Promise.all([saveIdeas(userId, query, provider.id, ideas, viaAutoPilot), stored])
  return saved
}

/**
 * Researches a query for a user without counting a search (Auto Pilot's research): provider answer (or the
 * 24-hour cache), then upserts the user's saved rows — a keyword already saved for the same market updates its row
 * and gets a new date, so it sorts as new. searchKeywordsWithQuota is the counted search of the Keywords screen.
 * Throws KeywordsUnavailableError, KeywordProviderError or InvalidKeywordQueryError.
 */
export async function researchKeywordsWithoutQuota(
  userId: string,
  q: KeywordQuery,
  opts: { viaAutoPilot: boolean },
): Promise<SavedKeyword[]> {
  const query = parseKeywordQuery(q)
  const provider = keywordProvider()
  if (!provider) throw new KeywordsUnavailableError()
  return fetchAndSaveIdeas(userId, query, provider, opts.viaAutoPilot, lookUpCache(provider, query))
}

export type SearchResult =
  | { ok: true; keywords: SavedKeyword[]; note: string | null }
  | { ok: false; reason: 'quota' | 'provider_error' | 'unavailable' }

/**
 * A user's keyword search (the Keywords screen, POST /api/search): one unit of the keywordSearches quota, taken
 * atomically in the same transaction that saves the rows, so a search is charged exactly when its keywords are
 * saved: a provider error charges nothing, and an outage of Postgres in the middle (a restart, a failover) leaves
 * neither a unit nor a row, and is rethrown for the 503 + Retry-After of `guardBuild` (a refund after the fact
 * would need the very database that is away). A read of the quota first spares a provider call for a user over
 * the limit; the transaction still decides, so concurrent searches at the limit cannot both be charged. A cached
 * answer still counts as a search. Takes the query as keywordSearchSchema parsed it.
 */
export async function searchKeywordsWithQuota(userId: string, query: KeywordSearchInput): Promise<SearchResult> {
  const provider = keywordProvider()
  if (!provider) return { ok: false, reason: 'unavailable' }
  // The cache lookup runs alongside the quota read (one round trip less); it is used only if the quota allows.
  const lookup = lookUpCache(provider, query)
  if (!(await quotaAvailable(userId, 'keywordSearches'))) return { ok: false, reason: 'quota' }
  let fetched: Fetched
  try {
    fetched = await ideasThroughCache(provider, query, lookup.key, lookup.cached)
  } catch (error) {
    if (classifyOutage(error)) throw error
    console.error('[keywords] search failed:', error instanceof Error ? error.message : error)
    return { ok: false, reason: 'provider_error' }
  }
  const saved = await db.transaction(async (tx) => {
    const quota = await consumeQuota(userId, 'keywordSearches', tx)
    if (!quota.ok) return null
    return saveIdeas(userId, query, provider.id, fetched.ideas, false, tx)
  })
  await fetched.stored
  return saved ? { ok: true, keywords: saved, note: fetched.note } : { ok: false, reason: 'quota' }
}

// ---------------------------------------------------------------------------
// Reading the saved list
// ---------------------------------------------------------------------------

/** Issue 36's columns of a saved row, as the list, the library and the API read them. */
export const metricColumns = {
  intent: schema.savedKeywords.intent,
  intentSource: schema.savedKeywords.intentSource,
  cpc: schema.savedKeywords.cpc,
  cpcCurrency: schema.savedKeywords.cpcCurrency,
  competition: schema.savedKeywords.competition,
  competitionLevel: schema.savedKeywords.competitionLevel,
  monthlySearches: schema.savedKeywords.monthlySearches,
  serpFeatures: schema.savedKeywords.serpFeatures,
  origin: schema.savedKeywords.origin,
  rankedPosition: schema.savedKeywords.rankedPosition,
  rankedUrl: schema.savedKeywords.rankedUrl,
  competitorDomain: schema.savedKeywords.competitorDomain,
  competitorPosition: schema.savedKeywords.competitorPosition,
  competitorUrl: schema.savedKeywords.competitorUrl,
}

/** A row read with metricColumns, its jsonb and text[] made typed (and cleaned: they are stored data). */
export function withMetrics<T extends { monthlySearches: unknown; serpFeatures: string[] | null }>(
  row: T,
): Omit<T, 'monthlySearches' | 'serpFeatures'> & {
  monthlySearches: MonthlySearches | null
  serpFeatures: SerpFeature[] | null
} {
  return {
    ...row,
    monthlySearches: readMonthly(row.monthlySearches),
    serpFeatures: row.serpFeatures ? serpFeaturesOf(row.serpFeatures) : null,
  }
}

const listColumns = {
  id: schema.savedKeywords.id,
  keyword: schema.savedKeywords.keyword,
  avgMonthlySearches: schema.savedKeywords.avgMonthlySearches,
  difficultyScore: schema.savedKeywords.difficultyScore,
  createdAt: schema.savedKeywords.createdAt,
  source: schema.savedKeywords.source,
  countryCode: schema.savedKeywords.countryCode,
  countryName: schema.savedKeywords.countryName,
  languageCode: schema.savedKeywords.languageCode,
  languageName: schema.savedKeywords.languageName,
  searchedViaAutoPilot: schema.savedKeywords.searchedViaAutoPilot,
  ...metricColumns,
}
export type SavedKeywordListRow = { [K in keyof typeof listColumns]: SavedKeyword[K] }

/** The keywords a user searched by hand (Auto Pilot's are hidden), newest first then higher volume. */
export async function listSavedKeywords(userId: string, opts: { limit?: number } = {}) {
  const t = schema.savedKeywords
  const where = and(eq(t.userId, userId), eq(t.searchedViaAutoPilot, false))
  const rowsQuery = db
    .select(listColumns)
    .from(t)
    .where(where)
    .orderBy(desc(t.createdAt), sql`${t.avgMonthlySearches} desc nulls last`, asc(t.id))
  const [rows, [count]] = await Promise.all([
    opts.limit === undefined ? rowsQuery : rowsQuery.limit(opts.limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(t)
      .where(where),
  ])
  return { rows: rows.map(withMetrics) as SavedKeywordListRow[], total: count?.total ?? 0 }
}

// ---------------------------------------------------------------------------
// Prefilled searches (from onboarding)
// ---------------------------------------------------------------------------

/**
 * Claims the one run of a prefilled search for a minute, so that a repeated request of the same prefill URL
 * (a double request, a re-sent redirect) does not search, and charge, twice. Fails open when Redis is down:
 * the page redirects to a clean URL after the run anyway, so a reload never repeats it.
 */
export async function claimPrefilledRun(userId: string, q: KeywordQuery): Promise<boolean> {
  const digest = crypto
    .createHash('sha256')
    .update(JSON.stringify([userId, q.query, q.countryCode, q.languageCode]))
    .digest('base64url')
  try {
    return (await redis().set(`kw:prefill:${digest}`, '1', 'EX', 60, 'NX')) === 'OK'
  } catch {
    return true
  }
}

/**
 * A saved keyword as the JSON API shows it (the spec's fields plus market, source and the estimate flag), then issue
 * 36's fields (null when unknown).
 */
export function toApiKeyword(row: SavedKeywordListRow) {
  return {
    _id: row.id,
    keyword: row.keyword,
    avgMonthlySearches: row.avgMonthlySearches,
    difficultyScore: row.difficultyScore,
    createdAt: row.createdAt.toISOString(),
    searchedViaAutoPilot: row.searchedViaAutoPilot,
    countryCode: row.countryCode,
    countryName: row.countryName,
    languageCode: row.languageCode,
    languageName: row.languageName,
    source: row.source,
    isEstimate: row.source === 'ai_estimate',
    intent: row.intent ?? null,
    intentSource: row.intentSource ?? null,
    cpc: row.cpc ?? null,
    cpcCurrency: row.cpcCurrency ?? null,
    competition: row.competition ?? null,
    competitionLevel: row.competitionLevel ?? null,
    monthlySearches: row.monthlySearches ?? null,
    serpFeatures: row.serpFeatures ?? null,
    origin: row.origin ?? 'search',
    rankedPosition: row.rankedPosition ?? null,
    rankedUrl: row.rankedUrl ?? null,
    competitorDomain: row.competitorDomain ?? null,
    competitorPosition: row.competitorPosition ?? null,
    competitorUrl: row.competitorUrl ?? null,
  }
}

/** One of the user's saved keywords (id and text), or null (also for an id that is not a UUID). */
export async function findSavedKeyword(userId: string, id: string) {
  if (!isUuid(id)) return null
  const [keyword] = await db
    .select({ id: schema.savedKeywords.id, keyword: schema.savedKeywords.keyword })
    .from(schema.savedKeywords)
    .where(and(eq(schema.savedKeywords.id, id), eq(schema.savedKeywords.userId, userId)))
    .limit(1)
  return keyword ?? null
}
