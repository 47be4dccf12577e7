import { SPEC_TITLE_SCORE_LENGTH } from '#app/features/content/seo-advice'

/**
 * The spec's title 'SEO Score': how much of the 70 characters a search result line can hold the title uses. The
 * advice on title length is seo-advice.ts's (at most 60); `TITLE_SCORE_NOTE` there explains the difference.
 */
export const SEO_TITLE_LENGTH = SPEC_TITLE_SCORE_LENGTH

/** 'SEO Score' of a blog title: its length divided by 70, as a rounded percentage, capped at 100. */
export function seoScore(title: string): number {
  const length = [...title.trim()].length
  return Math.min(100, Math.round((length / SEO_TITLE_LENGTH) * 100))
}

/** Characters as a person counts them (emoji and accented letters count once). */
export function characterCount(title: string): number {
  return [...title.trim()].length
}
