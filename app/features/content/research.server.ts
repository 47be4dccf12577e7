import crypto from 'node:crypto'
import { and, eq, gt } from 'drizzle-orm'
import { parse, type DefaultTreeAdapterMap } from 'parse5'
import robotsParser from 'robots-parser'
import { normalizeSerpKeyword, type SerpResult } from '#app/features/keywords/serp'
import { db, schema } from '#app/platform/db/client.server'
import { getSerp } from '#app/features/keywords/serp.server'
import { allowPrivateNetworks, guardedGet } from '#app/platform/security/ssrf.server'
import { isClaim } from './claims'
import type { Evidence, Fact, FactKind } from './evidence'

/**
 * Research before writing: the keyword's Google top 10 (DataForSEO SERP, via getSerp) and what the ranking pages
 * cover — each fetched in parallel through the SSRF guard (time limit, size cap, robots.txt respected, HTML only)
 * and read with a real HTML parser (parse5): title, H2/H3 headings, main text length and the sentences with
 * figures (candidate facts, each with its page as source). Cached per keyword and market for 7 days. Failures
 * degrade the research (status 'partial' or 'none', with notes saying why), never throw.
 */
export const USER_AGENT = 'RankwellBot/1.0 (+https://rankwell.app/bot)'
export const RESEARCH_TTL_MS = 7 * 24 * 60 * 60 * 1000
export const PAGE_TIMEOUT_MS = 2_500
export const ROBOTS_TIMEOUT_MS = 1_500
export const SERP_BUDGET_MS = 2_500
export const PAGE_MAX_BYTES = 1_500_000
const PAGES_TO_READ = 10
const FACTS_PER_PAGE = 6
/** The shape of a research result: a cached one of another version is not used. */
export const RESEARCH_VERSION = 2

export type ResearchPage = {
  rank: number
  url: string
  domain: string
  title: string
  status: 'ok' | 'failed' | 'skipped'
  reason?: string
  words: number
  headings: Array<{ level: 2 | 3; text: string }>
  /** The page's fact sentences, verbatim, with ids (F1… across the pages read); none for a page not read. */
  facts: Fact[]
  /** When the page was fetched (ISO); null when it was not. */
  fetchedAt?: string | null
}
export type Research = {
  version?: number
  status: 'full' | 'partial' | 'none'
  notes: string[]
  serp: SerpResult | null
  pages: ResearchPage[]
  /** Median length in words of the pages read, or null. */
  medianWords: number | null
  fetchedAt: string
}

// ---------------------------------------------------------------------------------------------------------------
// HTML extraction (parse5)
// ---------------------------------------------------------------------------------------------------------------

type Node = DefaultTreeAdapterMap['node']
type Element = DefaultTreeAdapterMap['element']
const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'iframe',
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'button',
  'select',
  'head',
])
const BLOCK = new Set(['p', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'section', 'article', 'td', 'blockquote'])

const isElement = (n: Node): n is Element => 'tagName' in n
const clean = (s: string) => s.replace(/\s+/g, ' ').trim()

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value
  if (isElement(node) && SKIP.has(node.tagName)) return ''
  const children = 'childNodes' in node ? node.childNodes : []
  const inner = children.map(textOf).join('')
  return isElement(node) && BLOCK.has(node.tagName) ? `\n${inner}\n` : inner
}

function find(node: Node, pred: (e: Element) => boolean): Element | null {
  if (isElement(node) && pred(node)) return node
  const children = 'childNodes' in node ? node.childNodes : []
  for (const c of children) {
    const hit = find(c, pred)
    if (hit) return hit
  }
  return null
}

function collect(node: Node, pred: (e: Element) => boolean, out: Element[] = []): Element[] {
  if (isElement(node) && SKIP.has(node.tagName) && node.tagName !== 'head') return out
  if (isElement(node) && pred(node)) out.push(node)
  const children = 'childNodes' in node ? node.childNodes : []
  for (const c of children) collect(c, pred, out)
  return out
}

/** Title, H2/H3 headings, main text (scripts, navigation, header, footer and asides left out) of an HTML page. */
export function extractPage(html: string) {
  const doc = parse(html)
  const titleEl = find(doc, (e) => e.tagName === 'title')
  const title = titleEl ? clean(textOf({ ...titleEl, tagName: 'span' } as Element)) : ''
  const root =
    find(doc, (e) => e.tagName === 'article') ??
    find(doc, (e) => e.tagName === 'main') ??
    find(doc, (e) => e.tagName === 'body') ??
    doc
  const headings = collect(root, (e) => e.tagName === 'h2' || e.tagName === 'h3')
    .map((e) => ({ level: (e.tagName === 'h2' ? 2 : 3) as 2 | 3, text: clean(textOf(e)).slice(0, 200) }))
    .filter((h) => h.text)
    .slice(0, 40)
  const text = textOf(root).split('\n').map(clean).filter(Boolean).join('\n')
  const words = text.split(/\s+/).filter(Boolean).length
  return { title: title.slice(0, 300), headings, text, words }
}

const MONTH =
  /\b(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?\s+\d{1,2}\b|\b\d{1,2}\s+(?:January|February|March|April|May|June|July|August|September|October|November|December)\b/
const NAME = /(?<=\S\s+)(?:[A-Z][\p{Ll}]+|[A-Z]{2,})(?:\s+(?:of\s+|de\s+|&\s+)?(?:[A-Z][\p{Ll}]+|[A-Z]{2,}))+/u

/** What kind of fact a sentence states: figures (and dates), names, quotations; [] when none. */
export function factKinds(sentence: string): FactKind[] {
  const kinds: FactKind[] = []
  if (isClaim(sentence) && /\d/.test(sentence)) kinds.push('figure')
  if (/\b(1[6-9]|20)\d{2}\b/.test(sentence) || MONTH.test(sentence)) kinds.push('date')
  if (NAME.test(sentence)) kinds.push('name')
  if (/[“"][^”"\n]{12,}[”"]/.test(sentence)) kinds.push('quote')
  return kinds
}

/**
 * The sentences of a page that state a fact (a figure, a date, a name or a quotation), verbatim: the page's part
 * of the fact store. Sentences with figures first, then the others, in page order.
 */
export function factSentences(text: string, max = FACTS_PER_PAGE): Array<{ sentence: string; kinds: FactKind[] }> {
  const found: Array<{ sentence: string; kinds: FactKind[]; at: number }> = []
  const parts = text.split(/(?<=[.!?][”"]?)\s+|\n+/)
  parts.forEach((s, at) => {
    const sentence = clean(s)
    if (sentence.length < 25 || sentence.length > 400) return
    // A sentence with an address in it is not a fact we quote (it is how pages smuggle links into posts).
    if (/https?:\/\/|\bwww\.|\b[a-z0-9-]+\.(?:com|net|org|io|example)\/\S/i.test(sentence)) return
    const kinds = factKinds(sentence)
    if (!kinds.length || found.some((f) => f.sentence === sentence)) return
    found.push({ sentence, kinds, at })
  })
  const rank = (f: { kinds: FactKind[] }) => (f.kinds.includes('figure') ? 0 : f.kinds.includes('quote') ? 1 : 2)
  return found
    .sort((a, b) => rank(a) - rank(b) || a.at - b.at)
    .slice(0, max)
    .map(({ sentence, kinds }) => ({ sentence, kinds }))
}

// ---------------------------------------------------------------------------------------------------------------
// Fetching
// ---------------------------------------------------------------------------------------------------------------

const allowPrivate = () => allowPrivateNetworks('research')

export type Robots = { isAllowed(url: string, ua?: string): boolean | undefined }

/** robots.txt of an origin: 4xx means everything is allowed; an error or 5xx means nothing is (Google's rules). */
export async function robotsFor(origin: string): Promise<Robots | 'unreachable'> {
  const url = `${origin}/robots.txt`
  try {
    const res = await guardedGet(url, {
      timeoutMs: ROBOTS_TIMEOUT_MS,
      maxBytes: 500_000,
      headers: { 'User-Agent': USER_AGENT, Accept: 'text/plain' },
      allowPrivate: allowPrivate(),
    })
    if (res.status >= 200 && res.status < 300) return robotsParser(url, res.body)
    if (res.status >= 400 && res.status < 500) return robotsParser(url, '')
    return 'unreachable'
  } catch {
    return 'unreachable'
  }
}

async function readPage(
  item: SerpResult['items'][number],
  robots: (origin: string) => Promise<Robots | 'unreachable'>,
): Promise<ResearchPage> {
  const base: ResearchPage = {
    rank: item.rank,
    url: item.url,
    domain: item.domain,
    title: item.title,
    status: 'failed',
    words: 0,
    headings: [],
    facts: [],
  }
  let origin: string
  try {
    origin = new URL(item.url).origin
  } catch {
    return { ...base, reason: 'not a valid URL' }
  }
  const rules = await robots(origin)
  if (rules === 'unreachable') return { ...base, status: 'skipped', reason: 'robots.txt could not be read' }
  if (rules.isAllowed(item.url, USER_AGENT) === false)
    return { ...base, status: 'skipped', reason: 'robots.txt disallows it' }
  try {
    const res = await guardedGet(item.url, {
      timeoutMs: PAGE_TIMEOUT_MS,
      maxBytes: PAGE_MAX_BYTES,
      headers: { 'User-Agent': USER_AGENT, Accept: 'text/html,application/xhtml+xml' },
      allowPrivate: allowPrivate(),
    })
    if (res.status < 200 || res.status >= 300) return { ...base, reason: `HTTP ${res.status}` }
    const type = String(res.headers['content-type'] ?? '')
    if (!/text\/html|application\/xhtml\+xml/i.test(type)) return { ...base, reason: `not HTML (${type || 'no type'})` }
    const page = extractPage(res.body)
    if (page.words < 50) return { ...base, reason: 'too little text' }
    return {
      ...base,
      status: 'ok',
      title: page.title || item.title,
      words: page.words,
      headings: page.headings,
      // Ids are given once every page is read (F1… in rank order).
      facts: factSentences(page.text).map((f) => ({ id: '', url: item.url, ...f })),
      fetchedAt: new Date().toISOString(),
    }
  } catch (error) {
    const code = (error as { code?: string }).code
    return { ...base, reason: code === 'ETIMEDOUT' ? 'timed out' : (error as Error).message.slice(0, 120) }
  }
}

function median(values: number[]): number | null {
  if (!values.length) return null
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2)
}

export function researchKey(q: { keyword: string; countryCode: string; languageCode: string }) {
  const raw = JSON.stringify([normalizeSerpKeyword(q.keyword), q.countryCode, q.languageCode])
  return crypto.createHash('sha256').update(raw).digest('hex')
}

/** Research for a keyword and market: the cached one (7 days) when there is one with search data, else fresh. */
export async function research(q: { keyword: string; countryCode: string; languageCode: string }): Promise<Research> {
  const key = researchKey(q)
  const [hit] = await db
    .select({ result: schema.researchCache.result })
    .from(schema.researchCache)
    .where(
      and(
        eq(schema.researchCache.key, key),
        gt(schema.researchCache.createdAt, new Date(Date.now() - RESEARCH_TTL_MS)),
      ),
    )
    .limit(1)
  if (hit && (hit.result as Research).version === RESEARCH_VERSION) return hit.result as Research

  const fetchedAt = new Date().toISOString()
  const answer = await getSerp({ ...q, depth: 10, maxAgeDays: 7, budgetMs: SERP_BUDGET_MS })
  if (!answer.ok) {
    if (answer.reason !== 'not_configured') console.warn(`[research] search results unavailable: ${answer.reason}`)
    return {
      status: 'none',
      notes: [
        // The owner reads these beside the post (decision 0353): product words, never a provider's name or error.
        answer.reason === 'not_configured'
          ? 'Written without search data: reading Google’s current results is not available on this workspace yet.'
          : answer.reason === 'invalid_market'
            ? 'Written without search data: Google’s results could not be read for this keyword’s country and language.'
            : 'Written without search data: Google’s current results could not be read this time.',
      ],
      version: RESEARCH_VERSION,
      serp: null,
      pages: [],
      medianWords: null,
      fetchedAt,
    }
  }
  const robotsByOrigin = new Map<string, Promise<Robots | 'unreachable'>>()
  const robots = (origin: string) => {
    let p = robotsByOrigin.get(origin)
    if (!p) {
      p = robotsFor(origin)
      robotsByOrigin.set(origin, p)
    }
    return p
  }
  const top = answer.serp.items.slice(0, PAGES_TO_READ)
  const pages = await Promise.all(top.map((item) => readPage(item, robots)))
  let factNumber = 0
  for (const page of pages) page.facts = page.facts.map((f) => ({ ...f, id: `F${++factNumber}` }))
  const ok = pages.filter((p) => p.status === 'ok')
  const notes: string[] = []
  const failed = pages.filter((p) => p.status !== 'ok')
  if (failed.length)
    notes.push(
      `${failed.length} of ${pages.length} top pages could not be read: ${failed
        .slice(0, 4)
        .map((p) => `${p.domain} (${p.reason ?? p.status})`)
        .join(', ')}${failed.length > 4 ? ', …' : ''}.`,
    )
  if (!top.length) notes.push('Google showed no organic results for this keyword.')
  const status: Research['status'] = ok.length >= Math.max(1, Math.ceil(top.length / 2)) ? 'full' : 'partial'
  const result: Research = {
    version: RESEARCH_VERSION,
    status,
    notes,
    serp: answer.serp,
    pages,
    medianWords: median(ok.map((p) => p.words)),
    fetchedAt,
  }
  if (status === 'full') {
    await db
      .insert(schema.researchCache)
      .values({ key, result })
      .onConflictDoUpdate({ target: schema.researchCache.key, set: { result, createdAt: new Date() } })
      .catch((error: unknown) => console.error('[research] could not cache:', error))
  }
  return result
}

/**
 * The fact store of a research: every page (read, or not read and why) and the facts of the pages read. Research
 * cached before issue 32 (facts as plain sentences, no ids) is read too: its facts get ids here.
 */
export function evidenceOf(r: Research | null): Evidence {
  if (!r) return { pages: [], facts: [] }
  const facts: Fact[] = []
  const pages = r.pages.map((p) => {
    const read = p.status === 'ok'
    if (read)
      for (const f of p.facts as Array<Fact | string>) {
        const sentence = typeof f === 'string' ? f : f.sentence
        const id = typeof f === 'string' || !f.id ? `F${facts.length + 1}` : f.id
        facts.push({ id, url: p.url, sentence, kinds: typeof f === 'string' ? factKinds(f) : f.kinds })
      }
    return {
      url: p.url,
      title: p.title,
      domain: p.domain,
      rank: p.rank,
      status: read ? ('read' as const) : ('not read' as const),
      reason: read ? null : (p.reason ?? (p.status === 'skipped' ? 'skipped' : 'could not be read')),
      fetchedAt: read ? (p.fetchedAt ?? r.fetchedAt) : null,
    }
  })
  return { pages, facts }
}

/** The pages research actually read: the only third-party pages a post may link to or cite. */
export function readUrls(r: Research | null): string[] {
  return (r?.pages ?? []).filter((p) => p.status === 'ok').map((p) => p.url)
}
