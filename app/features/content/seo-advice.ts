/**
 * One voice for SEO advice (issue 35): the title and meta description targets, and the sentences that state them.
 * The post checklist (seo-checklist.ts), the editor's counters, the prompts that write titles, the free blog title
 * tool, Rankwell's own blog (content/blog, through `adviceTokens`) and the SEO guide all take them from here, so
 * that every page gives the same numbers. Pure and isomorphic.
 *
 * The spec's title 'SEO Score' of the free title tool is another measure (length / 70, capped at 100%): it stays as
 * the spec says, and `TITLE_SCORE_NOTE` explains where it and this advice differ.
 */

/** A title longer than this is cut off in search results. */
export const TITLE_MAX = 60
/** A meta description between these lengths shows whole in search results and says enough. */
export const META_MIN = 120
export const META_MAX = 160
/** The spec's title SEO score: the title's length out of this many characters, capped at 100%. */
export const SPEC_TITLE_SCORE_LENGTH = 70

export const TITLE_ADVICE = {
  /** The checklist item. */
  label: `Title of at most ${TITLE_MAX} characters`,
  /** Short, beside a field. */
  hint: `At most ${TITLE_MAX} characters, with the keyword near the start.`,
  /** The rule with its reason, for the guide and the blog. */
  sentence: `A title of at most ${TITLE_MAX} characters, with the keyword near the start: search results cut longer titles off.`,
  fix: (now: number) =>
    `Shorten the title to ${TITLE_MAX} characters or fewer (now ${now}) so search results show it whole.`,
} as const

export const META_ADVICE = {
  label: `Meta description of ${META_MIN}–${META_MAX} characters with the keyword`,
  hint: `${META_MIN} to ${META_MAX} characters, with the keyword.`,
  sentence: `A meta description of ${META_MIN} to ${META_MAX} characters that contains the keyword and promises a concrete benefit: search results cut longer ones off, and a shorter one leaves the result thin. It does not change rankings, but it changes how many people click.`,
  fix: (now: number, keyword: string) =>
    `Write a meta description of ${META_MIN} to ${META_MAX} characters (now ${now}) that contains "${keyword}".`,
} as const

/** Where the spec's title 'SEO Score' and the checklist's advice differ, said once, beside the score. */
export const TITLE_SCORE_NOTE = `The SEO Score measures length alone: the title's characters out of ${SPEC_TITLE_SCORE_LENGTH}, capped at 100%. Our post checklist asks for at most ${TITLE_MAX} characters, because search results often cut titles after that, so a title of ${TITLE_MAX} characters (${Math.round((TITLE_MAX / SPEC_TITLE_SCORE_LENGTH) * 100)}%) is the one we recommend.`

/**
 * The advice as `{{seo:name}}` tokens for Markdown written by hand (content/blog): `seo:title-length` →
 * 'At most 60 characters', `seo:meta-length` → '120–160 characters', and the full sentences.
 */
export const ADVICE_TOKENS: Record<string, string> = {
  'title-length': `At most ${TITLE_MAX} characters`,
  'title-sentence': TITLE_ADVICE.sentence,
  'meta-length': `${META_MIN}–${META_MAX} characters`,
  'meta-sentence': META_ADVICE.sentence,
  'title-score-note': TITLE_SCORE_NOTE,
}

/** The text with every `{{seo:name}}` token replaced by its advice; an unknown token throws (a typo in a file). */
export function adviceTokens(text: string, where = 'text'): string {
  return text.replace(/\{\{\s*seo:([a-z-]+)\s*\}\}/g, (_whole, name: string) => {
    const value = ADVICE_TOKENS[name]
    if (value === undefined) throw new Error(`${where}: unknown SEO advice token {{seo:${name}}}`)
    return value
  })
}

/** Characters as a person (and the checklist) counts them, after the save's whitespace rule: runs become one space. */
export function characterCount(text: string): number {
  return [...text.replace(/\s+/g, ' ').trim()].length
}

export type LengthState = 'empty' | 'short' | 'good' | 'long'
export type LengthCheck = {
  count: number
  state: LengthState
  /** 'n of 60 characters' as shown beside the field. */
  counter: string
  /** What the count means, in a sentence (announced politely when it changes). */
  message: string
}

/** The title's length against the advice. */
export function titleLength(title: string): LengthCheck {
  const count = characterCount(title)
  const counter = `${count} of ${TITLE_MAX} characters`
  if (count === 0) return { count, state: 'empty', counter, message: 'The title is empty.' }
  if (count > TITLE_MAX)
    return {
      count,
      state: 'long',
      counter,
      message: `The title is ${count - TITLE_MAX} ${plural(count - TITLE_MAX, 'character')} over ${TITLE_MAX}: search results will cut it off.`,
    }
  return { count, state: 'good', counter, message: `The title fits: at most ${TITLE_MAX} characters.` }
}

/** The meta description's length against the advice. */
export function metaDescriptionLength(description: string): LengthCheck {
  const count = characterCount(description)
  const counter = `${count} characters (aim for ${META_MIN}–${META_MAX})`
  if (count === 0)
    return {
      count,
      state: 'empty',
      counter,
      message: `No meta description yet: aim for ${META_MIN} to ${META_MAX} characters.`,
    }
  if (count < META_MIN)
    return {
      count,
      state: 'short',
      counter,
      message: `The meta description is ${META_MIN - count} ${plural(META_MIN - count, 'character')} short of ${META_MIN}.`,
    }
  if (count > META_MAX)
    return {
      count,
      state: 'long',
      counter,
      message: `The meta description is ${count - META_MAX} ${plural(count - META_MAX, 'character')} over ${META_MAX}: search results will cut it off.`,
    }
  return {
    count,
    state: 'good',
    counter,
    message: `The meta description fits: ${META_MIN} to ${META_MAX} characters.`,
  }
}

/** How a search result shows a text that is too long: cut at the last word before `max` characters, with '…'. */
export function searchResultCut(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()]
  if (chars.length <= max) return chars.join('')
  const cut = chars.slice(0, max - 1).join('')
  const space = cut.lastIndexOf(' ')
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`
}

function plural(n: number, word: string) {
  return n === 1 ? word : `${word}s`
}
