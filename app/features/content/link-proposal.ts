import { overlap, terms } from './internal-links'
import { sectionsOf } from './post-editor'

/**
 * Where an older post can link to a newer one (issue 14: 'when a new post is published, the user is offered links
 * from older related posts to it'). Pure, so the page shows exactly the change that saving makes:
 * - the first mention of the newer post's keyword in the older post's prose becomes the link (never inside a heading,
 *   an existing link, inline code or a code block, a table, or the 'Sources' list);
 * - without a mention, a 'Read next' line closes the older post's section most related to the newer post (or the
 *   body, when it has no sections).
 */
export type LinkTargetPost = { url: string; title: string; keyword: string }

export type LinkProposal =
  | { kind: 'inline'; markdown: string; anchor: string; excerpt: string }
  | { kind: 'read-next'; markdown: string; section: string | null; excerpt: string }

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

function excerptAround(line: string, at: number, length: number) {
  const plain = line.replace(/^\s*(?:[-*+]|\d+\.)\s+/, '')
  const shift = line.length - plain.length
  const start = Math.max(0, at - shift - Math.floor((EXCERPT_CHARS - length) / 2))
  const slice = plain.slice(start, start + EXCERPT_CHARS)
  return `${start > 0 ? '…' : ''}${slice}${start + EXCERPT_CHARS < plain.length ? '…' : ''}`
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
        const linked = `${line.slice(0, start)}[${linkText(anchor)}](${target.url})${line.slice(end)}`
        const next = [...lines.slice(0, i), linked, ...lines.slice(i + 1)]
        return { kind: 'inline', markdown: next.join('\n'), anchor, excerpt: excerptAround(line, start, anchor.length) }
      }
    }
  }

  const readNext = `**${READ_NEXT_LABEL}:** [${linkText(target.title || keyword)}](${target.url})`
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
      excerpt: readNext,
    }
  }
  const before = body.slice(0, best.s.end).trimEnd()
  const after = body.slice(best.s.end).trimStart()
  return {
    kind: 'read-next',
    markdown: `${before}\n\n${readNext}\n${after ? `\n${after}` : ''}`,
    section: best.s.heading,
    excerpt: readNext,
  }
}
