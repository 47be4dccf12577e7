import { findPlacement, linkAnchor, linkDestination, overlap, terms } from './internal-links'
import { sectionsOf } from './post-editor'

/**
 * Where an older post can link to a newer one (issue 14: 'when a new post is published, the user is offered links
 * from older related posts to it'). Pure, so the page shows exactly the change that saving makes:
 * - the first mention of the newer post's keyword in the older post's prose becomes the link (never inside a heading,
 *   an existing link, inline code or a code block, a table, or the 'Sources' list);
 * - else the paragraph most about the newer post (its title, description and headings: `text`) gets the link on
 *   the phrase of its sentence that names it (two consecutive words of its title, internal-links.ts);
 * - else a 'Read next' line closes the older post's section most related to the newer post (or the body, when it
 *   has no sections).
 * The change is shown as text (`change`: the sentence before and after, the new link apart), never as Markdown.
 */
export type LinkTargetPost = { url: string; title: string; keyword: string; text?: string }

/** The proposed change as plain text: the sentence as it is (null for a new line) and with the link. */
export type LinkChange = { before: string | null; after: { lead: string; anchor: string; trail: string; url: string } }

export type LinkProposal =
  | { kind: 'inline'; via: 'keyword' | 'topic'; markdown: string; anchor: string; excerpt: string; change: LinkChange }
  | { kind: 'read-next'; markdown: string; section: string | null; excerpt: string; change: LinkChange }

export const READ_NEXT_LABEL = 'Read next'

export const LINK_MESSAGES = {
  notPublished: 'Publish this post first: older posts can link to it once it has a live URL.',
  added: (title: string) => `Link added to “${title}”.`,
  already: (title: string) => `“${title}” already links to this post.`,
} as const

const EXCERPT_CHARS = 160

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Character ranges of a line that must not receive a link: existing links, images, inline code, autolinks. */
function protectedRanges(line: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  for (const re of [/!?\[[^\]]*\]\([^)]*\)/g, /`[^`]*`/g, /<[^>\s]+>/g, /https?:\/\/\S+/g]) {
    for (const m of line.matchAll(re)) ranges.push([m.index, m.index + m[0].length])
  }
  return ranges
}

/** A line of running text: not a heading, a table row, a fence, a bold label line of the finish, nor blank. */
function isProse(line: string) {
  const t = line.trim()
  if (!t) return false
  if (/^#{1,6}\s/.test(t) || t.startsWith('|') || /^(```|~~~)/.test(t)) return false
  if (/^\*\*(Related reading|Read next):\*\*/i.test(t)) return false
  return true
}

/** Markdown as the reader sees it: link and image syntax, emphasis, code ticks and HTML tags left out. */
export function plainInline(markdown: string) {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>\n]*>/g, '')
    .replace(/^\s*(?:[-*+>]|\d+[.)])\s+/, '')
    .replace(/\*\*|__|[*`]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, '$1')
    .replace(/[ \t]*\n[ \t]*/g, ' ')
}

/** The sentence of a line around [start, end): its bounds. */
function sentenceAround(line: string, start: number, end: number): [number, number] {
  let from = 0
  for (const m of line.slice(0, start).matchAll(/[.!?]+["”’)]*\s+/g)) from = m.index + m[0].length
  const after = /[.!?]+["”’)]*(?=\s|$)/.exec(line.slice(end))
  return [from, after ? end + after.index + after[0].length : line.length]
}

/** The change of one line, as text: the sentence now, and with `line[start, end)` linked to `url`. */
function inlineChange(line: string, start: number, end: number, url: string): LinkChange {
  const [from, to] = sentenceAround(line, start, end)
  const lead = plainInline(line.slice(from, start)).trimStart()
  const trail = plainInline(line.slice(end, to)).trimEnd()
  const anchor = plainInline(line.slice(start, end))
  return { before: `${lead}${anchor}${trail}`.trim(), after: { lead, anchor, trail, url } }
}

function excerptOf(change: LinkChange) {
  const text = change.before ?? `${change.after.lead}${change.after.anchor}${change.after.trail}`
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text
}

function linkText(text: string) {
  return text.replace(/\s+/g, ' ').replace(/[[\]]/g, '').trim()
}

export function proposeLink(body: string, target: LinkTargetPost): LinkProposal {
  const lines = body.split('\n')
  const keyword = target.keyword.trim()
  if (keyword) {
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}])${keyword.split(/\s+/).map(escapeRegExp).join('\\s+')}(?![\\p{L}\\p{N}])`,
      'iu',
    )
    let fence = false
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!
      if (/^\s{0,3}(```|~~~)/.test(line)) {
        fence = !fence
        continue
      }
      if (fence) continue
      if (/^\s{0,3}##\s+Sources\s*$/i.test(line)) break
      if (!isProse(line)) continue
      const ranges = protectedRanges(line)
      const global = new RegExp(pattern.source, 'giu')
      for (const m of line.matchAll(global)) {
        const start = m.index
        const end = start + m[0].length
        if (ranges.some(([a, b]) => start < b && end > a)) continue
        const anchor = m[0]
        const linked = `${line.slice(0, start)}[${linkText(anchor)}](${linkDestination(target.url)})${line.slice(end)}`
        const next = [...lines.slice(0, i), linked, ...lines.slice(i + 1)]
        const change = inlineChange(line, start, end, target.url)
        return { kind: 'inline', via: 'keyword', markdown: next.join('\n'), anchor, excerpt: excerptOf(change), change }
      }
    }
  }

  // No mention of the keyword: the paragraph about the newer post, on a phrase that names it.
  const place = findPlacement(body, { url: target.url, title: target.title, text: target.text }, { titlePhrase: true })
  if (place) {
    const { line: i, start, end } = place.anchor
    const line = lines[i]!
    const next = [...lines.slice(0, i), linkAnchor(line, place.anchor, target.url), ...lines.slice(i + 1)]
    const change = inlineChange(line, start, end, target.url)
    return {
      kind: 'inline',
      via: 'topic',
      markdown: next.join('\n'),
      anchor: place.anchor.text,
      excerpt: excerptOf(change),
      change,
    }
  }

  const label = linkText(target.title || keyword)
  const readNext = `**${READ_NEXT_LABEL}:** [${label}](${linkDestination(target.url)})`
  const change: LinkChange = {
    before: null,
    after: { lead: `${READ_NEXT_LABEL}: `, anchor: label, trail: '', url: target.url },
  }
  const wanted = terms(`${target.title} ${keyword}`)
  const sections = sectionsOf(body).filter((s) => !/^(sources|faq|frequently asked questions)$/i.test(s.heading.trim()))
  const best = sections
    .map((s, i) => ({ s, i, score: overlap(wanted, terms(`${s.heading} ${s.body}`)) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)[0]
  if (!best) {
    const sources = /\n##\s+Sources\s*\n/i.exec(`\n${body}`)
    const at = sources ? Math.max(0, sources.index - 1) : body.length
    const before = body.slice(0, at).trimEnd()
    const after = body.slice(at).trimStart()
    return {
      kind: 'read-next',
      markdown: `${before}\n\n${readNext}\n${after ? `\n${after}` : ''}`,
      section: null,
      excerpt: excerptOf(change),
      change,
    }
  }
  const before = body.slice(0, best.s.end).trimEnd()
  const after = body.slice(best.s.end).trimStart()
  return {
    kind: 'read-next',
    markdown: `${before}\n\n${readNext}\n${after ? `\n${after}` : ''}`,
    section: best.s.heading,
    excerpt: excerptOf(change),
    change,
  }
}
