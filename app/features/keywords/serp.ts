/**
 * Google organic results (the DataForSEO SERP API, cached in serp_cache) as the content engine's research and the
 * rank tracker read them. Pure and isomorphic: the types and the keyword normalisation shared by both.
 */
export type SerpItem = { rank: number; url: string; domain: string; title: string; description: string }
export type SerpResult = { items: SerpItem[]; peopleAlsoAsk: string[]; relatedSearches: string[]; fetchedAt: string }

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
