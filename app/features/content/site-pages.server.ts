import crypto from 'node:crypto'
import { and, eq, inArray } from 'drizzle-orm'
import { parse, type DefaultTreeAdapterMap } from 'parse5'
import { bareDomain, comparableUrl } from '#app/features/keywords/serp'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv } from '#app/platform/env.server'
import { allowPrivateNetworks, guardedGet } from '#app/platform/security/ssrf.server'
import { cosine, embed, LINK_MIN_SIMILARITY } from './embeddings.server'
import { overlap, targetText, terms, type LinkTarget } from './internal-links'
import { PAGE_TIMEOUT_MS, robotsFor, USER_AGENT, type Robots as ResearchRobots } from './research.server'

/**
 * The user's own site as internal links see it (issue 32, item 6): the URLs of its sitemap.xml (cached daily), and
 * the first SITE_PAGES_MAX of its pages read through the SSRF guard (robots.txt respected, short time limits, a few
 * at a time): title, meta description and H1–H3, in `site_page_cache` for the day (fetched_on = UTC date). A page
 * that does not load (not 2xx, not HTML, timed out, refused by robots.txt) is 'failed' and never a link target.
 * Targets are ranked by the meaning of that text: embeddings (cached per page by text hash and model), cosine to
 * the post's topic; term overlap of the same text when embeddings are unavailable.
 */
export const SITEMAP_MAX_URLS = 500
/** At most this many pages of a sitemap are read (the first listed). */
export const SITE_PAGES_MAX = 50
export const SITE_PAGE_TIMEOUT_MS = 2_000
const SITE_PAGE_MAX_BYTES = 1_000_000
const CONCURRENCY = 6

const allowPrivate = () => allowPrivateNetworks('research')
const today = () => new Date().toISOString().slice(0, 10)

// ---------------------------------------------------------------------------------------------------------------
// The sitemap (moved from research.server.ts)
// ---------------------------------------------------------------------------------------------------------------

/** The page URLs of a sitemap (a sitemap index is followed one level, at most 5 child sitemaps). */
export async function sitemapUrls(website: string): Promise<string[]> {
  let root: URL
  try {
    root = new URL(/^https?:\/\//i.test(website) ? website : `https://${website}`)
  } catch {
    return []
  }
  const sitemapUrl = `${root.origin}/sitemap.xml`
  const day = today()
  const [hit] = await db
    .select()
    .from(schema.sitemapCache)
    .where(and(eq(schema.sitemapCache.url, sitemapUrl), eq(schema.sitemapCache.fetchedOn, day)))
    .limit(1)
  if (hit) return hit.urls as string[]

  const get = async (url: string) => {
    const res = await guardedGet(url, {
      timeoutMs: PAGE_TIMEOUT_MS,
      maxBytes: 5_000_000,
      headers: { 'User-Agent': USER_AGENT, Accept: 'application/xml,text/xml' },
      allowPrivate: allowPrivate(),
    })
    return res.status >= 200 && res.status < 300 ? res.body : ''
  }
  const locs = (xml: string) => [...xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)].map((m) => decodeXml(m[1]!))
  let urls: string[] = []
  try {
    const xml = await get(sitemapUrl)
    if (/<sitemapindex/i.test(xml)) {
      const children = locs(xml).slice(0, 5)
      const nested = await Promise.all(children.map((u) => get(u).catch(() => '')))
      urls = nested.flatMap(locs)
    } else urls = locs(xml)
  } catch {
    return []
  }
  const sameSite = urls
    .filter((u) => {
      try {
        return bareDomain(new URL(u).host) === bareDomain(root.host)
      } catch {
        return false
      }
    })
    .slice(0, SITEMAP_MAX_URLS)
  const unique = [...new Map(sameSite.map((u) => [comparableUrl(u), u])).values()]
  await db
    .insert(schema.sitemapCache)
    .values({ url: sitemapUrl, urls: unique, fetchedOn: day })
    .onConflictDoUpdate({ target: schema.sitemapCache.url, set: { urls: unique, fetchedOn: day } })
    .catch(() => {})
  return unique
}

function decodeXml(s: string) {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
}

// ---------------------------------------------------------------------------------------------------------------
// Reading a page: title, meta description, H1–H3 (parse5)
// ---------------------------------------------------------------------------------------------------------------

type Node = DefaultTreeAdapterMap['node']
type Element = DefaultTreeAdapterMap['element']
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'nav', 'footer', 'aside', 'form'])
const isElement = (n: Node): n is Element => 'tagName' in n
const clean = (s: string) => s.replace(/\s+/g, ' ').trim()

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value
  if (isElement(node) && SKIP.has(node.tagName)) return ''
  return ('childNodes' in node ? node.childNodes : []).map(textOf).join(' ')
}

function walk(node: Node, visit: (e: Element) => void) {
  if (isElement(node)) {
    if (SKIP.has(node.tagName)) return
    visit(node)
  }
  const children = node.nodeName === 'template' ? [] : 'childNodes' in node ? node.childNodes : []
  for (const c of children) walk(c, visit)
}

/** What a page says it is about: its title (or first H1), meta description and H1–H3 headings (at most 20). */
export function readSitePage(html: string): { title: string; description: string; headings: string[] } {
  let title = ''
  let description = ''
  const headings: string[] = []
  walk(parse(html), (e) => {
    if (e.tagName === 'title' && !title) title = clean(textOf({ ...e, tagName: 'span' } as Element))
    else if (e.tagName === 'meta' && !description) {
      const name = e.attrs.find((a) => a.name === 'name')?.value.toLowerCase()
      if (name === 'description') description = clean(e.attrs.find((a) => a.name === 'content')?.value ?? '')
    } else if (/^h[1-3]$/.test(e.tagName)) {
      const text = clean(textOf(e)).slice(0, 200)
      if (text && !headings.includes(text) && headings.length < 20) headings.push(text)
    }
  })
  return { title: (title || headings[0] || '').slice(0, 300), description: description.slice(0, 500), headings }
}

/** The text of a page as a link target (besides its title): its description and headings, title repeats left out. */
export function sitePageText(page: { title: string; description: string; headings: string[] }) {
  return [page.description, ...page.headings.filter((h) => h !== page.title)].filter(Boolean).join('. ').slice(0, 1500)
}

type Robots = ResearchRobots | 'unreachable'

type PageRow = typeof schema.sitePageCache.$inferInsert

async function fetchSitePage(url: string, robots: (origin: string) => Promise<Robots>): Promise<PageRow> {
  const failed: PageRow = { url, status: 'failed', title: '', description: '', headings: [], fetchedOn: today() }
  try {
    const rules = await robots(new URL(url).origin)
    if (rules === 'unreachable' || rules.isAllowed(url, USER_AGENT) === false) return failed
    const res = await guardedGet(url, {
      timeoutMs: SITE_PAGE_TIMEOUT_MS,
      maxBytes: SITE_PAGE_MAX_BYTES,
      headers: { 'User-Agent': USER_AGENT, Accept: 'text/html,application/xhtml+xml' },
      allowPrivate: allowPrivate(),
    })
    if (res.status < 200 || res.status >= 300) return failed
    if (!/text\/html|application\/xhtml\+xml/i.test(String(res.headers['content-type'] ?? ''))) return failed
    const page = readSitePage(res.body)
    if (!page.title) return failed
    const target = { url, title: page.title, text: sitePageText(page) }
    return { ...failed, status: 'ok', ...page, textHash: textHash(targetText(target)) }
  } catch {
    return failed
  }
}

const textHash = (text: string) => crypto.createHash('sha256').update(text).digest('hex')

async function pool<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const run = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await work(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, run))
  return out
}

export type SitePage = LinkTarget & { text: string }

/**
 * The pages of the user's site that load (the first SITE_PAGES_MAX of its sitemap), each with its title and text:
 * today's reading from `site_page_cache`, or read now (and stored) for pages not read today. Never throws.
 */
export async function sitePages(website: string): Promise<SitePage[]> {
  let urls: string[]
  try {
    urls = (await sitemapUrls(website)).slice(0, SITE_PAGES_MAX)
  } catch (error) {
    console.error('[site-pages] sitemap could not be read:', (error as Error).message)
    return []
  }
  if (!urls.length) return []
  const day = today()
  const cached = await db
    .select()
    .from(schema.sitePageCache)
    .where(inArray(schema.sitePageCache.url, urls))
    .catch(() => [])
  const byUrl = new Map(cached.filter((r) => r.fetchedOn === day).map((r) => [r.url, r]))
  const stale = new Map(cached.filter((r) => r.fetchedOn !== day).map((r) => [r.url, r]))
  const missing = urls.filter((u) => !byUrl.has(u))
  if (missing.length) {
    const robotsByOrigin = new Map<string, Promise<Robots>>()
    const robots = (origin: string) => {
      let p = robotsByOrigin.get(origin)
      if (!p) robotsByOrigin.set(origin, (p = robotsFor(origin)))
      return p
    }
    const read = await pool(missing, CONCURRENCY, (url) => fetchSitePage(url, robots))
    for (const row of read) {
      // A page whose text did not change keeps its embedding.
      const old = stale.get(row.url)
      const keep = old && old.textHash && old.textHash === row.textHash
      const values = {
        ...row,
        embedding: keep ? old.embedding : null,
        embeddingModel: keep ? old.embeddingModel : null,
        textHash: row.textHash ?? null,
      }
      byUrl.set(row.url, { ...values, createdAt: new Date() } as typeof schema.sitePageCache.$inferSelect)
      const { url: _url, ...set } = values
      await db
        .insert(schema.sitePageCache)
        .values(values)
        .onConflictDoUpdate({ target: schema.sitePageCache.url, set })
        .catch((error: unknown) => console.error('[site-pages] could not cache:', (error as Error).message))
    }
  }
  return urls.flatMap((url) => {
    const row = byUrl.get(url)
    if (!row || row.status !== 'ok') return []
    const page = { title: row.title, description: row.description, headings: (row.headings as string[]) ?? [] }
    return [{ url, title: row.title, text: sitePageText(page) }]
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Ranking by meaning
// ---------------------------------------------------------------------------------------------------------------

export type Ranked = {
  /** The targets related to the topic, most related first, each with its score. */
  ranked: Array<LinkTarget & { score: number }>
  method: 'embeddings' | 'terms'
  tokens: number
}

/**
 * The targets ranked by how related their text (title, description, headings) is to the topic: cosine of
 * embeddings (a site page's embedding is reused from `site_page_cache` while its text and the model are the same),
 * kept from LINK_MIN_SIMILARITY; term overlap of the same text when embeddings are unavailable (not configured,
 * failing), kept when above 0.
 */
export async function rankByMeaning(
  topic: string,
  targets: LinkTarget[],
  opts: { minSimilarity?: number } = {},
): Promise<Ranked> {
  if (!targets.length) return { ranked: [], method: 'terms', tokens: 0 }
  const texts = targets.map(targetText)
  try {
    const model = getEnv().OPENAI_EMBEDDING_MODEL
    const hashes = texts.map(textHash)
    const rows = await db
      .select({
        url: schema.sitePageCache.url,
        textHash: schema.sitePageCache.textHash,
        embedding: schema.sitePageCache.embedding,
        embeddingModel: schema.sitePageCache.embeddingModel,
      })
      .from(schema.sitePageCache)
      .where(
        inArray(
          schema.sitePageCache.url,
          targets.map((t) => t.url),
        ),
      )
    const stored = new Map(rows.map((r) => [r.url, r]))
    const vectors: Array<number[] | null> = targets.map((t, i) => {
      const r = stored.get(t.url)
      return r && r.textHash === hashes[i] && r.embeddingModel === model && Array.isArray(r.embedding)
        ? (r.embedding as number[])
        : null
    })
    const todo = vectors.flatMap((v, i) => (v ? [] : [i]))
    const fresh = await embed([topic, ...todo.map((i) => texts[i]!)])
    const topicVector = fresh.vectors[0]!
    for (const [k, i] of todo.entries()) {
      const vector = fresh.vectors[k + 1]!
      vectors[i] = vector
      const r = stored.get(targets[i]!.url)
      if (r && r.textHash === hashes[i])
        await db
          .update(schema.sitePageCache)
          .set({ embedding: vector.map((x) => Math.round(x * 1e6) / 1e6), embeddingModel: model })
          .where(and(eq(schema.sitePageCache.url, r.url), eq(schema.sitePageCache.textHash, hashes[i]!)))
          .catch(() => {})
    }
    const min = opts.minSimilarity ?? LINK_MIN_SIMILARITY
    const ranked = targets
      .map((t, i) => ({ ...t, score: Math.round(cosine(topicVector, vectors[i]!) * 1000) / 1000 }))
      .filter((t) => t.score >= min)
      .sort((a, b) => b.score - a.score)
    return { ranked, method: 'embeddings', tokens: fresh.tokens }
  } catch (error) {
    console.warn('[site-pages] ranking by term overlap:', (error as Error).message)
    const topicTerms = terms(topic)
    const ranked = targets
      .map((t, i) => ({ ...t, score: Math.round(overlap(topicTerms, terms(texts[i]!)) * 1000) / 1000 }))
      .filter((t) => t.score > 0)
      .sort((a, b) => b.score - a.score)
    return { ranked, method: 'terms', tokens: 0 }
  }
}
