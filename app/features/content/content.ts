import { comparableUrl } from '#app/features/keywords/serp'
import { headings, markdownText } from './seo-checklist'
import { faqJsonLd } from '#app/platform/seo/json-ld'
import { MAX_INTERNAL_LINKS, MIN_INTERNAL_LINKS, placeInternalLinks, type LinkTarget } from './internal-links'

/**
 * The deterministic steps of the content engine that come after the model: links (only research sources and the
 * user's own pages survive), citations, the claim ledger, internal links (internal-links.ts), the CTA, the 'Sources'
 * section and JSON-LD. Pure and isomorphic.
 */
export type Source = { url: string; title: string }
export type Claim = { text: string; sourceUrl: string | null }

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
// Citations and sources
// ---------------------------------------------------------------------------------------------------------------

/**
 * Citation markers `[n]` (n = a source number the writer was given, not followed by a link) become numbered links
 * to that source, renumbered 1…k in order of first use; markers of unknown sources are removed. `extra` sources
 * (facts of the brief) are numbered after the cited ones. Returns the text and the sources in their new order.
 */
export function applyCitations(
  markdown: string,
  sources: Source[],
  extra: string[] = [],
): { markdown: string; used: Source[] } {
  const order: number[] = []
  const marker = /(?<!\[)\[(\d{1,2})\](?![(\]])/g
  for (const m of markdown.matchAll(marker)) {
    const n = Number(m[1])
    if (n >= 1 && n <= sources.length && !order.includes(n)) order.push(n)
  }
  const text = markdown.replace(marker, (_w, d: string) => {
    const n = Number(d)
    const at = order.indexOf(n)
    return at < 0 ? '' : `[[${at + 1}](${sources[n - 1]!.url})]`
  })
  const used = order.map((n) => sources[n - 1]!)
  for (const url of extra) {
    const s = sources.find((x) => comparableUrl(x.url) === comparableUrl(url))
    if (s && !used.some((u) => comparableUrl(u.url) === comparableUrl(s.url))) used.push(s)
  }
  return { markdown: text, used }
}

const FIGURE_RE =
  /(?:^|[\s(“"'$€£])(?:\d[\d,.]*\s*(?:%|percent|per cent)|[$€£]\s?\d[\d,.]*|\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?\s*(?:million|billion|times|x)\b|\d{2,}(?:\.\d+)?(?=\s+[a-z]))/i
const QUOTE_RE = /[“"]([^”"]{12,}?)[”"]/

/**
 * The claim ledger of an article: every sentence of its prose with a figure or a quotation, with the research
 * source it cites (a link to one of `sources` in the same sentence) or null when it cites none. The 'Sources'
 * section and headings are not claims.
 */
export function extractClaims(markdown: string, sources: string[]): Claim[] {
  const isSource = urlSet(sources)
  const body = markdown.split(/^##\s+Sources\s*$/m)[0]!
  const out: Claim[] = []
  for (const block of body.split(/\n{2,}/)) {
    if (/^\s{0,3}#/.test(block)) continue
    for (const raw of block.split(/(?<=[.!?])\s+(?=[A-Z“"])/)) {
      const plain = markdownText(raw)
        .replace(/\[\d+\]/g, '')
        .replace(/\s+/g, ' ')
        .replace(/\s+([.,;:!?])/g, '$1')
        .trim()
      if (!plain) continue
      if (!FIGURE_RE.test(plain) && !QUOTE_RE.test(plain)) continue
      const cited = linkUrls(raw).find((u) => isSource(u)) ?? null
      if (!out.some((c) => c.text === plain)) out.push({ text: plain.slice(0, 300), sourceUrl: cited })
    }
  }
  return out
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
  },
): string {
  const linked = placeInternalLinks(markdown, opts.internal)
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
    const answer = markdownText(item.answer.join('\n')).replace(/\s+/g, ' ').trim()
    return answer ? [{ question: item.question, answer }] : []
  })
}

export type JsonLdInput = {
  /** The FAQ as the brief planned it; without it the FAQ is read from the Markdown's headings. */
  faq?: Array<{ question: string; answer: string }>
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

/** schema.org `Article` (and `FAQPage` when the article has an FAQ) as JSON-LD objects. */
export function buildJsonLd(input: JsonLdInput): Array<Record<string, unknown>> {
  const org = {
    '@type': 'Organization',
    name: input.business.name,
    ...(input.business.url ? { url: input.business.url } : {}),
  }
  const article: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: input.title.slice(0, 110),
    description: input.description,
    inLanguage: input.language,
    keywords: input.keyword,
    ...(iso(input.publishedAt) ? { datePublished: iso(input.publishedAt) } : {}),
    ...(iso(input.modifiedAt ?? input.publishedAt) ? { dateModified: iso(input.modifiedAt ?? input.publishedAt) } : {}),
    author: org,
    publisher: org,
    ...(input.url ? { mainEntityOfPage: { '@type': 'WebPage', '@id': input.url }, url: input.url } : {}),
  }
  const faq = input.faq?.length ? input.faq : faqFromMarkdown(input.markdown)
  const out = [article]
  if (faq.length) out.push(faqJsonLd(faq))
  return out
}

/** JSON-LD as a <script> body that cannot close its element early. */
export function jsonLdScript(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
}

export { headings }
