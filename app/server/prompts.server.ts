import { z } from 'zod'

/**
 * Every prompt of the blog-post pipeline, in one place. Bump PROMPT_VERSION whenever a prompt or a schema changes:
 * each post records the version it was written with (blog_posts.prompt_version), so versions can be compared, and
 * checkpoints written by another version are never reused.
 *
 * The outline prompts below are the first pipeline's; posts are now written from a brief (./brief-prompts.server.ts):
 *   1. the brief (structured JSON) from the research and the business context;
 *   2. the body of every section, all requested in parallel (they only depend on the brief).
 */
export const PROMPT_VERSION = 'posts-2026.2'

/** Length of an article when nothing else is asked for. */
export const DEFAULT_TARGET_WORDS = 1500
export const MIN_SECTIONS = 2
export const MAX_SECTIONS = 8
export const MAX_FAQ = 6

export type PromptInput = { keyword: string; language: string; targetWords?: number }

// ---------------------------------------------------------------------------------------------------------------
// 1. Outline
// ---------------------------------------------------------------------------------------------------------------

export const outlineSchema = z.object({
  title: z.string().min(1),
  metaDescription: z.string(),
  slug: z.string(),
  introduction: z.string().min(1),
  sections: z
    .array(
      z.object({
        heading: z.string().min(1),
        subheadings: z.array(z.string()),
        keyPoints: z.array(z.string()),
      }),
    )
    .min(MIN_SECTIONS)
    .transform((sections) => sections.slice(0, MAX_SECTIONS)),
  faqHeading: z.string().min(1),
  faq: z
    .array(z.object({ question: z.string().min(1), answer: z.string().min(1) }))
    .transform((faq) => faq.slice(0, MAX_FAQ)),
  conclusionHeading: z.string().min(1),
  conclusion: z.string().min(1),
})
export type Outline = z.infer<typeof outlineSchema>

const str = { type: 'string' } as const
const strings = { type: 'array', items: str } as const

/** The same shape as `outlineSchema`, as a strict JSON schema for structured output. */
export const outlineJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'title',
    'metaDescription',
    'slug',
    'introduction',
    'sections',
    'faqHeading',
    'faq',
    'conclusionHeading',
    'conclusion',
  ],
  properties: {
    title: { ...str, description: 'The H1 title; it must contain the keyword.' },
    metaDescription: { ...str, description: 'Meta description, 140 to 160 characters, containing the keyword.' },
    slug: { ...str, description: 'URL slug: lower case, words joined by hyphens.' },
    introduction: { ...str, description: 'The introduction: one or two paragraphs of Markdown.' },
    sections: {
      type: 'array',
      description: 'The H2 sections of the article, in reading order.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['heading', 'subheadings', 'keyPoints'],
        properties: {
          heading: { ...str, description: 'The H2 heading.' },
          subheadings: { ...strings, description: 'H3 subheadings inside the section (may be empty).' },
          keyPoints: { ...strings, description: 'The points the section must make.' },
        },
      },
    },
    faqHeading: { ...str, description: "The FAQ section's H2 heading, e.g. 'Frequently Asked Questions'." },
    faq: {
      type: 'array',
      description: 'Questions readers search for, with concise answers.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['question', 'answer'],
        properties: { question: str, answer: str },
      },
    },
    conclusionHeading: { ...str, description: "The conclusion's H2 heading." },
    conclusion: { ...str, description: 'The conclusion: one paragraph of Markdown with a call to action.' },
  },
} as const

/** How the words of an article are shared: the outline call writes the introduction, FAQ and conclusion. */
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
    'Be specific and practical: concrete steps, examples and numbers where they help; no filler, no hype, no claims you cannot support.',
  ].join(' ')

export function outlinePrompt(input: PromptInput) {
  const words = input.targetWords ?? DEFAULT_TARGET_WORDS
  const budget = wordBudget(words)
  return {
    name: 'blog_post_outline',
    system: writer(input.language),
    user: [
      `Keyword: "${input.keyword}"`,
      `Language: ${input.language}`,
      '',
      `Plan an SEO blog post of about ${words} words that ranks for this keyword and matches its search intent.`,
      '- title: an engaging H1 title of at most 65 characters that contains the keyword exactly.',
      '- metaDescription: 140 to 160 characters, containing the keyword, inviting the click.',
      '- slug: short, lower case, hyphenated, containing the keyword.',
      `- introduction: about ${budget.introduction} words of Markdown that state the reader's problem and what the post answers; use the keyword in the first sentence.`,
      `- sections: ${MIN_SECTIONS + 2} to 6 H2 sections in a logical order, each with 0 to 3 H3 subheadings and 3 to 5 key points; cover the topic fully without overlap.`,
      `- faq: 3 to 5 questions people really ask about the keyword, each answered in 2 to 3 sentences (about ${budget.faq} words in total).`,
      `- conclusion: about ${budget.conclusion} words of Markdown that sum up and end with a clear next step.`,
      `Write every heading and every text in ${input.language}.`,
    ].join('\n'),
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Sections (in parallel)
// ---------------------------------------------------------------------------------------------------------------

export function sectionPrompt(input: PromptInput & { outline: Outline; index: number }) {
  const { outline, index } = input
  const section = outline.sections[index]
  if (!section) throw new Error(`The outline has no section ${index}`)
  const words = wordBudget(input.targetWords, outline.sections.length).perSection
  const others = outline.sections.filter((_, i) => i !== index).map((s) => `- ${s.heading}`)
  return {
    system: `${writer(input.language)} Answer with GitHub-flavoured Markdown only.`,
    user: [
      `Keyword: "${input.keyword}"`,
      `Article title: ${outline.title}`,
      `Language: ${input.language}`,
      '',
      `Write the body of the section "${section.heading}" (section ${index + 1} of ${outline.sections.length}), about ${words} words.`,
      section.keyPoints.length ? `Make these points:\n${section.keyPoints.map((p) => `- ${p}`).join('\n')}` : '',
      section.subheadings.length
        ? `Use these H3 subheadings (### ...), in this order:\n${section.subheadings.map((h) => `- ${h}`).join('\n')}`
        : 'Use H3 subheadings (### ...) only if they help the reader.',
      others.length ? `Other sections of the article (do not cover them here):\n${others.join('\n')}` : '',
      '',
      'Rules: do not repeat the section heading; no H1 or H2 headings; no introduction or conclusion for the whole article;',
      'short paragraphs; bullet or numbered lists where they make steps or options clearer; use the keyword naturally, never stuffed.',
      `Write in ${input.language}.`,
    ]
      .filter((line, i, all) => line !== '' || all[i - 1] !== '')
      .join('\n'),
  }
}
