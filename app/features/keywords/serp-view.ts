import type { SerpFeatureId } from './serp'
import type { SerpResultKind, SerpSummary } from './serp-summary'

/**
 * Issue 36: a saved keyword's results page (Google's top 10 with each domain's strength, the page's length and age),
 * as /keywords/:id/serp, its dialog on /keywords and GET /api/keywords/:id/serp show it. Pure and isomorphic: the
 * shape and the words (decision 0353: product words, never a provider's name).
 */
export type SerpViewRow = {
  rank: number
  /** Google's title of the page: text (never markup), control characters removed. */
  title: string
  /** An http(s) address only. */
  url: string
  domain: string
  /** The domain's strength, 0-1000 (SERP_STRENGTH_MAX); null when unavailable. */
  strength: number | null
  kind: SerpResultKind
  /** The page's length in words, when research read it; else null. */
  words: number | null
  /** When the page was published (ISO 8601), when Google shows it; else null. */
  publishedAt: string | null
  /** '3 months old'; null when unknown. */
  age: string | null
}

export type SerpView = {
  keyword: { id: string; keyword: string; market: string; countryCode: string; languageCode: string }
  rows: SerpViewRow[]
  summary: SerpSummary
  features: Array<{ id: SerpFeatureId; label: string }>
  /** False when no domain's strength could be had (the page says so). */
  strengthAvailable: boolean
  /** When Google's results were read (ISO 8601). */
  fetchedAt: string
}

export type SerpViewAnswer =
  | { ok: true; view: SerpView }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'quota' | 'unavailable' | 'provider_error'; message: string; upgrade?: boolean }

/** What the results page's loader answers (and its dialog reads): the view, or a message saying why not. */
export type SerpPagePayload = { view: SerpView | null; message: string | null; upgrade: boolean }

export const SERP_STRENGTH_MAX = 1000

export const SERP_VIEW_MESSAGES = {
  notFound: 'Keyword not found.',
  unavailable: 'Reading Google’s current results is not available on this workspace yet.',
  providerError: 'Google’s current results could not be read this time. Please try again in a moment.',
  invalidMarket: 'Google’s results could not be read for this keyword’s country and language.',
  strengthUnavailable: 'Domain strength is unavailable right now.',
} as const

export const SERP_FEATURE_NAMES: Record<SerpFeatureId, string> = {
  ai_overview: 'AI Overview',
  people_also_ask: 'People also ask',
  video: 'Videos',
  local_pack: 'Local pack',
}

/** Text from Google (a title) as plain text: no control or direction-override characters, spaces collapsed. */
export function plainText(value: string, max = 300): string {
  return (
    value
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, max)
  )
}

/** The address if it is an absolute http(s) URL without credentials, else null. */
export function safeHttpUrl(value: string): string | null {
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    if (url.username || url.password) return null
    return url.toString()
  } catch {
    return null
  }
}
