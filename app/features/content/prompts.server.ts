/**
 * Every prompt of the blog-post pipeline, in one place. Bump PROMPT_VERSION whenever a prompt or a schema changes:
 * each post records the version it was written with (blog_posts.prompt_version), so versions can be compared, and
 * checkpoints written by another version are never reused.
 *
 * The prompts themselves are in ./brief-prompts.server.ts: posts are written from a brief:
 *   1. the brief (structured JSON) from the research and the business context;
 *   2. the body of every section, all requested in parallel (they only depend on the brief).
 * This module holds what they share: the version, the lengths and the writer's persona.
 */
export const PROMPT_VERSION = 'posts-2026.3'

/** Length of an article when nothing else is asked for. */
export const DEFAULT_TARGET_WORDS = 1500
export const MIN_SECTIONS = 2
export const MAX_SECTIONS = 8
export const MAX_FAQ = 6

/** How the words of an article are shared: the brief call writes the introduction, FAQ and conclusion. */
export function wordBudget(targetWords = DEFAULT_TARGET_WORDS, sectionCount = 5) {
  const frame = Math.round(targetWords * 0.3)
  return {
    introduction: Math.round(frame * 0.3),
    faq: Math.round(frame * 0.45),
    conclusion: Math.round(frame * 0.25),
    perSection: Math.max(120, Math.round((targetWords - frame) / Math.max(1, sectionCount))),
  }
}

export const writer = (language: string) =>
  [
    'You are an experienced SEO content writer and editor.',
    `Write everything in ${language}, for real readers first and search engines second.`,
    'Be specific and practical: concrete steps and examples; no filler, no hype; a figure, date or quotation only from the facts you are given, with its fact id.',
  ].join(' ')
