import { comparableUrl } from '#app/features/keywords/serp'
import { META_ADVICE, META_MAX, META_MIN, TITLE_ADVICE, TITLE_MAX } from './seo-advice'

/**
 * The SEO score of a post: a deterministic checklist (no model), the same on the post page, the library cards,
 * the API and the webhook payload. Each item passes or fails and says how to fix it; the score is the weighted
 * share of passed items, 0–100. Pure and isomorphic.
 */
export type ChecklistItem = { id: string; label: string; passed: boolean; fix: string }
export type ScoreResult = { score: number; items: ChecklistItem[] }

export type ScoreInput = {
  keyword: string
  title: string
  slug: string
  metaDescription: string
  /** The whole article in Markdown, its H1 included. */
  markdown: string
  /** The brief's target length in words; null when there was no brief. */
  targetWords: number | null
  /** The article's language (English name, e.g. 'English', 'German'). */
  language: string
  /** URLs of the user's own pages (their other posts and sitemap pages) that the post could link to. */
  ownPages: string[]
  /** The user's own site host (internal links are links to it or to `ownPages`). */
  siteHost: string | null
  /** The claim ledger: an 'unverified' claim (or, in rows before issue 32, one without a source) counts against. */
  claims: Array<{ text: string; sourceUrl: string | null; status?: string; original?: string | null }>
  /**
   * The post's stored images (issue 33): the featured image and the figures, with their alt text. Figures are also
   * in the Markdown as `![alt](/images/<id>.jpg)`; the stored alt text counts for them.
   */
  images?: Array<{ id: string; role: 'featured' | 'figure'; alt: string }>
}

/** The title and meta description targets are the SEO advice's (seo-advice.ts: one voice for every page). */
export { META_MAX, META_MIN, TITLE_MAX }
export const MIN_H2 = 3
export const MIN_SOURCES = 2
export const LENGTH_TOLERANCE = 0.2
export const MIN_FLESCH = 50
export const MAX_SENTENCE_WORDS = 20

/** Weight of each item in the score (the score is the passed share of their total, 104). */
const WEIGHTS: Record<string, number> = {
  'keyword-title': 10,
  'title-length': 6,
  'keyword-h1': 8,
  'keyword-intro': 8,
  'keyword-h2': 6,
  'meta-description': 8,
  'keyword-slug': 6,
  length: 8,
  'h2-count': 6,
  faq: 6,
  'internal-links': 8,
  'external-sources': 6,
  'unsourced-figures': 6,
  readability: 4,
  'image-alt': 2,
  'featured-image': 4,
}

// ---------------------------------------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------------------------------------

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLocaleLowerCase('en-US')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

/** Whether `text` contains the keyword as a phrase (case, accents and punctuation ignored). */
export function containsKeyword(text: string, keyword: string): boolean {
  const k = fold(keyword)
  if (!k) return false
  return ` ${fold(text)} `.includes(` ${k} `)
}

/** Markdown to plain text: links keep their text, images/HTML/code/emphasis marks are dropped. */
export function markdownText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*[-*+]\s+/gm, '')
    .replace(/^\s*\d+[.)]\s+/gm, '')
    .replace(/[*_`>|]/g, '')
    .replace(/[ \t]+/g, ' ')
}

export type Heading = { level: number; text: string }
export function headings(markdown: string): Heading[] {
  const out: Heading[] = []
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s{0,3}```/.test(line)) fenced = !fenced
    if (fenced) continue
    const m = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line)
    if (m) out.push({ level: m[1]!.length, text: markdownText(m[2]!).trim() })
  }
  return out
}

export type MarkdownLink = { text: string; url: string; image: boolean }
export function links(markdown: string): MarkdownLink[] {
  const out: MarkdownLink[] = []
  const re = /(!?)\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g
  let m: RegExpExecArray | null
  while ((m = re.exec(markdown)) !== null) out.push({ image: m[1] === '!', text: m[2]!, url: m[3]! })
  const html = /<img\b[^>]*>/gi
  while ((m = html.exec(markdown)) !== null) {
    const src = /\bsrc\s*=\s*["']([^"']+)["']/i.exec(m[0])?.[1] ?? ''
    const alt = /\balt\s*=\s*["']([^"']*)["']/i.exec(m[0])?.[1] ?? ''
    out.push({ image: true, text: alt, url: src })
  }
  return out
}

/** The body after the H1 and before the first H2: the introduction. */
function firstWords(markdown: string, count: number): string {
  const body = markdown.replace(/^\s*#\s+.*\n/, '')
  return markdownText(body).split(/\s+/).filter(Boolean).slice(0, count).join(' ')
}

export function wordCount(markdown: string): number {
  return markdownText(markdown).split(/\s+/).filter(Boolean).length
}

function syllables(word: string): number {
  const w = word.toLowerCase().replace(/[^a-z]/g, '')
  if (!w) return 0
  if (w.length <= 3) return 1
  const trimmed = w.replace(/(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$/, '').replace(/^y/, '')
  const groups = trimmed.match(/[aeiouy]{1,2}/g)
  return Math.max(1, groups ? groups.length : 1)
}

/** Sentences of the prose (headings excluded). */
export function sentences(markdown: string): string[] {
  const prose = markdown
    .split('\n')
    .filter((l) => !/^\s{0,3}#/.test(l))
    .join('\n')
  return markdownText(prose)
    .split(/(?<=[.!?])\s+|\n{2,}/)
    .map((s) => s.trim())
    .filter((s) => s.split(/\s+/).filter(Boolean).length >= 3)
}

/** Flesch reading ease (English): 206.835 − 1.015 × words/sentence − 84.6 × syllables/word. */
export function fleschReadingEase(markdown: string): number {
  const list = sentences(markdown)
  const words = list.flatMap((s) => s.split(/\s+/).filter((w) => /[a-z]/i.test(w)))
  if (list.length === 0 || words.length === 0) return 0
  const syl = words.reduce((n, w) => n + syllables(w), 0)
  return Math.round((206.835 - 1.015 * (words.length / list.length) - 84.6 * (syl / words.length)) * 10) / 10
}

export function averageSentenceWords(markdown: string): number {
  const list = sentences(markdown)
  if (list.length === 0) return 0
  const words = list.reduce((n, s) => n + s.split(/\s+/).filter(Boolean).length, 0)
  return Math.round((words / list.length) * 10) / 10
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '')
  } catch {
    return null
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The checklist
// ---------------------------------------------------------------------------------------------------------------

export function scorePost(input: ScoreInput): ScoreResult {
  const { keyword, markdown } = input
  const heads = headings(markdown)
  const h1 = heads.find((h) => h.level === 1)?.text ?? ''
  const h2s = heads.filter((h) => h.level === 2)
  const all = links(markdown)
  const outbound = all.filter((l) => !l.image && /^https?:\/\//i.test(l.url))
  const site = input.siteHost ? input.siteHost.toLowerCase().replace(/^www\./, '') : null
  const own = new Set(input.ownPages.map(comparableUrl))
  const isInternal = (url: string) => own.has(comparableUrl(url)) || (site !== null && hostOf(url) === site)
  const internal = new Set(outbound.filter((l) => isInternal(l.url)).map((l) => comparableUrl(l.url)))
  const external = new Set(outbound.filter((l) => !isInternal(l.url)).map((l) => comparableUrl(l.url)))
  const words = wordCount(markdown)
  const images = all.filter((l) => l.image)
  const unsourced = input.claims.filter((c) => (c.status ? c.status === 'unverified' : !c.sourceUrl))
  const english = /^english$/i.test(input.language.trim()) || /^en\b/i.test(input.language.trim())
  const titleLength = [...input.title.trim()].length
  const metaLength = [...input.metaDescription.trim()].length

  const items: ChecklistItem[] = []
  const add = (id: string, label: string, passed: boolean, fix: string) => items.push({ id, label, passed, fix })

  add(
    'keyword-title',
    'Keyword in the title',
    containsKeyword(input.title, keyword),
    `Put "${keyword}" in the title, as close to the start as reads well.`,
  )
  add('title-length', TITLE_ADVICE.label, titleLength > 0 && titleLength <= TITLE_MAX, TITLE_ADVICE.fix(titleLength))
  add(
    'keyword-h1',
    'Keyword in the H1',
    containsKeyword(h1, keyword),
    `Start the article with one H1 ("# …") that contains "${keyword}".`,
  )
  add(
    'keyword-intro',
    'Keyword in the first 100 words',
    containsKeyword(firstWords(markdown, 100), keyword),
    `Use "${keyword}" in the introduction, within the first 100 words.`,
  )
  add(
    'keyword-h2',
    'Keyword in at least one H2',
    h2s.some((h) => containsKeyword(h.text, keyword)),
    `Use "${keyword}" (or it exactly) in one of the H2 headings.`,
  )
  add(
    'meta-description',
    META_ADVICE.label,
    metaLength >= META_MIN && metaLength <= META_MAX && containsKeyword(input.metaDescription, keyword),
    metaLength < META_MIN || metaLength > META_MAX
      ? META_ADVICE.fix(metaLength, keyword)
      : `Mention "${keyword}" in the meta description.`,
  )
  add(
    'keyword-slug',
    'Keyword in the slug',
    containsKeyword(input.slug.replace(/-/g, ' '), keyword),
    `Use a slug that contains the keyword, e.g. "${fold(keyword).replace(/\s+/g, '-')}".`,
  )
  if (input.targetWords && input.targetWords > 0) {
    const lo = Math.round(input.targetWords * (1 - LENGTH_TOLERANCE))
    const hi = Math.round(input.targetWords * (1 + LENGTH_TOLERANCE))
    add(
      'length',
      `Length within ±20% of the target (${input.targetWords} words)`,
      words >= lo && words <= hi,
      words < lo
        ? `Add about ${lo - words} words: the brief asks for ${lo}–${hi} (now ${words}).`
        : `Cut about ${words - hi} words: the brief asks for ${lo}–${hi} (now ${words}).`,
    )
  } else {
    add('length', 'Length of at least 300 words', words >= 300, `Write at least 300 words (now ${words}).`)
  }
  add(
    'h2-count',
    `At least ${MIN_H2} H2 sections`,
    h2s.length >= MIN_H2,
    `Structure the article in at least ${MIN_H2} H2 sections (now ${h2s.length}).`,
  )
  add(
    'faq',
    'An FAQ section',
    h2s.some((h) => /\b(faq|faqs|frequently asked|questions)\b/i.test(h.text)) ||
      heads.some((h, i) => h.level === 3 && /\?\s*$/.test(h.text) && heads[i + 1]?.level === 3),
    'Add an H2 "Frequently Asked Questions" with the questions readers ask as H3s and short answers.',
  )
  add(
    'internal-links',
    'Links to your own pages',
    input.ownPages.length === 0 && !site ? true : internal.size >= (input.ownPages.length >= 2 ? 2 : 1),
    'Link to 2–5 of your own related pages (other posts, product pages) where they help the reader.',
  )
  add(
    'external-sources',
    `At least ${MIN_SOURCES} external sources`,
    external.size >= MIN_SOURCES,
    `Cite at least ${MIN_SOURCES} reputable sources from the research (now ${external.size}), linked in the text and listed under 'Sources'.`,
  )
  add(
    'unsourced-figures',
    'No unsourced figures or quotations',
    unsourced.length === 0,
    unsourced.length
      ? `${unsourced.length} unverified: cite a page that states it, or remove: ${unsourced
          .slice(0, 3)
          .map((c) => `"${c.text.slice(0, 60)}"`)
          .join('; ')}${unsourced.length > 3 ? ` and ${unsourced.length - 3} more` : ''}.`
      : 'Every figure and quotation needs a citation to a page that was read and says it.',
  )
  if (english) {
    const flesch = fleschReadingEase(markdown)
    add(
      'readability',
      `Readability (Flesch reading ease ${MIN_FLESCH} or more)`,
      flesch >= MIN_FLESCH,
      `Use shorter sentences and simpler words (Flesch reading ease now ${flesch}).`,
    )
  } else {
    const avg = averageSentenceWords(markdown)
    add(
      'readability',
      `Readability (sentences of ${MAX_SENTENCE_WORDS} words or fewer on average)`,
      avg > 0 && avg <= MAX_SENTENCE_WORDS,
      `Split long sentences: they average ${avg} words.`,
    )
  }
  // The real images: the stored ones (their alt text as stored) and any other image the Markdown embeds.
  const stored = input.images ?? []
  const storedIds = new Set(stored.map((i) => i.id))
  const missingAlt = [
    ...stored.filter((i) => !i.alt.trim()),
    ...images.filter((i) => !storedIds.has(/\/images\/([0-9a-f-]{36})\./.exec(i.url)?.[1] ?? '') && !i.text.trim()),
  ]
  add(
    'image-alt',
    'Alt text on every image',
    missingAlt.length === 0,
    `Describe ${missingAlt.length === 1 ? 'the image' : `the ${missingAlt.length} images`} without alt text.`,
  )
  add(
    'featured-image',
    'Has a featured image',
    stored.some((i) => i.role === 'featured'),
    "Add a featured image in the editor ('Regenerate' makes one).",
  )

  const total = items.reduce((n, i) => n + (WEIGHTS[i.id] ?? 0), 0)
  const passed = items.filter((i) => i.passed).reduce((n, i) => n + (WEIGHTS[i.id] ?? 0), 0)
  return { score: total ? Math.round((passed / total) * 100) : 0, items }
}
