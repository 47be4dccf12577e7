import { comparableUrl } from '#app/features/keywords/serp'
import { headings, markdownText } from './seo-checklist'
import { faqJsonLd } from '#app/platform/seo/json-ld'
import { plainText } from './claims'

/**
 * The deterministic steps of the content engine that come after the model: links (only research sources and the
 * user's own pages survive), citations, the claim ledger, internal links by term overlap, the CTA, the 'Sources'
 * section and JSON-LD. Pure and isomorphic.
 */
export type Source = { url: string; title: string }
export type LinkTarget = { url: string; title: string }

// ---------------------------------------------------------------------------------------------------------------
// Links
// ---------------------------------------------------------------------------------------------------------------

const LINK_RE = /(!?)\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g

/**
 * Keeps links whose URL `allowed` accepts (http(s) only) and turns every other link into its plain text; images
 * from elsewhere are dropped, raw HTML anchors and images are unwrapped/removed. Fragment links (#…) stay.
 */
export function filterLinks(markdown: string, allowed: (url: string) => boolean): string {
  const ok = (url: string) => url.startsWith('#') || (/^https?:\/\//i.test(url) && allowed(url))
  return markdown
    .replace(LINK_RE, (whole, bang: string, text: string, url: string) => {
      if (ok(url)) return whole
      return bang ? '' : text
    })
    .replace(/<a\b[^>]*>([\s\S]*?)<\/a>/gi, '$1')
    .replace(/<img\b[^>]*>/gi, '')
    .replace(/^\[[^\]]+\]:\s*\S+.*$/gm, '')
}

/** The URLs of the Markdown links (not images). */
export function linkUrls(markdown: string): string[] {
  return [...markdown.matchAll(LINK_RE)].filter((m) => !m[1]).map((m) => m[3]!)
}

export function urlSet(urls: string[]) {
  const set = new Set(urls.map(comparableUrl))
  return (url: string) => set.has(comparableUrl(url))
}

// ---------------------------------------------------------------------------------------------------------------
// Internal links (term overlap)
// ---------------------------------------------------------------------------------------------------------------

const STOP = new Set(
  'a an and are as at be by for from how in is it of on or the to what when why with you your our we this that blog post page www com html index'.split(
    ' ',
  ),
)

export function terms(text: string): Set<string> {
  return new Set(
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2 && !STOP.has(w))
      .map((w) => w.replace(/(ies|es|s)$/, (m) => (m === 'ies' ? 'y' : ''))),
  )
}

/** A page's words for matching: its title and the words of its URL path. */
export function pageTerms(target: LinkTarget): Set<string> {
  let path = ''
  try {
    path = decodeURIComponent(new URL(target.url).pathname)
  } catch {
    path = target.url
  }
  return terms(`${target.title} ${path.replace(/[-_/]+/g, ' ')}`)
}

/** Jaccard-like overlap of two term sets, 0–1. */
export function overlap(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0
  let shared = 0
  for (const t of a) if (b.has(t)) shared++
  return shared / Math.min(a.size, b.size)
}

/**
 * The most relevant of the user's own pages for an article, by term overlap (or by the given similarity),
 * never the article's own URL, each target once, at most `max`.
 */
export function pickInternalLinks(
  topic: string,
  candidates: LinkTarget[],
  opts: { max?: number; exclude?: string[]; similarity?: (t: LinkTarget) => number } = {},
): LinkTarget[] {
  const excluded = urlSet(opts.exclude ?? [])
  const topicTerms = terms(topic)
  const seen = new Set<string>()
  return candidates
    .filter((c) => {
      const key = comparableUrl(c.url)
      if (excluded(c.url) || seen.has(key)) return false
      seen.add(key)
      return true
    })
    .map((c) => ({ c, score: opts.similarity ? opts.similarity(c) : overlap(topicTerms, pageTerms(c)) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, opts.max ?? 5)
    .map((x) => x.c)
}

// ---------------------------------------------------------------------------------------------------------------
// Final assembly additions
// ---------------------------------------------------------------------------------------------------------------

/**
 * Completes an article: internal links (when the text links to fewer than `min` of `chosen`, a 'Related reading'
 * line adds the missing ones, at most 5 in all), the call to action as the closing line, and the 'Sources'
 * section (numbered like the citations).
 */
export function finishArticle(
  markdown: string,
  opts: {
    internal: LinkTarget[]
    cta: { text: string; url: string } | null
    sources: Source[]
    relatedLabel?: string
    sourcesHeading?: string
  },
): string {
  const present = new Set(linkUrls(markdown).map(comparableUrl))
  const inline = opts.internal.filter((t) => present.has(comparableUrl(t.url)))
  const wanted = Math.min(opts.internal.length, Math.max(2, inline.length))
  const missing = opts.internal
    .filter((t) => !present.has(comparableUrl(t.url)))
    .slice(0, Math.max(0, Math.min(5, wanted) - inline.length))
  const blocks = [markdown.trimEnd()]
  if (missing.length)
    blocks.push(
      `**${opts.relatedLabel ?? 'Related reading'}:** ${missing.map((t) => `[${escapeText(t.title)}](${t.url})`).join(' · ')}`,
    )
  if (opts.cta && opts.cta.text.trim()) {
    const text = escapeText(opts.cta.text.trim())
    blocks.push(opts.cta.url ? `**[${text}](${opts.cta.url})**` : `**${text}**`)
  }
  if (opts.sources.length)
    blocks.push(
      `## ${opts.sourcesHeading ?? 'Sources'}`,
      opts.sources.map((s, i) => `${i + 1}. [${escapeText(s.title || s.url)}](${s.url})`).join('\n'),
    )
  return `${blocks.join('\n\n')}\n`
}

function escapeText(text: string) {
  return text.replace(/\s+/g, ' ').replace(/[[\]]/g, '').trim()
}

/**
 * Raw HTML in a model's Markdown is data, never markup: script and style elements go with their content, every
 * other tag is dropped (its text stays). The article is Markdown only; HTML is made from it and sanitized.
 */
export function stripRawHtml(markdown: string): string {
  return markdown
    .replace(/<(script|style|iframe|object|embed|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<(script|style|iframe|object|embed|noscript|template)\b[^>]*\/?>/gi, '')
    .replace(/<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/gi, '')
}

// ---------------------------------------------------------------------------------------------------------------
// FAQ and JSON-LD
// ---------------------------------------------------------------------------------------------------------------

/**
 * The FAQ of an article: the H3 questions (and their answers) under an H2 that names questions or an FAQ, or else
 * under the first H2 whose H3 headings are all questions (at least two), as the checklist counts an FAQ.
 */
export function faqFromMarkdown(markdown: string): Array<{ question: string; answer: string }> {
  type Section = { named: boolean; items: Array<{ question: string; answer: string[] }>; otherH3: boolean }
  const sections: Section[] = []
  let section: Section | null = null
  let fence = false
  for (const line of markdown.split('\n')) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fence = !fence
    const h = fence ? null : /^\s{0,3}(#{2,3})\s+(.+?)\s*$/.exec(line)
    if (h && h[1] === '##') {
      section = { named: /\b(faq|faqs|frequently asked|questions)\b/i.test(h[2]!), items: [], otherH3: false }
      sections.push(section)
    } else if (h && section) {
      const text = markdownText(h[2]!).trim()
      if (/\?\s*$/.test(text)) section.items.push({ question: text, answer: [] })
      else section.otherH3 = true
    } else if (section?.items.length) section.items[section.items.length - 1]!.answer.push(line)
  }
  const faq = sections.find((x) => x.named && x.items.length) ?? sections.find((x) => !x.otherH3 && x.items.length >= 2)
  return (faq?.items ?? []).flatMap((item) => {
    const answer = plainText(item.answer.join('\n'))
    return answer ? [{ question: plainText(item.question), answer }] : []
  })
}

export type JsonLdInput = {
  title: string
  description: string
  markdown: string
  url: string | null
  language: string
  keyword: string
  publishedAt: Date | string | null
  modifiedAt: Date | string | null
  business: { name: string; url: string | null }
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : undefined)

/**
 * schema.org `Article` (and `FAQPage` when the article has an FAQ) as JSON-LD objects, every string plain text: the
 * headline, the description, the dates, the author and the publisher (Google's Article rich-result properties);
 * the FAQPage's questions and answers are exactly the FAQ the text shows.
 */
export function buildJsonLd(input: JsonLdInput): Array<Record<string, unknown>> {
  const org = {
    '@type': 'Organization',
    name: plainText(input.business.name),
    ...(input.business.url ? { url: input.business.url } : {}),
  }
  const article: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: plainText(input.title).slice(0, 110),
    description: plainText(input.description),
    inLanguage: input.language,
    keywords: input.keyword,
    ...(iso(input.publishedAt) ? { datePublished: iso(input.publishedAt) } : {}),
    ...(iso(input.modifiedAt ?? input.publishedAt) ? { dateModified: iso(input.modifiedAt ?? input.publishedAt) } : {}),
    author: org,
    publisher: org,
    ...(input.url ? { mainEntityOfPage: { '@type': 'WebPage', '@id': input.url }, url: input.url } : {}),
  }
  const faq = faqFromMarkdown(input.markdown)
  const out = [article]
  if (faq.length) out.push(faqJsonLd(faq))
  return out
}

/** JSON-LD as a <script> body that cannot close its element early. */
export function jsonLdScript(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
}

export { headings }
