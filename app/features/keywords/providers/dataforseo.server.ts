import { languageIso } from '#app/platform/markets/markets'
import {
  cleanMonthly,
  competitionLevelOf,
  isKeywordIntent,
  serpFeaturesOf,
  type KeywordIntent,
} from '#app/features/keywords/keyword-metrics'
import { dataForSeoLiveTask } from './dataforseo-task.server'
import {
  IDEAS_PER_SEARCH,
  INTENT_UNAVAILABLE_NOTE,
  type KeywordIdea,
  type KeywordProvider,
  type ProviderQuery,
} from './types'

/**
 * DataForSEO Labs (v3): `keyword_ideas` gives ideas with search volume (keyword_info.search_volume) and
 * keyword difficulty (keyword_properties.keyword_difficulty, 0-100) for a location and language. When the seed
 * itself is not among the ideas (or is shorter than the 3 characters keyword_ideas accepts), `related_keywords`
 * with include_seed_keyword supplies it. location_code is the Google Ads geo target id; language_code is ISO 639-1.
 *
 * Issue 36: the same items carry keyword_info (cpc in USD, competition 0-1, competition_level, monthly_searches as
 * {year, month, search_volume}), search_intent_info (main_intent) and, asked with include_serp_info, serp_info
 * (serp_item_types). Ideas that come without an intent get it from ONE batched Labs `search_intent/live` call (up to
 * 1,000 keywords, language only) made alongside the seed's related_keywords call when that one is needed: a search
 * is at most two sequential round trips. When the intent call fails, the ideas are kept without intent and the answer
 * carries a note.
 */
type Config = { apiUrl: string; login: string; password: string }

type KeywordDataInfo = {
  keyword?: unknown
  keyword_info?: {
    search_volume?: unknown
    cpc?: unknown
    competition?: unknown
    competition_level?: unknown
    monthly_searches?: Array<{ year?: unknown; month?: unknown; search_volume?: unknown }> | null
  } | null
  keyword_properties?: { keyword_difficulty?: unknown } | null
  search_intent_info?: { main_intent?: unknown } | null
  serp_info?: { serp_item_types?: unknown } | null
}

type SearchIntentItem = { keyword?: unknown; keyword_intent?: { label?: unknown; probability?: unknown } | null }

/** At most this many keywords in one search_intent task. */
const INTENT_BATCH = 1000

const intOrNull = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, Math.round(v)) : null)

const numOrNull = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null)

function toIdea(item: KeywordDataInfo | null | undefined): KeywordIdea | null {
  if (!item || typeof item.keyword !== 'string' || !item.keyword.trim()) return null
  const info = item.keyword_info
  const intent = item.search_intent_info?.main_intent
  const cpc = numOrNull(info?.cpc)
  const competition = numOrNull(info?.competition)
  const monthly = Array.isArray(info?.monthly_searches)
    ? cleanMonthly(info.monthly_searches.map((m) => ({ year: m?.year, month: m?.month, searches: m?.search_volume })))
    : []
  const types = item.serp_info?.serp_item_types
  return {
    keyword: item.keyword.trim(),
    avgMonthlySearches: intOrNull(info?.search_volume),
    difficultyScore: intOrNull(item.keyword_properties?.keyword_difficulty),
    intent: isKeywordIntent(intent) ? intent : null,
    intentSource: isKeywordIntent(intent) ? 'dataforseo' : null,
    cpc,
    cpcCurrency: cpc === null ? null : 'USD',
    competition: competition === null ? null : Math.min(1, competition),
    competitionLevel: competitionLevelOf(info?.competition_level),
    monthlySearches: monthly.length ? monthly : null,
    serpFeatures: Array.isArray(types) ? serpFeaturesOf(types) : null,
  }
}

export function dataForSeoProvider(config: Config): KeywordProvider {
  /** One live task; resolves to the task's `result` array. */
  const liveTask = dataForSeoLiveTask(config)

  function market(q: ProviderQuery) {
    const iso = languageIso(q.languageCode)
    return {
      location_code: Number(q.countryCode),
      ...(iso ? { language_code: iso } : { language_name: q.languageName }),
    }
  }

  async function keywordIdeas(q: ProviderQuery): Promise<KeywordIdea[]> {
    const result = await liveTask('/dataforseo_labs/google/keyword_ideas/live', {
      keywords: [q.query],
      ...market(q),
      include_serp_info: true,
      limit: IDEAS_PER_SEARCH,
    })
    const first = result[0] as { items?: KeywordDataInfo[] | null } | undefined
    return (first?.items ?? []).map(toIdea).filter((i): i is KeywordIdea => i !== null)
  }

  /** The seed's own data plus (depth > 0) its related keywords. */
  async function relatedKeywords(q: ProviderQuery, depth: number): Promise<KeywordIdea[]> {
    const result = await liveTask('/dataforseo_labs/google/related_keywords/live', {
      keyword: q.query,
      ...market(q),
      depth,
      include_seed_keyword: true,
      limit: IDEAS_PER_SEARCH,
    })
    const first = result[0] as
      | { seed_keyword_data?: KeywordDataInfo | null; items?: Array<{ keyword_data?: KeywordDataInfo | null }> | null }
      | undefined
    const seed = toIdea(first?.seed_keyword_data)
    const related = (first?.items ?? []).map((i) => toIdea(i.keyword_data)).filter((i): i is KeywordIdea => i !== null)
    return seed ? [seed, ...related] : related
  }

  /**
   * The main intent of each keyword (lower case) from Labs search_intent (language only; keywords of at least 3
   * characters). Shorter budget than a search: the ideas are worth showing without it.
   */
  async function searchIntents(q: ProviderQuery, keywords: string[]): Promise<Map<string, KeywordIntent>> {
    const out = new Map<string, KeywordIntent>()
    const wanted = [...new Set(keywords.map((k) => k.toLowerCase()).filter((k) => k.length >= 3))].slice(
      0,
      INTENT_BATCH,
    )
    if (wanted.length === 0) return out
    const iso = languageIso(q.languageCode)
    const result = await liveTask(
      '/dataforseo_labs/google/search_intent/live',
      { keywords: wanted, ...(iso ? { language_code: iso } : { language_name: q.languageName }) },
      { maxAttempts: 2, budgetMs: 8_000 },
    )
    const first = result[0] as { items?: SearchIntentItem[] | null } | undefined
    for (const item of first?.items ?? []) {
      const label = item.keyword_intent?.label
      if (typeof item.keyword === 'string' && isKeywordIntent(label)) out.set(item.keyword.toLowerCase(), label)
    }
    return out
  }

  /** Fills the intent of the ideas that came without one; a failure leaves them without and says so. */
  async function withIntents(
    q: ProviderQuery,
    ideas: Promise<KeywordIdea[]>,
    intents: Promise<Map<string, KeywordIntent>> | null,
  ) {
    const [list, found] = await Promise.all([
      ideas,
      intents?.then(
        (m) => ({ ok: true as const, m }),
        () => null,
      ),
    ])
    if (!intents) return { ideas: list, note: null }
    if (!found) return { ideas: list, note: INTENT_UNAVAILABLE_NOTE }
    return {
      ideas: list.map((i) => {
        if (i.intent) return i
        const intent = found.m.get(i.keyword.toLowerCase())
        return intent ? { ...i, intent, intentSource: 'dataforseo' as const } : i
      }),
      note: null,
    }
  }

  const lacking = (ideas: KeywordIdea[]) => ideas.filter((i) => !i.intent).map((i) => i.keyword)

  return {
    id: 'dataforseo',
    async ideas(q) {
      if (q.query.length < 3) {
        const ideas = await relatedKeywords(q, 1)
        const missing = lacking(ideas)
        return withIntents(q, Promise.resolve(ideas), missing.length ? searchIntents(q, missing) : null)
      }
      const ideas = await keywordIdeas(q)
      const hasSeed = ideas.some((i) => i.keyword.toLowerCase() === q.query)
      // Round two, in parallel: the seed's own data when keyword_ideas left it out, and the intent of every idea
      // without one (the seed included, in case its data comes without).
      const missing = lacking(ideas)
      if (!hasSeed) missing.push(q.query)
      const intents = missing.length ? searchIntents(q, missing) : null
      intents?.catch(() => {})
      const all = hasSeed
        ? Promise.resolve(ideas)
        : relatedKeywords(q, 0).then((seed) => [...seed.filter((i) => i.keyword.toLowerCase() === q.query), ...ideas])
      return withIntents(q, all, intents)
    },
  }
}
