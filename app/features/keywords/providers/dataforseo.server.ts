import { languageIso } from '#app/platform/markets/markets'
import { isRetryableStatus, retryAfterMs } from '#app/platform/http/http-retry'
import { fetchJson, withRetries, type Outcome } from './http.server'
import { IDEAS_PER_SEARCH, type KeywordIdea, type KeywordProvider, type ProviderQuery } from './types'

/**
 * DataForSEO Labs (v3): `keyword_ideas` gives ideas with search volume (keyword_info.search_volume) and
 * keyword difficulty (keyword_properties.keyword_difficulty, 0-100) for a location and language. When the seed
 * itself is not among the ideas (or is shorter than the 3 characters keyword_ideas accepts), `related_keywords`
 * with include_seed_keyword supplies it. location_code is the Google Ads geo target id; language_code is ISO 639-1.
 */
type Config = { apiUrl: string; login: string; password: string }

type Envelope = {
  status_code?: number
  status_message?: string
  tasks?: Array<{ status_code?: number; status_message?: string; result?: unknown[] | null }> | null
}

type KeywordDataInfo = {
  keyword?: unknown
  keyword_info?: { search_volume?: unknown } | null
  keyword_properties?: { keyword_difficulty?: unknown } | null
}

/** Task and envelope codes worth another try: rate limits and DataForSEO's internal errors. */
const retryableCode = (code: number) => code === 40202 || (code >= 50000 && code < 60000)

const intOrNull = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, Math.round(v)) : null)

function toIdea(item: KeywordDataInfo | null | undefined): KeywordIdea | null {
  if (!item || typeof item.keyword !== 'string' || !item.keyword.trim()) return null
  return {
    keyword: item.keyword.trim(),
    avgMonthlySearches: intOrNull(item.keyword_info?.search_volume),
    difficultyScore: intOrNull(item.keyword_properties?.keyword_difficulty),
  }
}

export function dataForSeoProvider(config: Config): KeywordProvider {
  const base = config.apiUrl.replace(/\/+$/, '')
  const auth = `Basic ${Buffer.from(`${config.login}:${config.password}`).toString('base64')}`

  /** One live task; resolves to the task's `result` array. */
  function liveTask(path: string, task: Record<string, unknown>) {
    return withRetries('dataforseo', async (signal): Promise<Outcome<unknown[]>> => {
      const res = await fetchJson(
        `${base}${path}`,
        {
          method: 'POST',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: JSON.stringify([task]),
        },
        signal,
      )
      const env = (res.body && typeof res.body === 'object' ? res.body : {}) as Envelope
      if (res.status < 200 || res.status >= 300) {
        return {
          ok: false,
          retryable: isRetryableStatus(res.status),
          status: res.status,
          retryAfterMs: retryAfterMs(res.headers),
          message: `HTTP ${res.status} ${env.status_message ?? ''}`.trim(),
        }
      }
      if (env.status_code !== 20000) {
        const code = env.status_code ?? 0
        return {
          ok: false,
          retryable: retryableCode(code),
          status: res.status,
          message: `${code} ${env.status_message ?? 'unexpected answer'}`,
        }
      }
      const t = env.tasks?.[0]
      if (!t) return { ok: false, retryable: false, message: 'the answer has no task' }
      if (t.status_code !== 20000) {
        const code = t.status_code ?? 0
        return { ok: false, retryable: retryableCode(code), message: `task ${code} ${t.status_message ?? ''}`.trim() }
      }
      return { ok: true, value: t.result ?? [] }
    })
  }

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

  return {
    id: 'dataforseo',
    async ideas(q) {
      if (q.query.length < 3) return relatedKeywords(q, 1)
      const ideas = await keywordIdeas(q)
      if (ideas.some((i) => i.keyword.toLowerCase() === q.query)) return ideas
      const seed = await relatedKeywords(q, 0)
      return [...seed.filter((i) => i.keyword.toLowerCase() === q.query), ...ideas]
    },
  }
}
