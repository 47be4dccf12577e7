import { z } from 'zod'
import { hasHtmlTags } from '#app/platform/markdown/html-tags'
import { safeText } from '#app/platform/security/safe-text'
/**
 * Pure helpers for blog posts: display formats (dates, excerpts, status), slugs, titles and the assembly of the
 * generated Markdown article. No I/O; shared by the web app, the worker and the tests.
 */

export const EXCERPT_LENGTH = 400

/** The spec's copy for creating and reading posts. */
export const POST_MESSAGES = {
  created: 'Your post is being generated! It may take about 2 minutes. Check the Blog Posts later.',
  failed: 'An error occurred while creating the blog post. Please try again.',
  notFound: 'No blog post found.',
  keywordNotFound: 'Keyword not found.',
  aiOff: 'Writing posts is not available on this workspace yet. Your keywords are kept; try again later.',
  alreadyWritten: 'This post has already been written. Find it in your Blog Posts.',
  inProgress: 'A post for this keyword is already being written.',
} as const

/** The failure reason of a post whose job could not be queued (Redis unreachable); a repeat of its request retries it. */
export const NOT_QUEUED_REASON = 'We could not start writing this post.'

export type PostStatus = 'queued' | 'generating' | 'completed' | 'failed'

/** Long US date, e.g. 'November 22, 2026' (UTC, so the server and the browser render the same text). */
export function formatLongDate(value: Date | string | number): string {
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  return LONG_DATE.format(date)
}
const LONG_DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" }

function decodeEntities(text: string) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, name: string) => {
    const lower = name.toLowerCase()
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16))
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10))
    return ENTITIES[lower] ?? whole
  })
}

/** The text of HTML or Markdown content with all markup removed and whitespace collapsed. */
export function plainText(content: string): string {
  let text = content.replace(/\r\n?/g, '\n')
  if (hasHtmlTags(text)) {
    text = text
      .replace(/<(script|style|template)[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<\/?(p|div|h[1-6]|li|ul|ol|br|tr|section|article|blockquote|pre)\b[^>]*>/gi, '\n')
      .replace(/<[^>]+>/g, '')
  }
  text = text
    .replace(/```[^\n]*\n([\s\S]*?)```/g, '$1') // fenced code: keep the code
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images: alt text
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1') // links: their text
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1') // reference links
    .replace(/^\s{0,3}\[[^\]]+\]:\s*\S+.*$/gm, '') // link definitions
    .replace(/^\s{0,3}#{1,6}\s+/gm, '') // headings
    .replace(/^\s{0,3}>\s?/gm, '') // block quotes
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '') // list markers
    .replace(/^\s*(?:[-*_]\s*){3,}$/gm, '') // horizontal rules
    .replace(/^\s*\|?(?:\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*$/gm, '') // table separators
    .replace(/\|/g, ' ')
    .replace(/(\*\*|__)(.+?)\1/g, '$2') // bold
    .replace(/(^|[^\w*])[*_]([^*_\n]+)[*_](?=[^\w*]|$)/g, '$1$2') // italics
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
  return decodeEntities(text).replace(/\s+/g, ' ').trim()
}

/**
 * The library card's excerpt: the plain text of the content (without the leading H1 when it repeats the title),
 * its first 400 characters, followed by '...'.
 */
export function excerpt(content: string, opts: { title?: string; length?: number } = {}): string {
  let body = content.replace(/\r\n?/g, '\n').trimStart()
  const title = opts.title?.trim()
  if (title) {
    const h1 = /^#\s+(.+)\n/.exec(body) ?? /^<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(body)
    if (h1 && plainText(h1[1]!) === plainText(title)) body = body.slice(h1[0].length)
  }
  return `${plainText(body).slice(0, opts.length ?? EXCERPT_LENGTH)}...`
}

/** A URL slug: lower case letters and digits (any script) joined by single hyphens, at most 80 characters. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
  if (slug.length <= 80) return slug
  const cut = slug.slice(0, 80)
  const lastHyphen = cut.lastIndexOf('-')
  return (lastHyphen > 40 ? cut.slice(0, lastHyphen) : cut).replace(/-+$/, '')
}

/** The H1 must contain the keyword: keeps a title that does, otherwise puts the keyword in front. */
export function titleWithKeyword(title: string, keyword: string): string {
  const clean = title
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^#+\s*/, '')
  const kw = keyword.replace(/\s+/g, ' ').trim()
  if (!clean) return capitalize(kw)
  if (clean.toLowerCase().includes(kw.toLowerCase())) return clean
  return `${capitalize(kw)}: ${clean}`
}

function capitalize(text: string) {
  return text ? text.charAt(0).toLocaleUpperCase() + text.slice(1) : text
}

/** A meta description of at most `max` characters, cut at a word boundary. */
export function clampText(text: string, max = 160): string {
  const clean = text.replace(/\s+/g, ' ').trim()
  if (clean.length <= max) return clean
  const cut = clean.slice(0, max - 1)
  const lastSpace = cut.lastIndexOf(' ')
  return `${(lastSpace > max * 0.6 ? cut.slice(0, lastSpace) : cut).replace(/[\s,;:.-]+$/, '')}…`
}

export function countWords(text: string): number {
  return plainText(text).split(/\s+/).filter(Boolean).length
}

/**
 * A section body as the model wrote it, made to fit under our own H2: a leading H1/H2 (usually the heading
 * repeated) is dropped and any other H1/H2 becomes an H3, so the article keeps one H1 and our H2 outline.
 */
export function cleanSectionBody(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').trim().split('\n')
  while (lines.length && lines[0]!.trim() === '') lines.shift()
  if (lines.length && /^\s{0,3}#{1,2}\s/.test(lines[0]!)) lines.shift()
  return lines
    .map((line) => line.replace(/^(\s{0,3})#{1,2}(\s)/, '$1###$2'))
    .join('\n')
    .trim()
}

export type ArticleParts = {
  title: string
  introduction: string
  sections: Array<{ heading: string; body: string }>
  faqHeading: string
  faq: Array<{ question: string; answer: string }>
  conclusionHeading: string
  conclusion: string
}

/** One Markdown article: H1 title, introduction, the H2 sections, the FAQ (H3 questions) and the conclusion. */
export function assembleArticle(parts: ArticleParts): string {
  const blocks = [`# ${oneLine(parts.title)}`, parts.introduction.trim()]
  for (const section of parts.sections) blocks.push(`## ${oneLine(section.heading)}`, cleanSectionBody(section.body))
  if (parts.faq.length) {
    blocks.push(`## ${oneLine(parts.faqHeading)}`)
    for (const item of parts.faq) blocks.push(`### ${oneLine(item.question)}`, item.answer.trim())
  }
  blocks.push(`## ${oneLine(parts.conclusionHeading)}`, parts.conclusion.trim())
  return `${blocks.filter(Boolean).join('\n\n')}\n`
}

function oneLine(text: string) {
  return text
    .replace(/\s+/g, ' ')
    .replace(/^#+\s*/, '')
    .trim()
}

/**
 * The post page shows the title in its own header: a leading <h1> of the body that repeats the title is split off
 * so it is not shown twice.
 */
export function withoutLeadingTitle(html: string, title: string): string {
  const match = /^\s*<h1\b[^>]*>([\s\S]*?)<\/h1>\s*/i.exec(html)
  if (!match || plainText(match[1]!) !== plainText(title)) return html
  return html.slice(match[0].length)
}

/** What the library and the post page say about a post that is not finished. */
export function statusLabel(status: PostStatus): string | null {
  if (status === 'queued' || status === 'generating') return 'Generating…'
  return null
}

/** A file name for downloads: the slug (or 'blog-post') with the extension. */
export function downloadName(slug: string, extension: 'md' | 'html'): string {
  return `${slugify(slug) || 'blog-post'}.${extension}`
}

/**
 * A post's HTML as a site's body: without the leading `<h1>` (the title travels in the CMS's own title field, and
 * themes print it as the page's heading: sending it in the body too made two identical H1s).
 */
export function bodyWithoutTitle(html: string): string {
  return html.replace(/^\s*<h1\b[^>]*>[\s\S]*?<\/h1>\s*/i, '')
}

/** A post's Markdown without its leading `# title` line. */
export function markdownWithoutTitle(markdown: string): string {
  return markdown.replace(/^\s*#(?!#)[^\n]*\n+/, '')
}

/** POST /api/creator's body (the route, the API reference and the MCP tool create_post share it). */
export const createPostSchema = z.object({
  keywordId: z
    .string({ required_error: 'keywordId is required', invalid_type_error: 'keywordId must be a string' })
    .trim()
    .min(1, 'keywordId is required'),
  requestKey: safeText().trim().min(1).max(200).optional(),
  force: z.boolean({ invalid_type_error: 'force must be true or false' }).optional(),
})

/** POST /api/blogpost/:id/links's body: the older post that is to link to this one. */
export const addLinkSchema = z.object({
  fromPostId: z.string({ required_error: 'fromPostId is required.' }).uuid('fromPostId must be a post id.'),
})
