import { z } from 'zod'
import { findCountry, findLanguage } from '#app/platform/markets/markets'
import { safeText } from '#app/platform/security/safe-text'

/**
 * Keyword research: the display rules of the Keyword Opportunities screen and the search input shared by the
 * form and the JSON API. Pure and isomorphic (no I/O).
 */

export const SEARCH_VALIDATION_MESSAGE = 'Please enter a keyword, and select both a country and language.'
export const SEARCH_ERROR_MESSAGE = 'An error occurred while searching for keywords. Please try again.'
export const SEARCH_UNAVAILABLE_MESSAGE =
  'Keyword research is not available yet on this workspace. Your saved keywords are kept; new searches work as soon as it is.'
export const VOLUME_TOOLTIP = 'Average monthly search volume for this keyword.'
export const DIFFICULTY_TOOLTIP = 'Difficulty score for ranking this keyword. New sites should focus in Easy keywords.'
export const ESTIMATE_TOOLTIP =
  'Estimate: measured search data was not available for this search, so its volume and difficulty were estimated by AI.'
/** Above the keyword table while new searches get estimated figures (decision 0353: product words, no provider). */
export const ESTIMATES_NOTICE =
  'Measured search volumes are not available on this workspace yet, so new searches show volumes and difficulty estimated by AI, marked “Estimate”.'
export const COMPETITION_TOOLTIP =
  'Difficulty here is Google Ads’ competition index (0-100, how many advertisers bid on this keyword), which stands in for ranking difficulty.'

/** Longest query we send to a provider (DataForSEO accepts at most 80 characters per keyword). */
export const MAX_QUERY_LENGTH = 80

export type KeywordSource = 'dataforseo' | 'google_ads' | 'ai_estimate'

// ---------------------------------------------------------------------------
// Volume
// ---------------------------------------------------------------------------

const thousands = new Intl.NumberFormat('en-US')

/** 'N/A' when unknown, '< 10' under ten, otherwise the number with thousands separators. */
export function formatVolume(volume: number | null | undefined): string {
  if (volume === null || volume === undefined || !Number.isFinite(volume)) return 'N/A'
  if (volume < 10) return '< 10'
  return thousands.format(Math.round(volume))
}

// ---------------------------------------------------------------------------
// Dates and order
// ---------------------------------------------------------------------------

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** 'MMM D, YYYY' (e.g. 'Jan 5, 2026'), in UTC so that the server and the browser render the same text. */
export function formatSearchDate(value: Date | string | number): string {
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`
}

type Sortable = { createdAt: Date | string; avgMonthlySearches: number | null }

const time = (v: Date | string) => (v instanceof Date ? v.getTime() : new Date(v).getTime())

/** Newest search first, then higher volume first (unknown volume last). */
export function compareKeywords(a: Sortable, b: Sortable): number {
  const byDate = time(b.createdAt) - time(a.createdAt)
  if (byDate !== 0) return byDate
  return (b.avgMonthlySearches ?? -1) - (a.avgMonthlySearches ?? -1)
}

export function sortKeywords<T extends Sortable>(rows: readonly T[]): T[] {
  return [...rows].sort(compareKeywords)
}

// ---------------------------------------------------------------------------
// Search input
// ---------------------------------------------------------------------------

/**
 * Trimmed, lower-cased, single-spaced, without markup (a script or style element goes with its content, other
 * tags leave their text) and without the symbols keyword providers refuse. Emoji and right-to-left text stay.
 */
export function normalizeQuery(query: string): string {
  return query
    .normalize('NFKC')
    .replace(/<(script|style)\b[^>]*>[\s\S]*?(<\/\1\s*>|$)/gi, ' ')
    .replace(/<!--[\s\S]*?(-->|$)/g, ' ')
    .replace(/<\/?[a-z][^<>]*(>|$)/gi, ' ')
    .replace(/[<>{}|\\^]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
}

const required = (schema: z.ZodString) => schema.trim().min(1, SEARCH_VALIDATION_MESSAGE)
const text = () =>
  safeText({ required_error: SEARCH_VALIDATION_MESSAGE, invalid_type_error: SEARCH_VALIDATION_MESSAGE })

/**
 * The search payload (query, countryCode, languageCode, countryName, languageName) of the form and of
 * POST /api/search. Codes are Google Ads ids; names are taken from our own lists when the code is known.
 */
export const keywordSearchSchema = z
  .object({
    query: required(text())
      .transform(normalizeQuery)
      .pipe(
        z
          .string()
          .min(1, SEARCH_VALIDATION_MESSAGE)
          // A letter or a digit somewhere: markup alone or a lone emoji is not a keyword.
          .regex(/[\p{L}\p{N}]/u, SEARCH_VALIDATION_MESSAGE)
          .max(MAX_QUERY_LENGTH, `Please enter a keyword of at most ${MAX_QUERY_LENGTH} characters.`),
      ),
    countryCode: required(text()).refine((code) => Boolean(findCountry(code)), SEARCH_VALIDATION_MESSAGE),
    languageCode: required(text()).refine((code) => Boolean(findLanguage(code)), SEARCH_VALIDATION_MESSAGE),
    countryName: safeText().optional(),
    languageName: safeText().optional(),
  })
  .transform((v) => ({
    query: v.query,
    countryCode: v.countryCode,
    languageCode: v.languageCode,
    countryName: findCountry(v.countryCode)?.label ?? v.countryName?.trim() ?? '',
    languageName: findLanguage(v.languageCode)?.label ?? v.languageName?.trim() ?? '',
  }))

export type KeywordSearchInput = z.infer<typeof keywordSearchSchema>

/** The first problem of a failed parse, as one message for the dialog. */
export function searchProblem(error: z.ZodError): string {
  return error.issues[0]?.message ?? SEARCH_VALIDATION_MESSAGE
}

/**
 * Cache key of a provider answer: the same provider, normalised query, country and language share one entry. v2
 * (issue 36): answers carry intent, cost per click, competition, trend and SERP features.
 */
export function keywordCacheKey(
  provider: KeywordSource,
  q: { query: string; countryCode: string; languageCode: string },
) {
  return `v2|${provider}|${q.countryCode}|${q.languageCode}|${normalizeQuery(q.query)}`
}

// ---------------------------------------------------------------------------
// Paging of the saved list
// ---------------------------------------------------------------------------

/** One page of the saved list: as many rows as one search saves at most. */
export const KEYWORDS_PAGE_SIZE = 50
export const MAX_KEYWORDS_SHOWN = 20_000

/** How many saved keywords to show for a `?show=` value: whole pages, at least one page. */
export function shownCount(param: string | null | undefined): number {
  const n = Number(param)
  if (!Number.isFinite(n) || n <= KEYWORDS_PAGE_SIZE) return KEYWORDS_PAGE_SIZE
  return Math.min(MAX_KEYWORDS_SHOWN, Math.ceil(n / KEYWORDS_PAGE_SIZE) * KEYWORDS_PAGE_SIZE)
}
