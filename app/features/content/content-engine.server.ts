import { and, desc, eq, isNotNull, ne } from 'drizzle-orm'
import {
  applyCitations,
  buildJsonLd,
  stripRawHtml,
  extractClaims,
  filterLinks,
  finishArticle,
  linkUrls,
  urlSet,
  type Claim,
  type Source,
} from './content'
import { MAX_INTERNAL_LINKS, pickInternalLinks, postText, type LinkTarget } from './internal-links'
import { scorePost, type ScoreResult } from './seo-checklist'
import { bareDomain, comparableUrl } from '#app/features/keywords/serp'
import type { Brief, BriefInput, BusinessContext } from './brief-prompts.server'
import { userWithContentSettings, voiceOf } from './content-settings.server'
import { db, schema } from '#app/platform/db/client.server'
import { researchUrls, type Research } from './research.server'
import { rankByMeaning, sitePages } from './site-pages.server'

/**
 * The content engine around the model calls: the business context and voice of a user, the pages a post may link
 * to, the brief's input from the research, and the deterministic finish of an article (links, citations, CTA,
 * sources, claim ledger, score, JSON-LD). Used by the pipeline, the editor and the evaluation script.
 */
export const DEFAULT_TARGET = 1500
export const MIN_TARGET = 800
export const MAX_TARGET = 2500

/** Target length from the competitors' median (10% more), bounded; the default without research. */
export function targetWords(research: Research | null): number {
  const median = research?.medianWords
  if (!median) return DEFAULT_TARGET
  return Math.max(MIN_TARGET, Math.min(MAX_TARGET, Math.round((median * 1.1) / 50) * 50))
}

export async function businessContext(userId: string): Promise<BusinessContext | null> {
  const row = await userWithContentSettings(userId)
  if (!row) return null
  const u = row.user
  const s = row.settings
  if (!u.productService && !u.website && !s) return null
  return {
    name: u.website ? bareDomain(u.website) : u.name || 'Rankwell user',
    product: u.productService ?? '',
    idealCustomer: u.marketSegment ?? '',
    website: u.website ? (/^https?:\/\//i.test(u.website) ? u.website : `https://${u.website}`) : null,
    ...voiceOf(s),
  }
}

/**
 * The user's own pages a post may link to, each with what it is about (`text`): their other published posts (meta
 * description and H2 headings) and the pages of their sitemap that load (description and H1–H3, read through the
 * guard, cached daily; a page that fails is never a target). A URL that is both keeps the post's text.
 */
export async function ownPages(userId: string, postId: string, website: string | null): Promise<LinkTarget[]> {
  const [posts, pages] = await Promise.all([
    db
      .select({
        title: schema.blogPosts.title,
        url: schema.blogPosts.publishedUrl,
        metaDescription: schema.blogPosts.metaDescription,
        contentMarkdown: schema.blogPosts.contentMarkdown,
      })
      .from(schema.blogPosts)
      .where(
        and(
          eq(schema.blogPosts.userId, userId),
          ne(schema.blogPosts.id, postId),
          isNotNull(schema.blogPosts.publishedUrl),
        ),
      )
      .orderBy(desc(schema.blogPosts.createdAt))
      .limit(100),
    website ? sitePages(website) : Promise.resolve([]),
  ])
  const fromPosts: LinkTarget[] = posts.flatMap((p) =>
    p.url ? [{ url: p.url, title: p.title, text: postText(p) }] : [],
  )
  const seen = new Set(fromPosts.map((p) => comparableUrl(p.url)))
  return [...fromPosts, ...pages.filter((p) => !seen.has(comparableUrl(p.url)))]
}

/**
 * What a post may link to: the business, its own pages (`own`: URL and title, every allowed target) and the most
 * related of them to the post's topic (`internal`: at most 5, with their text and score), ranked by embeddings of
 * what they are about (term overlap when embeddings are unavailable), never the post's own published URL.
 */
export async function linkingContext(post: {
  userId: string
  id: string
  keyword: string
  title?: string | null
  publishedUrl: string | null
}) {
  const business = await businessContext(post.userId)
  const pages = await ownPages(post.userId, post.id, business?.website ?? null)
  const self = post.publishedUrl ? comparableUrl(post.publishedUrl) : null
  const candidates = pages.filter((p) => comparableUrl(p.url) !== self)
  const topic = [post.keyword, post.title && post.title !== post.keyword ? post.title : ''].filter(Boolean).join('. ')
  const related = await rankByMeaning(topic, candidates)
  const own = pages.map((p) => ({ url: p.url, title: p.title }))
  const internal = related.ranked.slice(0, MAX_INTERNAL_LINKS)
  return { business, own, internal, linkMethod: related.method, embeddingTokens: related.tokens }
}

/** The brief's view of the research: the top 10 numbered S1…, with what was read of each page. */
export function briefResearch(research: Research | null): BriefInput['research'] {
  if (!research?.serp) return { status: 'none', sources: [], peopleAlsoAsk: [], relatedSearches: [] }
  const pages = new Map(research.pages.map((p) => [comparableUrl(p.url), p]))
  return {
    status: research.status,
    sources: research.serp.items.slice(0, 10).map((item, i) => {
      const page = pages.get(comparableUrl(item.url))
      const ok = page?.status === 'ok'
      return {
        n: i + 1,
        url: item.url,
        title: ok ? page.title : item.title,
        headings: ok ? page.headings.map((h) => `${h.level === 2 ? 'H2' : 'H3'} ${h.text}`).slice(0, 12) : [],
        facts: ok ? page.facts : [],
        words: ok ? page.words : 0,
      }
    }),
    peopleAlsoAsk: research.serp.peopleAlsoAsk.slice(0, 8),
    relatedSearches: research.serp.relatedSearches.slice(0, 8),
  }
}

/** The part of a brief the finish needs: its sections' facts (and its FAQ, for JSON-LD). */
export type BriefFacts = Pick<Brief, 'sections'> & Partial<Pick<Brief, 'faq'>>

/** Facts of a brief section with their source number (S3 → 3), unknown sources dropped. */
export function sectionFacts(brief: BriefFacts, index: number, sourceCount: number) {
  return (brief.sections[index]?.facts ?? []).flatMap((f) => {
    const n = Number(/^S(\d+)$/.exec(f.source)?.[1])
    return n >= 1 && n <= sourceCount ? [{ text: f.text, n }] : []
  })
}

/** Every fact of a brief with its source URL: the brief's part of the claim ledger. */
export function briefClaims(brief: BriefFacts, sources: Source[]): Claim[] {
  return brief.sections.flatMap((_, i) =>
    sectionFacts(brief, i, sources.length).map((f) => ({ text: f.text, sourceUrl: sources[f.n - 1]!.url })),
  )
}

export type Finished = {
  markdown: string
  claims: Claim[]
  score: ScoreResult
  jsonLd: Array<Record<string, unknown>>
  sources: Source[]
}

/**
 * The deterministic end of the pipeline: links the model wrote to anything but the research or the user's own
 * pages are removed, citation markers become numbered links, the internal links, the CTA and the 'Sources'
 * section are added; then the claim ledger, the score and the JSON-LD.
 */
export function finishPost(input: {
  markdown: string
  keyword: string
  title: string
  slug: string
  metaDescription: string
  language: string
  research: Research | null
  /**
   * The numbered sources citation markers refer to; by default the research's top 10 (a refreshed post keeps the
   * sources it already cites after the new research's).
   */
  sources?: Source[]
  brief: BriefFacts | null
  targetWords: number | null
  own: LinkTarget[]
  internal: LinkTarget[]
  business: BusinessContext | null
  publishedUrl: string | null
  publishedAt: Date | null
  modifiedAt: Date | null
  /** An author's edit: their own http(s) links stay (the model's are held to the research and the own site). */
  authorLinks?: boolean
  /** JSON-LD's FAQPage from the text's FAQ section (an edited post) rather than the brief's. */
  faqFromText?: boolean
}): Finished {
  const sources: Source[] =
    input.sources ?? (input.research?.serp?.items ?? []).slice(0, 10).map((i) => ({ url: i.url, title: i.title }))
  const researchSet = urlSet([...researchUrls(input.research), ...sources.map((s) => s.url)])
  const ownSet = urlSet(input.own.map((o) => o.url))
  const site = input.business?.website ? bareDomain(new URL(input.business.website).host) : null
  const cta = input.business?.ctaText ? { text: input.business.ctaText, url: input.business.ctaUrl } : null
  const allowed = (url: string) => {
    if (researchSet(url) || ownSet(url)) return true
    try {
      return site !== null && bareDomain(new URL(url).host) === site
    } catch {
      return false
    }
  }
  // Links of the model (and of an editor) that point elsewhere are removed; each target is linked once.
  // Citation links of an earlier finish become markers again, so that an edited text is renumbered consistently.
  const text = uncite(stripFinish(input.markdown), sources)
  let body = dedupeLinks(filterLinks(stripRawHtml(text), input.authorLinks ? () => true : allowed))
  const factSources = input.brief ? briefClaims(input.brief, sources).map((c) => c.sourceUrl!) : []
  const cited = applyCitations(body, sources, factSources)
  body = cited.markdown
  const markdown = finishArticle(body, {
    internal: input.internal.filter(
      (t) => !input.publishedUrl || comparableUrl(t.url) !== comparableUrl(input.publishedUrl),
    ),
    cta: cta && (!cta.url || /^https?:\/\//i.test(cta.url)) ? cta : null,
    sources: cited.used,
  })
  const claims = mergeClaims(
    extractClaims(
      markdown,
      sources.map((s) => s.url),
    ),
    input.brief ? briefClaims(input.brief, sources) : [],
  )
  const score = scorePost({
    keyword: input.keyword,
    title: input.title,
    slug: input.slug,
    metaDescription: input.metaDescription,
    markdown,
    targetWords: input.targetWords,
    language: input.language,
    ownPages: input.own.map((o) => o.url),
    siteHost: site,
    claims,
  })
  const jsonLd = buildJsonLd({
    faq: input.faqFromText ? undefined : input.brief?.faq?.map((f) => ({ question: f.question, answer: f.answer })),
    title: input.title,
    description: input.metaDescription,
    markdown,
    url: input.publishedUrl,
    language: input.language,
    keyword: input.keyword,
    publishedAt: input.publishedAt,
    modifiedAt: input.modifiedAt,
    business: { name: input.business?.name ?? 'Rankwell', url: input.business?.website ?? null },
  })
  return { markdown, claims, score, jsonLd, sources: cited.used }
}

/** Removes what finishPost adds (Related reading line, CTA line, Sources section) so an edit can be finished again. */
export function stripFinish(markdown: string): string {
  return markdown
    .replace(/\n## Sources\s*\n[\s\S]*$/, '\n')
    .replace(/\n\*\*Related reading:\*\*[^\n]*\n?/g, '\n')
    .replace(/\n\*\*\[[^\]\n]+\]\([^)\n]+\)\*\*\s*$/g, '\n')
    .trimEnd()
}

/** `[[n](url)]` citation links to a research source become the marker `[k]` (k: the source's research number). */
export function uncite(markdown: string, sources: Source[]): string {
  return markdown.replace(/\[\[(\d{1,2})\]\(\s*([^)\s]+)\s*\)\]/g, (whole, _n: string, url: string) => {
    const at = sources.findIndex((s) => comparableUrl(s.url) === comparableUrl(url))
    return at < 0 ? whole : `[${at + 1}]`
  })
}

/** A target linked more than once keeps its first link; the others become plain text. */
function dedupeLinks(markdown: string): string {
  const seen = new Set<string>()
  return markdown.replace(/(?<!!)\[([^\]]*)\]\(\s*([^)\s]+)\s*\)/g, (whole, text: string, url: string) => {
    if (/^\[?\d+\]?$/.test(text)) return whole
    const key = comparableUrl(url)
    if (seen.has(key)) return text
    seen.add(key)
    return whole
  })
}

function mergeClaims(a: Claim[], b: Claim[]): Claim[] {
  const out = [...a]
  for (const c of b) if (!out.some((x) => x.text === c.text)) out.push(c)
  return out
}

export { linkUrls, pickInternalLinks }
