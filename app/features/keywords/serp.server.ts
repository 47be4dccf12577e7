import { and, desc, eq, gte, sql } from 'drizzle-orm'
import { z } from 'zod'
import { COUNTRY_OPTIONS, languageIso } from '#app/platform/markets/markets'
import {
  bareDomain,
  normalizeSerpKeyword,
  SERP_FEATURE_IDS,
  serpDay,
  serpTimestamp,
  type SerpFeatureId,
  type SerpItem,
  type SerpResult,
} from './serp'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv, services } from '#app/platform/env.server'
import { dataForSeoLiveTask } from '#app/features/keywords/providers/dataforseo-task.server'
import { KeywordProviderError } from '#app/features/keywords/providers/types'

/**
 * Google organic results from DataForSEO's SERP API (`POST /v3/serp/google/organic/live/advanced`), cached in
 * serp_cache: one row per normalised keyword, market and UTC day, shared by every user and by the content engine
 * (research: top 10, up to 7 days old) and the rank tracker (top 100, today's). Concurrent callers of one key in
 * this process share one request; across processes the upsert keeps the deeper answer.
 */
export type SerpQuery = {
  keyword: string
  /** Google Ads geo id of the market ('2840'), or its ISO 3166 code ('US'). */
  countryCode: string
  /** Google Ads language id ('1000'), or its ISO 639-1 code ('en'). */
  languageCode: string
  depth: 10 | 100
  /** How old a cached answer may be, in days; 0 = fetched today (UTC). */
  maxAgeDays: number
  /** Total time allowed for the provider call, retries included (default 15 s). */
  budgetMs?: number
}
export type SerpAnswer = { ok: true; serp: SerpResult; cached: boolean } | { ok: false; reason: string }

const serpResultSchema = z.object({
  items: z.array(
    z.object({
      rank: z.number(),
      url: z.string(),
      domain: z.string(),
      title: z.string(),
      description: z.string(),
      // Answers cached before issue 36 have neither: no date, no features.
      publishedAt: z.string().nullable().catch(null).default(null),
    }),
  ),
  peopleAlsoAsk: z.array(z.string()),
  relatedSearches: z.array(z.string()),
  features: z
    .array(z.string())
    .catch([])
    .default([])
    .transform((list) => SERP_FEATURE_IDS.filter((f) => list.includes(f))),
  fetchedAt: z.string(),
})

/** The market as DataForSEO wants it: location_code (Google Ads geo id) and language_code (ISO 639-1). */
export function serpMarket(countryCode: string, languageCode: string) {
  const country = /^\d+$/.test(countryCode)
    ? countryCode
    : COUNTRY_OPTIONS.find((c) => c.iso.toLowerCase() === countryCode.toLowerCase())?.value
  const language = /^\d+$/.test(languageCode) ? languageIso(languageCode) : languageCode.toLowerCase()
  if (!country || !language) return null
  return { location_code: Number(country), language_code: language }
}

// ---------------------------------------------------------------------------------------------------------------
// The wire answer
// ---------------------------------------------------------------------------------------------------------------

type WireItem = {
  type?: unknown
  rank_group?: unknown
  rank_absolute?: unknown
  url?: unknown
  domain?: unknown
  title?: unknown
  description?: unknown
  timestamp?: unknown
  items?: unknown
}
const text = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '')

/**
 * Organic results (ranked by organic position, rank_group, with their publication date), 'People also ask'
 * questions, related searches and the SERP features present (item types 'ai_overview', 'people_also_ask', 'video',
 * 'local_pack'; also read from the result's `item_types` when given).
 */
export function parseSerpItems(items: unknown, depth: number, fetchedAt: string, itemTypes?: unknown): SerpResult {
  const list = Array.isArray(items) ? (items as WireItem[]) : []
  const organic: SerpItem[] = []
  const questions: string[] = []
  const related: string[] = []
  const seen = new Set<string>(Array.isArray(itemTypes) ? itemTypes.filter((t) => typeof t === 'string') : [])
  for (const item of list) {
    if (!item || typeof item !== 'object') continue
    if (typeof item.type === 'string') seen.add(item.type)
    if (item.type === 'organic') {
      const url = text(item.url)
      let parsed: URL | null = null
      try {
        parsed = new URL(url)
      } catch {
        parsed = null
      }
      if (!parsed || !/^https?:$/.test(parsed.protocol)) continue
      const rank = Number(item.rank_group)
      organic.push({
        rank: Number.isInteger(rank) && rank > 0 ? rank : organic.length + 1,
        url,
        domain: bareDomain(text(item.domain) || parsed.hostname),
        title: text(item.title),
        description: text(item.description),
        publishedAt: serpTimestamp(item.timestamp),
      })
    } else if (item.type === 'people_also_ask' && Array.isArray(item.items)) {
      for (const q of item.items as WireItem[]) {
        const title = text(q?.title)
        if (title && !questions.includes(title)) questions.push(title)
      }
    } else if (item.type === 'related_searches' && Array.isArray(item.items)) {
      for (const r of item.items) {
        const s = text(r)
        if (s && !related.includes(s)) related.push(s)
      }
    }
  }
  organic.sort((a, b) => a.rank - b.rank)
  return {
    items: organic.filter((i) => i.rank <= depth),
    peopleAlsoAsk: questions,
    relatedSearches: related,
    features: SERP_FEATURE_IDS.filter((f): f is SerpFeatureId => seen.has(f)),
    fetchedAt,
  }
}

/**
 * One live DataForSEO task (`POST {DATAFORSEO_API_URL}/{path}` with `[task]`), with bounded retries: the task's first
 * result, or a KeywordProviderError (HTTP errors, the envelope's or the task's status code, no result). Shared by
 * the SERP call here and the Backlinks bulk ranks (domain-strength.server.ts).
 */
export async function dataForSeoTask(
  path: string,
  task: Record<string, unknown>,
  opts: { budgetMs: number; attemptTimeoutMs?: number },
): Promise<Record<string, unknown>> {
  const env = getEnv()
  const liveTask = dataForSeoLiveTask({
    apiUrl: env.DATAFORSEO_API_URL,
    login: env.DATAFORSEO_LOGIN ?? '',
    password: env.DATAFORSEO_PASSWORD ?? '',
  })
  const result = await liveTask(path, task, {
    budgetMs: opts.budgetMs,
    attemptTimeoutMs: opts.attemptTimeoutMs ?? Math.min(8_000, opts.budgetMs),
  })
  const first = result[0]
  if (!first || typeof first !== 'object') throw new KeywordProviderError('the task has no result', 'dataforseo')
  return first as Record<string, unknown>
}

async function callDataForSeo(
  keyword: string,
  market: { location_code: number; language_code: string },
  depth: number,
  budgetMs: number,
): Promise<SerpResult> {
  const first = await dataForSeoTask(
    'serp/google/organic/live/advanced',
    { keyword, ...market, depth, device: 'desktop', os: 'windows' },
    { budgetMs },
  )
  return parseSerpItems(first.items, depth, new Date().toISOString(), first.item_types)
}

// ---------------------------------------------------------------------------------------------------------------
// The cache
// ---------------------------------------------------------------------------------------------------------------

async function readCache(keyword: string, country: string, language: string, depth: number, maxAgeDays: number) {
  const oldest = serpDay(new Date(Date.now() - Math.max(0, maxAgeDays) * 86_400_000))
  const rows = await db
    .select({ result: schema.serpCache.result })
    .from(schema.serpCache)
    .where(
      and(
        eq(schema.serpCache.keyword, keyword),
        eq(schema.serpCache.countryCode, country),
        eq(schema.serpCache.languageCode, language),
        gte(schema.serpCache.fetchedOn, oldest),
        gte(schema.serpCache.depth, depth),
      ),
    )
    .orderBy(desc(schema.serpCache.fetchedOn))
    .limit(1)
  const parsed = rows[0] ? serpResultSchema.safeParse(rows[0].result) : null
  return parsed?.success ? parsed.data : null
}

async function writeCache(keyword: string, country: string, language: string, depth: number, serp: SerpResult) {
  await db
    .insert(schema.serpCache)
    .values({ keyword, countryCode: country, languageCode: language, fetchedOn: serpDay(), depth, result: serp })
    .onConflictDoUpdate({
      target: [
        schema.serpCache.keyword,
        schema.serpCache.countryCode,
        schema.serpCache.languageCode,
        schema.serpCache.fetchedOn,
      ],
      set: { depth: sql`excluded.depth`, result: sql`excluded.result`, fetchedAt: sql`now()` },
      // A shallower answer never replaces a deeper one of the same day.
      setWhere: sql`${schema.serpCache.depth} <= excluded.depth`,
    })
}

const inflight = new Map<string, Promise<SerpAnswer>>()

/**
 * The Google results of a keyword in a market: a cached answer no older than `maxAgeDays` whose depth covers the
 * ask, else a live DataForSEO call (stored for everyone). Never throws for provider trouble: `{ ok: false }`.
 */
export async function getSerp(q: SerpQuery): Promise<SerpAnswer> {
  if (!services().dataforseo) return { ok: false, reason: 'not_configured' }
  const keyword = normalizeSerpKeyword(q.keyword)
  if (!keyword || keyword.length > 700) return { ok: false, reason: 'invalid_keyword' }
  const market = serpMarket(q.countryCode, q.languageCode)
  if (!market) return { ok: false, reason: 'invalid_market' }
  const country = String(market.location_code)
  const language = market.language_code
  const hit = await readCache(keyword, country, language, q.depth, q.maxAgeDays)
  if (hit) return { ok: true, serp: hit, cached: true }

  const key = JSON.stringify([keyword, country, language, q.depth])
  let pending = inflight.get(key)
  if (!pending) {
    pending = (async (): Promise<SerpAnswer> => {
      try {
        const serp = await callDataForSeo(keyword, market, q.depth, q.budgetMs ?? 15_000)
        try {
          await writeCache(keyword, country, language, q.depth, serp)
        } catch (error) {
          console.error('[serp] could not cache an answer:', error)
        }
        return { ok: true, serp, cached: false }
      } catch (error) {
        const message =
          error instanceof KeywordProviderError ? error.message : error instanceof Error ? error.message : 'failed'
        return { ok: false, reason: message }
      }
    })().finally(() => inflight.delete(key))
    inflight.set(key, pending)
  }
  return pending
}
