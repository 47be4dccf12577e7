import { and, eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { capabilities } from '#app/platform/capabilities.server'
import { quotaRefusal } from '#app/features/billing/quota.server'
import { isUuid } from '#app/platform/security/ids'
import { comparableUrl } from './serp'
import { getSerp } from './serp.server'
import { domainStrength } from './domain-strength.server'
import { chargeLookup, lookupAllowed, type Lookup } from './lookups.server'
import { ageInWords, classifyResult, summarizeSerp } from './serp-summary'
import {
  plainText,
  safeHttpUrl,
  SERP_FEATURE_NAMES,
  SERP_VIEW_MESSAGES,
  type SerpViewAnswer,
  type SerpViewRow,
} from './serp-view'

/**
 * Issue 36 (decision 0362): a saved keyword's results page. Google's top 10 for the keyword's market through the
 * shared SERP cache (getSerp, depth 10, up to 7 days old: the very row the content engine's research reads, so one
 * provider call serves both), each domain's strength (domain-strength.server.ts), each page's length in words where
 * the content engine's research read it (handed in by the route: keywords may not import content) and its age, a
 * summary in plain words and the SERP features.
 *
 * Quota (decision 0360): the first open of a keyword's results on a UTC day counts as one keyword search, later opens
 * that day are free; at the limit the plan's message, and nothing is read. A provider failure charges nothing.
 */
export type KeywordSerpOptions = {
  /** The word counts of pages research read for this keyword and market, by URL. */
  wordCounts?: (keyword: string, countryCode: string, languageCode: string) => Promise<Map<string, number>>
}

async function savedKeyword(userId: string, id: string) {
  if (!isUuid(id)) return null
  const t = schema.savedKeywords
  const [row] = await db
    .select({
      id: t.id,
      keyword: t.keyword,
      countryCode: t.countryCode,
      countryName: t.countryName,
      languageCode: t.languageCode,
      languageName: t.languageName,
    })
    .from(t)
    .where(and(eq(t.id, id), eq(t.userId, userId)))
    .limit(1)
  return row ?? null
}

async function refusal(userId: string): Promise<SerpViewAnswer> {
  const { message, upgrade } = await quotaRefusal(userId, 'keywordSearches')
  return { ok: false, reason: 'quota', message, upgrade }
}

export async function keywordSerpView(
  userId: string,
  keywordId: string,
  opts: KeywordSerpOptions = {},
): Promise<SerpViewAnswer> {
  const keyword = await savedKeyword(userId, keywordId)
  if (!keyword) return { ok: false, reason: 'not_found' }
  if (!capabilities().serp) return { ok: false, reason: 'unavailable', message: SERP_VIEW_MESSAGES.unavailable }

  const lookup: Lookup = {
    kind: 'serp',
    subject: keyword.id,
    countryCode: keyword.countryCode,
    languageCode: keyword.languageCode,
  }
  if (!(await lookupAllowed(userId, lookup))) return refusal(userId)

  const answer = await getSerp({
    keyword: keyword.keyword,
    countryCode: keyword.countryCode,
    languageCode: keyword.languageCode,
    depth: 10,
    maxAgeDays: 7,
  })
  if (!answer.ok) {
    if (answer.reason !== 'not_configured') console.warn(`[serp-view] results unavailable: ${answer.reason}`)
    return {
      ok: false,
      reason: answer.reason === 'not_configured' ? 'unavailable' : 'provider_error',
      message:
        answer.reason === 'not_configured'
          ? SERP_VIEW_MESSAGES.unavailable
          : answer.reason === 'invalid_market'
            ? SERP_VIEW_MESSAGES.invalidMarket
            : SERP_VIEW_MESSAGES.providerError,
    }
  }
  const charge = await chargeLookup(userId, lookup)
  if (!charge.ok) return refusal(userId)

  const items = answer.serp.items
    .slice(0, 10)
    .map((item) => ({ ...item, url: safeHttpUrl(item.url) }))
    .filter((item): item is typeof item & { url: string } => item.url !== null)
  const [strengths, words] = await Promise.all([
    domainStrength(items.map((i) => i.domain)),
    (opts.wordCounts?.(keyword.keyword, keyword.countryCode, keyword.languageCode) ?? Promise.resolve(new Map())).catch(
      (error: unknown) => {
        console.error('[serp-view] word counts unavailable:', error)
        return new Map<string, number>()
      },
    ),
  ])
  const wordsByUrl = new Map<string, number>()
  for (const [url, count] of words) wordsByUrl.set(comparableUrl(url), count)

  const now = new Date()
  const rows: SerpViewRow[] = items.map((item) => {
    const strength = strengths.get(item.domain) ?? null
    return {
      rank: item.rank,
      title: plainText(item.title) || item.domain,
      url: item.url,
      domain: plainText(item.domain, 253),
      strength,
      kind: classifyResult(item.domain, strength),
      words: wordsByUrl.get(comparableUrl(item.url)) ?? null,
      publishedAt: item.publishedAt ?? null,
      age: ageInWords(item.publishedAt ?? null, now),
    }
  })
  return {
    ok: true,
    view: {
      keyword: {
        id: keyword.id,
        keyword: keyword.keyword,
        market: [keyword.countryName, keyword.languageName].filter(Boolean).join(' · '),
        countryCode: keyword.countryCode,
        languageCode: keyword.languageCode,
      },
      rows,
      summary: summarizeSerp(rows),
      features: (answer.serp.features ?? []).map((id) => ({ id, label: SERP_FEATURE_NAMES[id] })),
      strengthAvailable: rows.length === 0 || rows.some((r) => r.strength !== null),
      fetchedAt: answer.serp.fetchedAt,
    },
  }
}
