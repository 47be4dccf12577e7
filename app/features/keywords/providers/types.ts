import type { KeywordSource } from '#app/features/keywords/keywords'

/** One keyword idea as every provider reports it. Volume is monthly searches; difficulty is 0-100. */
export type KeywordIdea = { keyword: string; avgMonthlySearches: number | null; difficultyScore: number | null }

/** What a provider is asked: a normalised query and a market (Google Ads ids plus names). */
export type ProviderQuery = {
  query: string
  countryCode: string
  languageCode: string
  countryName: string
  languageName: string
}

export interface KeywordProvider {
  id: KeywordSource
  /** Ideas for the query in the market, the query itself included when the provider knows it. */
  ideas(q: ProviderQuery): Promise<KeywordIdea[]>
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
