import { and, desc, eq, isNotNull, ne } from 'drizzle-orm'
import { buildJsonLd, stripFinish, stripRawHtml, finishArticle, linkUrls, urlSet, type Source } from './content'
import { checkClaims, citeFacts, numberCitations, textFragmentUrl } from './claims'
import { allowMarkdownLinks } from '#app/platform/markdown/links'
import { readEvidence, type Claim, type Evidence, type UnverifiedPolicy } from './evidence'
import { MAX_INTERNAL_LINKS, pickInternalLinks, postText, type LinkTarget } from './internal-links'
import { scorePost, type ScoreResult } from './seo-checklist'
import { bareDomain, comparableUrl } from '#app/features/keywords/serp'
import type { Brief, BriefInput, BusinessContext } from './brief-prompts.server'
import { userWithContentSettings, voiceOf } from './content-settings.server'
import { db, schema } from '#app/platform/db/client.server'
import { evidenceOf, type Research } from './research.server'
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

/** The brief's view of the research: the top 10 numbered S1…, with what was read of each page and its facts by id. */
export function briefResearch(research: Research | null): BriefInput['research'] {
  if (!research?.serp) return { status: 'none', sources: [], peopleAlsoAsk: [], relatedSearches: [] }
  const pages = new Map(research.pages.map((p) => [comparableUrl(p.url), p]))
  const evidence = evidenceOf(research)
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
        facts: ok
          ? evidence.facts
              .filter((f) => comparableUrl(f.url) === comparableUrl(page.url))
              .map((f) => ({ id: f.id, sentence: f.sentence }))
          : [],
        words: ok ? page.words : 0,
      }
    }),
    peopleAlsoAsk: research.serp.peopleAlsoAsk.slice(0, 8),
    relatedSearches: research.serp.relatedSearches.slice(0, 8),
  }
}

/** The facts a brief section cites (by id), as the section prompt lists them; unknown ids are dropped. */
export function sectionFacts(brief: Pick<Brief, 'sections'>, index: number, evidence: Evidence) {
  const byId = new Map(evidence.facts.map((f) => [f.id, f]))
  const ids = [...new Set(brief.sections[index]?.facts ?? [])]
  return ids.flatMap((id) => {
    const f = byId.get(id.trim().toUpperCase())
    return f ? [{ id: f.id, sentence: f.sentence }] : []
  })
}

/** The facts a brief uses, with their page: what 'Facts and their sources' shows (the store's words, never the model's). */
export function briefFacts(brief: Pick<Brief, 'sections'>, evidence: Evidence) {
  const ids = new Set(brief.sections.flatMap((_, i) => sectionFacts(brief, i, evidence).map((f) => f.id)))
  return evidence.facts
    .filter((f) => ids.has(f.id))
    .map((f) => ({ id: f.id, text: f.sentence, sourceUrl: f.url, evidenceUrl: textFragmentUrl(f.url, f.sentence) }))
}

/**
 * Two fact stores as one (a refresh: today's research and what the post was written from): the pages of both
 * (today's answer wins), today's facts with their ids, the earlier facts renumbered after them.
 */
export function mergeEvidence(fresh: Evidence, earlier: Evidence | null): Evidence {
  if (!earlier) return fresh
  const pages = new Map(earlier.pages.map((p) => [comparableUrl(p.url), p]))
  for (const p of fresh.pages) {
    const before = pages.get(comparableUrl(p.url))
    pages.set(comparableUrl(p.url), p.status === 'read' || !before ? p : before)
  }
  const seen = new Set(fresh.facts.map((f) => `${comparableUrl(f.url)}|${f.sentence}`))
  const older = earlier.facts.filter((f) => !seen.has(`${comparableUrl(f.url)}|${f.sentence}`))
  return {
    pages: [...pages.values()],
    facts: [...fresh.facts, ...older.map((f, i) => ({ ...f, id: `F${fresh.facts.length + i + 1}` }))],
  }
}

/**
 * The fact store of a stored post: its `evidence`, or for a post written before issue 32 the one rebuilt from its
 * research, with the pages it cited then kept as read (their claims stay unverified: no facts were kept).
 */
export function storedEvidence(post: { evidence: unknown; steps: unknown }): Evidence {
  const stored = readEvidence(post.evidence)
  if (stored) return stored
  const context = ((post.steps ?? {}) as { context?: { research?: Research | null; sources?: Source[] } }).context
  const rebuilt = evidenceOf(context?.research ?? null)
  const legacy = (context?.sources ?? []).filter(
    (s) => !rebuilt.pages.some((p) => comparableUrl(p.url) === comparableUrl(s.url)),
  )
  return {
    facts: rebuilt.facts,
    pages: [
      ...rebuilt.pages,
      ...legacy.map((s, i) => ({
        url: s.url,
        title: s.title || s.url,
        domain: domainName(s.url),
        rank: rebuilt.pages.length + i + 1,
        status: 'read' as const,
        reason: null,
        fetchedAt: null,
      })),
    ],
  }
}

function domainName(url: string) {
  try {
    return new URL(url).hostname
  } catch {
    return url
  }
}

export type Finished = {
  markdown: string
  claims: Claim[]
  score: ScoreResult
  jsonLd: Array<Record<string, unknown>>
  sources: Source[]
  /** Sentences that wait for a rewrite (policy 'rewrite'): finish again with `rewrites` for them. */
  pending: string[]
  /**
   * The links the stored HTML may keep (`storedPostBody(markdown, { allowUrl })`): the pages read, the user's own
   * site and pages, the call to action; undefined for an author's edit (their links are theirs).
   */
  allowUrl: ((url: string) => boolean) | undefined
}

/**
 * The deterministic end of the pipeline (and of every edit): links to anything but the pages read and the user's
 * own pages are removed (an author's own links stay), fact markers become citation links to the fact's sentence,
 * links to pages read become citations, every figure and quotation is checked against the fact it cites (the
 * unverified ones rewritten, removed or marked: `policy`), citations are numbered by page in order of first use,
 * the internal links, the CTA and the 'Sources' section (exactly the cited pages) are added; then the claim
 * ledger, the score and the JSON-LD (plain text; its FAQPage is the FAQ shown in the text).
 */
export function finishPost(input: {
  markdown: string
  keyword: string
  title: string
  slug: string
  metaDescription: string
  language: string
  /** The fact store: the pages read (the only ones a post may cite or link to) and their facts. */
  evidence: Evidence
  policy: UnverifiedPolicy
  /** Rewrites of `pending` sentences (plain text → the rewritten sentence). */
  rewrites?: Record<string, string>
  targetWords: number | null
  own: LinkTarget[]
  internal: LinkTarget[]
  business: BusinessContext | null
  publishedUrl: string | null
  publishedAt: Date | null
  modifiedAt: Date | null
  /** An author's edit: their own http(s) links stay (the model's are held to the pages read and the own site). */
  authorLinks?: boolean
  /** The post's stored images (issue 33), for the checklist's image items. */
  images?: Array<{ id: string; role: 'featured' | 'figure'; alt: string }>
}): Finished {
  const evidence = input.evidence
  const read = evidence.pages.filter((p) => p.status === 'read')
  const readSet = urlSet(read.map((p) => p.url))
  const ownSet = urlSet(input.own.map((o) => o.url))
  const site = input.business?.website ? bareDomain(new URL(input.business.website).host) : null
  const cta = input.business?.ctaText ? { text: input.business.ctaText, url: input.business.ctaUrl } : null
  const allowed = (url: string) => {
    if (readSet(url) || ownSet(url)) return true
    try {
      return site !== null && bareDomain(new URL(url).host) === site
    } catch {
      return false
    }
  }
  // Links of the model (and of an editor) that point elsewhere are removed; a link to a page read is a citation.
  let body = allowMarkdownLinks(stripRawHtml(stripFinish(input.markdown)), input.authorLinks ? () => true : allowed)
  body = citeLinkedPages(citeFacts(body, evidence), readSet)
  const checked = checkClaims(body, evidence, { policy: input.policy, rewrites: input.rewrites })
  const numbered = numberCitations(dedupeLinks(checked.markdown), evidence)
  const titles = new Map(read.map((p) => [comparableUrl(p.url), p.title]))
  const sources = numbered.cited.map((url) => ({ url, title: titles.get(comparableUrl(url)) || url }))
  const markdown = finishArticle(numbered.markdown, {
    internal: input.internal.filter(
      (t) => !input.publishedUrl || comparableUrl(t.url) !== comparableUrl(input.publishedUrl),
    ),
    cta: cta && (!cta.url || /^https?:\/\//i.test(cta.url)) ? cta : null,
    sources,
    placeInline: !input.authorLinks,
  })
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
    claims: checked.claims,
    images: input.images ?? [],
  })
  const jsonLd = buildJsonLd({
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
  const ctaUrl = cta?.url ? urlSet([cta.url]) : () => false
  return {
    markdown,
    claims: checked.claims,
    score,
    jsonLd,
    sources,
    pending: checked.pending,
    allowUrl: input.authorLinks ? undefined : (url: string) => allowed(url) || ctaUrl(url),
  }
}

/** A link to a page read (not a citation, not an image) becomes its text and a citation of that page. */
function citeLinkedPages(markdown: string, isRead: (url: string) => boolean): string {
  return markdown.replace(
    /(?<![![])\[([^[\]\n]+)\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g,
    (whole, text: string, url: string) => {
      if (/^\d+$/.test(text) || !/^https?:\/\//i.test(url) || !isRead(url)) return whole
      return `${text} [[0](${url.split('#')[0]})]`
    },
  )
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

export { linkUrls, pickInternalLinks, stripFinish }
