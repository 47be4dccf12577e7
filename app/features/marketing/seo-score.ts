/** Titles of about 70 characters use the space a search result gives them; the score says how much of it is used. */
export const SEO_TITLE_LENGTH = 70

/** 'SEO Score' of a blog title: its length divided by 70, as a rounded percentage, capped at 100. */
export function seoScore(title: string): number {
  const length = [...title.trim()].length
  return Math.min(100, Math.round((length / SEO_TITLE_LENGTH) * 100))
}

/** Characters as a person counts them (emoji and accented letters count once). */
export function characterCount(title: string): number {
  return [...title.trim()].length
}
