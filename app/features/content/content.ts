import { comparableUrl } from '#app/features/keywords/serp'
import { headings, markdownText } from './seo-checklist'
import { faqJsonLd } from '#app/platform/seo/json-ld'
import { MAX_INTERNAL_LINKS, MIN_INTERNAL_LINKS, placeInternalLinks, type LinkTarget } from './internal-links'
import { plainText } from './claims'

/**
 * The deterministic steps of the content engine that come after the model: links (only research sources and the
 * user's own pages survive), citations, the claim ledger, internal links (internal-links.ts), the CTA, the 'Sources'
 * section and JSON-LD. Pure and isomorphic.
 */
export type Source = { url: string; title: string }

// ---------------------------------------------------------------------------------------------------------------
// Links
// ---------------------------------------------------------------------------------------------------------------

const LINK_RE = /(!?)\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g

/** The URLs of the Markdown links (not images). */
export function linkUrls(markdown: string): string[] {
  return [...markdown.matchAll(LINK_RE)].filter((m) => !m[1]).map((m) => m[3]!)
}

export function urlSet(urls: string[]) {
  const set = new Set(urls.map(comparableUrl))
  return (url: string) => set.has(comparableUrl(url))
}

// ---------------------------------------------------------------------------------------------------------------
// Final assembly additions
// ---------------------------------------------------------------------------------------------------------------

/**
 * Completes an article: internal links (each placed in the paragraph about it, on a phrase of its sentence; when
 * fewer than 2 fit in the text, a 'Related reading' line adds the other relevant ones, at most 5 in all), the call
 * to action as the closing line, and the 'Sources' section (numbered like the citations).
 */
export function finishArticle(
  markdown: string,
  opts: {
    internal: LinkTarget[]
    cta: { text: string; url: string } | null
    sources: Source[]
    relatedLabel?: string
    sourcesHeading?: string
    /**
     * Place internal links in the text (a new post). An author's edit keeps the links they left: a link they
     * deleted does not come back inline (the 'Related reading' line still offers the missing ones).
     */
    placeInline?: boolean
  },
): string {
  const linked = opts.placeInline === false ? markdown : placeInternalLinks(markdown, opts.internal)
  const present = new Set(linkUrls(linked).map(comparableUrl))
  const inline = opts.internal.filter((t) => present.has(comparableUrl(t.url)))
  const missing =
    inline.length >= MIN_INTERNAL_LINKS
      ? []
      : opts.internal
          .filter((t) => !present.has(comparableUrl(t.url)))
          .slice(0, Math.max(0, MAX_INTERNAL_LINKS - inline.length))
  const blocks = [linked.trimEnd()]
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
 * Removes what finishPost adds (Related reading line, CTA line, Sources section) so an edit can be finished again.
 * Pure, so that the editor can say before a save what the save will rebuild.
 */
export function stripFinish(markdown: string): string {
  return markdown
    .replace(/\n## Sources\s*\n[\s\S]*$/, '\n')
    .replace(/\n\*\*Related reading:\*\*[^\n]*\n?/g, '\n')
    .replace(/\n\*\*\[[^\]\n]+\]\([^)\n]+\)\*\*\s*$/g, '\n')
    .trimEnd()
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
