/**
 * The evaluation's figures for one written post (issue 32), pure: `npm run eval:posts` prints them per post and
 * the integration tests of the issue assert them (tests/integration/claims.test.ts).
 *
 * - claims: how many of the ledger's claims are verified / rewritten / unverified / removed;
 * - unread citations (must be 0): citation links `[[n](url)]` whose page is 'not read' in the post's evidence, or
 *   not in it at all;
 * - off-list links (must be 0): every URL a reader's browser or a search engine would follow — each `href`/`src`
 *   of the stored HTML, each of the Markdown as marked renders it (so every form Markdown links counts: bare and
 *   `www.` URLs, autolinks, titles, references, images, raw HTML), and every URL inside the JSON-LD's strings —
 *   that is not a fragment, a page read (the exact page: a site whose one page was read is not thereby allowed), a
 *   page of the user's site (its host, port included), or one of the user's own posts;
 * - Sources = cited: the '## Sources' list has exactly the pages the citations link to, each under the number
 *   its citations carry;
 * - internal-link relevance: the share of links to the user's pages whose target's title shares a term with the
 *   paragraph the link sits in, not counting the keyword's own terms (they are in nearly every paragraph and every
 *   on-topic title, so they prove nothing) and not counting links that sit in no prose (a line of links, such as a
 *   'Related reading' line, is no paragraph).
 */
import { readClaims, readEvidence, type Claim } from '#app/features/content/evidence'
import { markdownToHtml } from '#app/platform/markdown/markdown'

export type PostForMetrics = {
  keyword: string
  contentMarkdown: string
  contentHtml: string
  jsonLd: unknown
  claims: unknown
  evidence: unknown
  /** Where the post itself is live (JSON-LD's url and mainEntityOfPage name it). */
  publishedUrl?: string | null
}

export type SiteContext = {
  /** The user's website (its host is allowed, port included) and their own posts' URLs. */
  siteUrls: string[]
  /** Links that are no internal links to measure (the call to action). */
  ctaUrls: string[]
  /** What is known of the user's pages: their titles (the sitemap pages read, earlier posts). */
  targets: Array<{ url: string; title: string }>
}

export type PostMetrics = {
  claims: Record<Claim['status'], number>
  unreadCitations: string[]
  offList: string[]
  sourcesMatch: boolean
  cited: string[]
  listed: string[]
  internalLinks: number
  relevantLinks: number
}

/** A page's identity: host (port kept, `www.` dropped), path without trailing slash, query; no fragment. */
export function pageKey(url: string): string {
  try {
    const u = new URL(url)
    return `${u.host.toLowerCase().replace(/^www\./, '')}${u.pathname.replace(/\/+$/, '')}${u.search}`
  } catch {
    return url.trim().toLowerCase()
  }
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase().replace(/^www\./, '')
  } catch {
    return null
  }
}

const withoutFragment = (url: string) => url.replace(/#.*$/s, '')

/** The numbered citation links of a post, `[[n](url)]`, with the page each links to. */
export function citationLinks(markdown: string): Array<{ n: number; url: string; page: string }> {
  const body = beforeSources(markdown)
  return [...body.matchAll(new RegExp(String.raw`\[\[(\d+)\]\(\s*<?(${URL_PART})>?\s*\)\]`, 'g'))].map((m) => ({
    n: Number(m[1]),
    url: m[2]!,
    page: withoutFragment(m[2]!),
  }))
}

/** A link destination: no spaces or angle brackets; parentheses only balanced (`#:~:text=a-(b)` stays whole). */
const URL_PART = String.raw`(?:[^\s()<>]|\([^\s()<>]*\))+`

const SOURCES_HEADING = /^##[ \t]+Sources[ \t]*$/m

function beforeSources(markdown: string): string {
  const at = markdown.search(SOURCES_HEADING)
  return at < 0 ? markdown : markdown.slice(0, at)
}

/** The '## Sources' list: `n. [title](url)` lines (empty when there is no such section). */
export function sourcesList(markdown: string): Array<{ n: number; url: string }> {
  const at = markdown.search(SOURCES_HEADING)
  if (at < 0) return []
  const section = markdown.slice(at).replace(SOURCES_HEADING, '')
  const end = section.search(/^#{1,2}[ \t]/m)
  const list = end < 0 ? section : section.slice(0, end)
  return [...list.matchAll(new RegExp(String.raw`^(\d+)\.[ \t]+.*?\]\(\s*<?(${URL_PART})`, 'gm'))].map((m) => ({
    n: Number(m[1]),
    url: m[2]!,
  }))
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
    return ENTITIES[e.toLowerCase()] ?? whole
  })
}

/** Every `href` and `src` (and `srcset` entry) of an HTML text, entities decoded. */
export function htmlUrls(html: string): string[] {
  const out: string[] = []
  for (const m of html.matchAll(/<[a-z][^>]*>/gi)) {
    for (const a of m[0].matchAll(
      /\s(href|src|srcset|poster|action|formaction)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi,
    )) {
      const value = decodeEntities((a[3] ?? a[4] ?? a[5] ?? '').trim())
      if (a[1]!.toLowerCase() === 'srcset') out.push(...value.split(',').map((s) => s.trim().split(/\s+/)[0]!))
      else out.push(value)
    }
  }
  return out.filter(Boolean)
}

/** Every URL of a Markdown text as marked would link it (the rendered, unsanitized HTML's href/src). */
export function markdownUrls(markdown: string): string[] {
  return htmlUrls(markdownToHtml(markdown))
}

/** Every URL inside the strings of a JSON value (JSON-LD's `@context` names a vocabulary, not a link). */
export function jsonUrls(value: unknown): string[] {
  const out: string[] = []
  const walk = (v: unknown, key: string) => {
    if (typeof v === 'string') {
      if (key !== '@context')
        for (const url of v.match(/(?:\bhttps?:\/\/|\bwww\.)[^\s<>"'`)\]]+/gi) ?? [])
          out.push(url.replace(/[.,;:!?]+$/, ''))
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, key))
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k)
  }
  walk(value, '')
  return out
}

/**
 * The allowlist of a post: fragments, relative links (they stay on the site the post is published on), the pages
 * read (exactly), the user's site (its host) and the user's own posts.
 */
export function allowedUrl(readPages: string[], site: Pick<SiteContext, 'siteUrls'>) {
  const pages = new Set(readPages.map(pageKey))
  const hosts = new Set(site.siteUrls.map(hostOf).filter((h): h is string => !!h))
  return (raw: string): boolean => {
    const url = raw.trim()
    if (url.startsWith('#')) return true
    const absolute = url.startsWith('//') ? `https:${url}` : /^www\./i.test(url) ? `http://${url}` : url
    if (!/^[a-z][a-z0-9+.-]*:/i.test(absolute)) return true
    if (!/^https?:/i.test(absolute)) return false
    const host = hostOf(absolute)
    return (host !== null && hosts.has(host)) || pages.has(pageKey(withoutFragment(absolute)))
  }
}

const STOP = new Set(
  (
    'a an and are as at be by for from how in is it its of on or the to what when why with you your our we this that ' +
    'these those can will not but if so do does more most into than then them they their about which who all any ' +
    'each one use using get blog post page www com html index'
  ).split(' '),
)

/** Content words, lower case, a plural 's' dropped. */
export function termsOf(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2 && !STOP.has(w))
      .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w)),
  )
}

const textOf = (html: string) =>
  decodeEntities(html.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim()

/** The links to the user's pages in the prose, each with whether its paragraph is about the target. */
export function internalLinkRelevance(markdown: string, keyword: string, site: SiteContext) {
  const hosts = new Set(site.siteUrls.map(hostOf).filter((h): h is string => !!h))
  const cta = new Set(site.ctaUrls.map(pageKey))
  const titles = new Map(site.targets.map((t) => [pageKey(t.url), t.title]))
  const keywordTerms = termsOf(keyword)
  const links: Array<{ url: string; relevant: boolean }> = []
  for (const block of beforeSources(markdown).split(/\n{2,}/)) {
    if (/^\s{0,3}#/.test(block)) continue
    const html = markdownToHtml(block)
    const anchors = [...html.matchAll(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi)]
    if (!anchors.length) continue
    const prose = textOf(html.replace(/<a\s[^>]*>[\s\S]*?<\/a>/gi, ' '))
    const paragraph = [...termsOf(textOf(html))].filter((t) => !keywordTerms.has(t))
    for (const a of anchors) {
      const url = decodeEntities(a[1]!)
      const host = hostOf(url)
      if (!host || !hosts.has(host) || cta.has(pageKey(url))) continue
      const title = titles.get(pageKey(url)) ?? new URL(url).pathname.replace(/[-/_.]+/g, ' ')
      const target = termsOf(title)
      const relevant = prose.split(' ').length >= 8 && paragraph.some((t) => target.has(t))
      links.push({ url, relevant })
    }
  }
  return links
}

/** Numbers of a text, normalised: 73% = 73 percent = 0.73; 7.3 million = 7,300,000; 5,000 = 5000. */
export function figuresOf(text: string): number[] {
  const scale: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 }
  const clean = text.replace(/\[\s*(?:F?\d+)\s*\]/g, ' ')
  const out: number[] = []
  for (const m of clean.matchAll(
    /(\d+(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s*(%|percent\b|per cent\b)|\s+(thousand|million|billion|trillion)\b)?/gi,
  )) {
    let value = Number(m[1]!.replace(/,/g, ''))
    if (m[2]) value /= 100
    if (m[3]) value *= scale[m[3].toLowerCase()]!
    out.push(Number(value.toPrecision(12)))
  }
  return out
}

/** True when every figure of `claim` is one of `quote`'s. */
export function figuresIn(claim: string, quote: string): boolean {
  const have = new Set(figuresOf(quote))
  return figuresOf(claim).every((f) => have.has(f))
}

export function postMetrics(post: PostForMetrics, site: SiteContext): PostMetrics {
  const claims = readClaims(post.claims)
  const counts: PostMetrics['claims'] = { verified: 0, rewritten: 0, unverified: 0, removed: 0 }
  for (const c of claims) counts[c.status]++

  const evidence = readEvidence(post.evidence) ?? { pages: [], facts: [] }
  const read = evidence.pages.filter((p) => p.status === 'read').map((p) => p.url)
  const readKeys = new Set(read.map(pageKey))
  const citations = citationLinks(post.contentMarkdown)
  const unreadCitations = [...new Set(citations.filter((c) => !readKeys.has(pageKey(c.page))).map((c) => c.page))]

  const allowed = allowedUrl(read, { siteUrls: [...site.siteUrls, ...(post.publishedUrl ? [post.publishedUrl] : [])] })
  const urls = [...htmlUrls(post.contentHtml), ...markdownUrls(post.contentMarkdown), ...jsonUrls(post.jsonLd)]
  const offList = [...new Set(urls.filter((u) => !allowed(u)))]

  // Sources = cited: the same pages, and each citation's number is its page's place in the list.
  const listed = sourcesList(post.contentMarkdown)
  const cited = [...new Set(citations.map((c) => pageKey(c.page)))]
  const listedKeys = listed.map((s) => pageKey(s.url))
  const sourcesMatch =
    cited.length === listedKeys.length &&
    new Set(listedKeys).size === listedKeys.length &&
    cited.every((k) => listedKeys.includes(k)) &&
    citations.every((c) => listedKeys[c.n - 1] === pageKey(c.page))

  const links = internalLinkRelevance(post.contentMarkdown, post.keyword, site)
  return {
    claims: counts,
    unreadCitations,
    offList,
    sourcesMatch,
    cited,
    listed: listedKeys,
    internalLinks: links.length,
    relevantLinks: links.filter((l) => l.relevant).length,
  }
}

/** An aligned text table: the first column left-aligned, the others right-aligned. */
export function textTable(header: string[], rows: string[][], footer?: string[]): string {
  const all = [header, ...rows, ...(footer ? [footer] : [])]
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)))
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd()
  const rule = widths.map((w) => '-'.repeat(w)).join('  ')
  return [line(header), rule, ...rows.map(line), ...(footer ? [rule, line(footer)] : [])].join('\n')
}
