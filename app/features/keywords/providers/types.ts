import type { KeywordSource } from '#app/features/keywords/keywords'
import type {
  CompetitionLevel,
  KeywordIntent,
  MonthlySearches,
  SerpFeature,
} from '#app/features/keywords/keyword-metrics'

/**
 * One keyword idea as every provider reports it. Volume is monthly searches; difficulty is 0-100. Issue 36 adds what
 * a provider knows beyond them (absent or null: not known): the search intent and who gave it, cost per click,
 * competition (0-1 and its level), the last 12 months' searches (oldest first) and the SERP features.
 */
export type KeywordIdea = {
  keyword: string
  avgMonthlySearches: number | null
  difficultyScore: number | null
  intent?: KeywordIntent | null
  intentSource?: KeywordSource | null
  cpc?: number | null
  cpcCurrency?: string | null
  competition?: number | null
  competitionLevel?: CompetitionLevel | null
  monthlySearches?: MonthlySearches | null
  serpFeatures?: SerpFeature[] | null
}

/** What a provider is asked: a normalised query and a market (Google Ads ids plus names). */
export type ProviderQuery = {
  query: string
  countryCode: string
  languageCode: string
  countryName: string
  languageName: string
}

/**
 * A provider's answer: the ideas and, when a secondary call (the batched intent call) failed, a note saying what is
 * missing. Such an answer is saved (its rows lack the missing fields) but not cached, so the next search tries again.
 */
export type ProviderIdeas = { ideas: KeywordIdea[]; note: string | null }

export interface KeywordProvider {
  id: KeywordSource
  /** Ideas for the query in the market, the query itself included when the provider knows it. */
  ideas(q: ProviderQuery): Promise<ProviderIdeas>
}

/** The provider answered with an error, timed out or kept rate-limiting us past our retry budget. */
export class KeywordProviderError extends Error {
  constructor(
    message: string,
    readonly provider: KeywordSource,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'KeywordProviderError'
  }
}

/** How many ideas one search saves at most. */
export const IDEAS_PER_SEARCH = 50

/** The note of an answer whose intent call failed. */
export const INTENT_UNAVAILABLE_NOTE = 'Search intent could not be fetched this time; those rows show no intent.'
