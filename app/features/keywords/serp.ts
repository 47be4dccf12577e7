/**
 * Google organic results (the DataForSEO SERP API, cached in serp_cache) as the content engine's research and the
 * rank tracker read them. Pure and isomorphic: the types and the keyword normalisation shared by both.
 */
export type SerpItem = {
  rank: number
  url: string
  domain: string
  title: string
  description: string
  /** When the page was published (ISO 8601), from the organic result's `timestamp`; null when Google shows none. */
  publishedAt: string | null
}
/**
 * The SERP features Google showed besides the organic results (DataForSEO item types of the same names). The same
 * ids as `SerpFeature` in keyword-metrics.ts (issue 36).
 */
export const SERP_FEATURE_IDS = ['ai_overview', 'people_also_ask', 'video', 'local_pack'] as const
export type SerpFeatureId = (typeof SERP_FEATURE_IDS)[number]
export type SerpResult = {
  items: SerpItem[]
  peopleAlsoAsk: string[]
  relatedSearches: string[]
  /** SERP features present, in SERP_FEATURE_IDS order ([] for answers cached before issue 36). */
  features: SerpFeatureId[]
  fetchedAt: string
}

/**
 * A DataForSEO timestamp ("2019-11-15 12:57:46 +00:00", UTC) as ISO 8601; null when missing or not a date. An ISO
 * string is accepted as it is.
 */
export function serpTimestamp(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(value.trim())
  if (!m) return null
  const zone = !m[5] || m[5] === 'Z' ? 'Z' : m[5].length === 5 ? `${m[5].slice(0, 3)}:${m[5].slice(3)}` : m[5]
  const date = new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}${zone}`)
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1990) return null
  return date.toISOString()
}

/** The cache key of a keyword: trimmed, lower case, inner whitespace collapsed to single spaces (Unicode-aware). */
export function normalizeSerpKeyword(keyword: string): string {
  return keyword.normalize('NFC').trim().toLocaleLowerCase('en-US').replace(/\s+/gu, ' ')
}

/** The UTC day (YYYY-MM-DD) a SERP was fetched on: one cache row per keyword, market and day. */
export function serpDay(at: Date = new Date()): string {
  return at.toISOString().slice(0, 10)
}

/** A host name without its leading "www." and in lower case, for domain matching. */
export function bareDomain(hostOrUrl: string): string {
  let host = hostOrUrl.trim()
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) host = new URL(host).hostname
  } catch {
    /* not a URL: use as it is */
  }
  return host
    .toLowerCase()
    .replace(/^www\./, '')
    .replace(/\.$/, '')
}

/** The first organic position of a domain (or of exactly one URL) in a SERP, or null when it is not there. */
export function positionOf(serp: SerpResult, target: { domain?: string; url?: string }): number | null {
  const domain = target.domain ? bareDomain(target.domain) : null
  const url = target.url ? comparableUrl(target.url) : null
  for (const item of serp.items) {
    if (url && comparableUrl(item.url) === url) return item.rank
    if (!url && domain && bareDomain(item.domain || item.url) === domain) return item.rank
  }
  return null
}

/** A URL without scheme, "www.", fragment and trailing slash, for comparing two addresses of one page. */
export function comparableUrl(url: string): string {
  try {
    const u = new URL(url)
    const path = u.pathname.replace(/\/+$/, '')
    return `${bareDomain(u.hostname)}${path}${u.search}`
  } catch {
    return url.trim().toLowerCase()
  }
}
