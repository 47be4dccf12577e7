import type { SubmissionResult } from '#app/platform/forms/submission'

/**
 * The four public AI tools: limits, result shapes and the spec's messages. Pure and isomorphic (no zod); the input
 * schemas, which the pages also check in the browser, are in seo-tools-schema.ts.
 */
export type ToolId = 'keywords' | 'titles' | 'outline' | 'strategy'

/** Longest input we accept: a topic or keyword is short, and every character is paid for. */
export const MAX_INPUT_LENGTH = 200

/**
 * The honeypot: a field people never see or fill in (hidden off-screen, skipped by keyboard and screen readers).
 * Bots that fill every field give themselves away; nothing is spent on them.
 */
export const HONEYPOT_MESSAGE = 'Your request could not be processed.'

export type Outline = {
  introduction: string
  sections: Array<{ title: string; content: string[] }>
  conclusion: string
}

export type SeoStrategy = {
  summary: string
  target_audience: string
  keyword_themes: Array<{ theme: string; search_intent: string; keywords: string[] }>
  content_pillars: Array<{ title: string; description: string; post_ideas: string[] }>
  quick_wins: string[]
  on_page_checklist: string[]
  link_building: string[]
  roadmap: Array<{ period: string; focus: string; actions: string[] }>
  kpis: string[]
}

export type ToolResult = {
  keywords: { keywords: string[] }
  titles: { titles: string[] }
  outline: { outline: Outline }
  strategy: { seo_strategy: SeoStrategy }
}

/**
 * What a free-tool page's action answers: Conform's reply to the form (the fields' errors, or the tool's refusal as
 * the form's error, and the typed text) and, when the tool answered, its result.
 */
export type ToolPageData<T extends ToolId> = { result: SubmissionResult<string[]>; data?: ToolResult[T] }

/** The spec's messages: `empty` when the model gave no usable result, `failed` when the call failed. */
export const TOOL_MESSAGES: Record<ToolId, { empty: string; failed: string }> = {
  keywords: {
    empty: 'Could not generate keywords. Please try again.',
    failed: 'An error occurred while generating keywords. Please try again later.',
  },
  titles: {
    empty: 'Could not generate titles. Please try again.',
    failed: 'An error occurred while generating titles. Please try again later.',
  },
  outline: {
    empty: 'Could not generate outline. Please try again.',
    failed: 'An error occurred while generating outline. Please try later.',
  },
  strategy: {
    empty: 'Could not generate SEO strategy. Please try again.',
    failed: 'An error occurred while generating the SEO strategy. Please try again later.',
  },
}

export const AI_OFF_MESSAGE = 'The free AI tools are not available right now. Please try again later.'

/** Free-tool uses per visitor (IP address) per hour, counted across the four tools. */
export const FREE_TOOL_LIMIT = { limit: 10, windowSeconds: 60 * 60 }

export function rateLimitMessage(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
  return `You have used the free tools ${FREE_TOOL_LIMIT.limit} times this hour. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or start a free trial for more.`
}

/** The cache key's input: lower-case, one space between words, no surrounding punctuation. */
export function normaliseInput(value: string) {
  return value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[\s"'“”‘’.,;:!?-]+|[\s"'“”‘’.,;:!?-]+$/g, '')
}
