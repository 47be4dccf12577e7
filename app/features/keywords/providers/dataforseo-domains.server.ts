import { languageIso } from '#app/platform/markets/markets'
import { safeHttpUrl } from '#app/features/keywords/serp-view'
import { dataForSeoLiveTask, type DataForSeoConfig } from './dataforseo-task.server'

/**
 * DataForSEO Labs domain calls (issue 36, decision 0364), each one live task (./dataforseo-task.server.ts):
 *
 * - `ranked_keywords` (POST /dataforseo_labs/google/ranked_keywords/live): the keywords a domain ranks for. Sent:
 *   `target` (a bare domain, no scheme or "www."), `location_code` (Google Ads geo id), `language_code` (ISO 639-1) or
 *   `language_name`, `item_types: ['organic']`, `limit` (≤ 1000), `order_by` (≤ 3 rules) and `filters`. Read from each
 *   item: `keyword_data` {keyword, keyword_info {search_volume, cpc, competition, competition_level, monthly_searches
 *   [{year, month, search_volume}]}, keyword_properties {keyword_difficulty}, search_intent_info {main_intent}} and
 *   `ranked_serp_element.serp_item` {type, rank_group (the organic position), rank_absolute, url}.
 * - `domain_intersection` (POST /dataforseo_labs/google/domain_intersection/live) with `intersections: false`: the
 *   keywords `target1` (the competitor) ranks for and `target2` (the user's domain) does not; each item has the same
 *   `keyword_data` and `first_domain_serp_element` {type, rank_group, rank_absolute, url} (the competitor's result;
 *   `second_domain_serp_element` is empty in this mode).
 *
 * A target DataForSEO knows nothing about answers an empty `items` (or a null result): no keywords, not an error.
 */
export type DomainMarket = { countryCode: string; languageCode: string; languageName: string }

export type Intent = 'informational' | 'commercial' | 'transactional' | 'navigational'

export type DomainKeyword = {
  keyword: string
  avgMonthlySearches: number | null
  difficultyScore: number | null
  intent: Intent | null
  cpc: number | null
  competition: number | null
  competitionLevel: 'low' | 'medium' | 'high' | null
  /** The last 12 months, oldest first. */
  monthlySearches: Array<{ year: number; month: number; searches: number }> | null
  /** The domain's organic position (rank_group) and page for it. */
  position: number | null
  url: string | null
}

/** How many keywords one lookup asks for (and saves). */
export const DOMAIN_KEYWORDS_LIMIT = 100

type KeywordData = {
  keyword?: unknown
  keyword_info?: {
    search_volume?: unknown
    cpc?: unknown
    competition?: unknown
    competition_level?: unknown
    monthly_searches?: unknown
  } | null
  keyword_properties?: { keyword_difficulty?: unknown } | null
  search_intent_info?: { main_intent?: unknown } | null
}
type SerpElement = { type?: unknown; rank_group?: unknown; url?: unknown } | null | undefined

const INTENTS = new Set<Intent>(['informational', 'commercial', 'transactional', 'navigational'])
const intOrNull = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, Math.round(v)) : null)
const numOrNull = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null)

function monthly(v: unknown): DomainKeyword['monthlySearches'] {
  if (!Array.isArray(v)) return null
  const rows = v
    .map((m: { year?: unknown; month?: unknown; search_volume?: unknown } | null) => ({
      year: intOrNull(m?.year),
      month: intOrNull(m?.month),
      searches: intOrNull(m?.search_volume),
    }))
    .filter(
      (m): m is { year: number; month: number; searches: number } =>
        m.year !== null && m.month !== null && m.month >= 1 && m.month <= 12 && m.searches !== null,
    )
    .sort((a, b) => a.year - b.year || a.month - b.month)
    .slice(-12)
  return rows.length > 0 ? rows : null
}

/** The result's page, when it is an absolute http(s) address (without credentials) of a sane length. */
const pageUrl = (v: unknown) => (typeof v === 'string' && v.length <= 2000 ? safeHttpUrl(v) : null)

function toKeyword(data: KeywordData | null | undefined, element: SerpElement): DomainKeyword | null {
  if (!data || typeof data.keyword !== 'string' || !data.keyword.trim()) return null
  const info = data.keyword_info ?? {}
  const level = typeof info.competition_level === 'string' ? info.competition_level.toLowerCase() : null
  const intent = data.search_intent_info?.main_intent
  const position = intOrNull(element?.rank_group)
  return {
    keyword: data.keyword.trim(),
    avgMonthlySearches: intOrNull(info.search_volume),
    difficultyScore: intOrNull(data.keyword_properties?.keyword_difficulty),
    intent: typeof intent === 'string' && INTENTS.has(intent as Intent) ? (intent as Intent) : null,
    cpc: numOrNull(info.cpc),
    competition: numOrNull(info.competition) === null ? null : Math.min(1, numOrNull(info.competition)!),
    competitionLevel: level === 'low' || level === 'medium' || level === 'high' ? level : null,
    monthlySearches: monthly(info.monthly_searches),
    position: position && position > 0 ? position : null,
    url: pageUrl(element?.url),
  }
}

function marketFields(m: DomainMarket) {
  const iso = languageIso(m.languageCode)
  return {
    location_code: Number(m.countryCode),
    ...(iso ? { language_code: iso } : { language_name: m.languageName }),
  }
}

function itemsOf(result: unknown[]): unknown[] {
  const first = result[0] as { items?: unknown } | null | undefined
  return Array.isArray(first?.items) ? first.items : []
}

export function dataForSeoDomains(config: DataForSeoConfig) {
  const liveTask = dataForSeoLiveTask(config)
  return {
    /** The keywords `domain` ranks for organically in the market, best positions first, then by volume. */
    async rankedKeywords(domain: string, market: DomainMarket): Promise<DomainKeyword[]> {
      const result = await liveTask('/dataforseo_labs/google/ranked_keywords/live', {
        target: domain,
        ...marketFields(market),
        item_types: ['organic'],
        limit: DOMAIN_KEYWORDS_LIMIT,
        filters: ['ranked_serp_element.serp_item.rank_group', '<=', 100],
        order_by: ['ranked_serp_element.serp_item.rank_group,asc', 'keyword_data.keyword_info.search_volume,desc'],
      })
      return itemsOf(result)
        .map((i) => {
          const item = i as { keyword_data?: KeywordData; ranked_serp_element?: { serp_item?: SerpElement } } | null
          return toKeyword(item?.keyword_data, item?.ranked_serp_element?.serp_item)
        })
        .filter((k): k is DomainKeyword => k !== null)
    },

    /** The keywords `competitor` ranks for and `own` does not, most searched first; position/url: the competitor's. */
    async keywordGap(competitor: string, own: string, market: DomainMarket): Promise<DomainKeyword[]> {
      const result = await liveTask('/dataforseo_labs/google/domain_intersection/live', {
        target1: competitor,
        target2: own,
        intersections: false,
        ...marketFields(market),
        item_types: ['organic'],
        limit: DOMAIN_KEYWORDS_LIMIT,
        order_by: ['keyword_data.keyword_info.search_volume,desc'],
      })
      return itemsOf(result)
        .map((i) => {
          const item = i as { keyword_data?: KeywordData; first_domain_serp_element?: SerpElement } | null
          return toKeyword(item?.keyword_data, item?.first_domain_serp_element)
        })
        .filter((k): k is DomainKeyword => k !== null)
    },
  }
}
