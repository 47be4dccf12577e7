import { comparableUrl } from '#app/features/keywords/serp'

/**
 * Internal links (issue 32, item 6): which of the user's own pages a post links to and where. Pure and isomorphic.
 * - A target's text is what the page is about: its title, meta description and headings (read from the page, or
 *   from the user's earlier post), never only the words of its URL.
 * - `pickInternalLinks` ranks targets by a given similarity (embeddings) or by term overlap of that text.
 * - `placeInternalLinks` puts each chosen target in the body paragraph most about it, on a phrase of one of its
 *   sentences that names the target's topic (2–6 words taken from the sentence), one new link per paragraph.
 */
export type LinkTarget = {
  url: string
  title: string
  /** What the page is about besides its title: meta description and headings. */
  text?: string
  /** Relevance to the post's topic (0–1), when ranked. */
  score?: number
}

const STOP = new Set(
  'a an and are as at be by for from how in is it of on or the to what when why with you your our we this that blog post page www com html index'.split(
    ' ',
  ),
)

const fold = (word: string) =>
  word
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()

const stem = (word: string) => word.replace(/(ies|es|s)$/, (m) => (m === 'ies' ? 'y' : ''))

const isTerm = (folded: string) => folded.length > 2 && !STOP.has(folded)

/** The content words of a text, folded and stemmed, in order. */
function termList(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(isTerm)
    .map(stem)
}

export function terms(text: string): Set<string> {
  return new Set(termList(text))
}

/** Whether two consecutive content words of `text` are consecutive content words of `title` too. */
function sharesPhrase(text: string, title: string): boolean {
  const pairs = (list: string[]) => list.slice(1).map((t, i) => `${list[i]} ${t}`)
  const wanted = new Set(pairs(termList(title)))
  return pairs(termList(text)).some((p) => wanted.has(p))
}

/** A page's words for matching: its title, its text (description, headings) and the words of its URL path. */
export function pageTerms(target: LinkTarget): Set<string> {
  let path = ''
  try {
    path = decodeURIComponent(new URL(target.url).pathname)
  } catch {
    path = target.url
  }
  return terms(`${target.title} ${target.text ?? ''} ${path.replace(/[-_/]+/g, ' ')}`)
}

/** What a target is about, as text: its title and its description and headings. */
export function targetText(target: LinkTarget): string {
  return `${target.title}${target.text ? `. ${target.text}` : ''}`.replace(/\s+/g, ' ').trim()
}

/** What a post is about besides its title (its text as a link target): meta description and H2 headings. */
export function postText(post: { metaDescription?: string | null; contentMarkdown?: string | null; keyword?: string }) {
  const h2s = [...(post.contentMarkdown ?? '').matchAll(/^ {0,3}##\s+(.+?)\s*#*\s*$/gm)]
    .map((m) => m[1]!.replace(/[*_`[\]]/g, '').trim())
    .filter((h) => h && !/^(sources|faq|frequently asked questions)$/i.test(h))
    .slice(0, 12)
  return [post.metaDescription ?? '', post.keyword ?? '', ...h2s].filter(Boolean).join('. ')
}

/** Jaccard-like overlap of two term sets, 0–1. */
export function overlap(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0
  let shared = 0
  for (const t of a) if (b.has(t)) shared++
  return shared / Math.min(a.size, b.size)
}

/**
 * The most relevant of the user's own pages for an article, by term overlap (or by the given similarity),
 * never the article's own URL, each target once, at most `max`.
 */
export function pickInternalLinks(
  topic: string,
  candidates: LinkTarget[],
  opts: { max?: number; exclude?: string[]; similarity?: (t: LinkTarget) => number } = {},
): LinkTarget[] {
  const excluded = new Set((opts.exclude ?? []).map(comparableUrl))
  const topicTerms = terms(topic)
  const seen = new Set<string>()
  return candidates
    .filter((c) => {
      const key = comparableUrl(c.url)
      if (excluded.has(key) || seen.has(key)) return false
      seen.add(key)
      return true
    })
    .map((c) => ({ c, score: opts.similarity ? opts.similarity(c) : overlap(topicTerms, pageTerms(c)) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, opts.max ?? 5)
    .map((x) => x.c)
}

// ---------------------------------------------------------------------------------------------------------------
// Placement: the paragraph about the target, the phrase of its sentence that names it
// ---------------------------------------------------------------------------------------------------------------

export const MIN_INTERNAL_LINKS = 2
export const MAX_INTERNAL_LINKS = 5
const MAX_ANCHOR_WORDS = 6

const INLINE_LINK_RE = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g

/** Character ranges of a line that must not receive a link: links, images, references, code, autolinks, URLs. */
function protectedRanges(line: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  for (const re of [
    INLINE_LINK_RE,
    /!?\[[^\]]*\]\[[^\]]*\]/g,
    /\[\d{1,3}\]/g,
    /`+[^`]*`+/g,
    /<[^>\n]*>/g,
    /\b(?:https?:\/\/|www\.)\S+/gi,
  ]) {
    for (const m of line.matchAll(new RegExp(re.source, re.flags))) ranges.push([m.index, m.index + m[0].length])
  }
  return ranges
}

/** A line of running text that may receive a link (not a heading, table, label line of the finish, HTML…). */
function isProse(line: string) {
  const t = line.trim()
  if (!t) return false
  if (/^#{1,6}(\s|$)/.test(t) || t.startsWith('|') || t.startsWith('<')) return false
  if (/^\*\*(Related reading|Read next):\*\*/i.test(t)) return false
  if (/^\*\*\[[^\]]*\]\([^)]*\)\*\*$/.test(t)) return false
  if (/^\[[^\]]+\]:\s*\S/.test(t)) return false
  if (/^( {4}|\t)/.test(line) && !/^\s*(?:[-*+]|\d+[.)])\s/.test(line)) return false
  return true
}

/** The body's paragraphs that may receive a link: groups of consecutive prose lines, before any 'Sources' heading. */
function paragraphs(lines: string[]): number[][] {
  const out: number[][] = []
  let current: number[] = []
  let fence = false
  const close = () => {
    if (current.length) out.push(current)
    current = []
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (/^\s{0,3}(```|~~~)/.test(line)) {
      fence = !fence
      close()
      continue
    }
    if (fence) continue
    if (/^\s{0,3}##\s+Sources\s*$/i.test(line)) break
    if (isProse(line)) current.push(i)
    else close()
  }
  close()
  return out
}

type Word = { start: number; end: number; folded: string; term: string | null }

function wordsOf(line: string): Word[] {
  return [...line.matchAll(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)].map((m) => {
    const folded = fold(m[0]).replace(/['’]s$/, '')
    return { start: m.index, end: m.index + m[0].length, folded, term: isTerm(folded) ? stem(folded) : null }
  })
}

/** Sentence ranges of a line (split after . ! ? followed by a space). */
function sentenceRanges(line: string): Array<[number, number]> {
  const out: Array<[number, number]> = []
  let start = 0
  for (const m of line.matchAll(/[.!?]+["”’)]*\s+/g)) {
    const end = m.index + m[0].length
    out.push([start, end])
    start = end
  }
  if (start < line.length) out.push([start, line.length])
  return out
}

export type Anchor = { line: number; start: number; end: number; text: string; score: number }

type Wanted = { all: Set<string>; title: Set<string> }

/**
 * The best phrase of a line for a target: the longest run of the sentence's words shared with the target's text
 * (function words allowed inside, 2–6 words, two words of the sentence at least left out, never across punctuation or markup, never
 * inside a link or code). `relaxed`: a single word of the target's title, with its neighbour, also qualifies.
 */
function bestAnchor(line: string, lineIndex: number, wanted: Wanted, relaxed: boolean): Anchor | null {
  const ranges = protectedRanges(line)
  const free = (w: Word) => !ranges.some(([a, b]) => w.start < b && w.end > a)
  let best: Anchor | null = null
  for (const [s, e] of sentenceRanges(line)) {
    const words = wordsOf(line).filter((w) => w.start >= s && w.end <= e)
    const joined = (a: Word, b: Word) => /^\s+$/.test(line.slice(a.end, b.start)) && free(a) && free(b)
    const matches = (w: Word) => w.term !== null && wanted.all.has(w.term)
    const consider = (i: number, j: number, score: number) => {
      if (j - i + 1 < 2 || j - i + 1 > words.length - 2) return
      const start = words[i]!.start
      const end = words[j]!.end
      if (!best || score > best.score || (score === best.score && end - start > best.end - best.start))
        best = { line: lineIndex, start, end, text: line.slice(start, end), score }
    }
    for (let i = 0; i < words.length; i++) {
      if (!matches(words[i]!) || !free(words[i]!)) continue
      let count = 1
      let titled = wanted.title.has(words[i]!.term!) ? 1 : 0
      for (let j = i + 1; j < words.length && j - i < MAX_ANCHOR_WORDS; j++) {
        const w = words[j]!
        if (!joined(words[j - 1]!, w)) break
        if (matches(w)) {
          count++
          if (wanted.title.has(w.term!)) titled++
          consider(i, j, count + titled)
        } else if (w.term !== null) break
      }
      if (relaxed && count === 1 && titled === 1) {
        const next = words[i + 1]
        const prev = words[i - 1]
        if (next && next.term !== null && joined(words[i]!, next)) consider(i, i + 1, 1)
        else if (prev && prev.term !== null && joined(prev, words[i]!)) consider(i - 1, i, 1)
      }
    }
  }
  return best
}

function wantedOf(target: LinkTarget): Wanted {
  const title = terms(target.title)
  return { title, all: new Set([...title, ...terms(target.text ?? '')]) }
}

/** How much a paragraph is about a target: its distinct terms shared with the target's text (title terms count twice). */
function aboutness(paragraphTerms: Set<string>, wanted: Wanted): number {
  let score = 0
  for (const t of paragraphTerms) if (wanted.all.has(t)) score += wanted.title.has(t) ? 2 : 1
  return score
}

function plainOf(text: string) {
  return text.replace(INLINE_LINK_RE, (m) => m.replace(/\]\([^)]*\)$/, ']')).replace(/https?:\/\/\S+/g, ' ')
}

export type Placement = { anchor: Anchor; paragraph: number[] }

/**
 * Where a link to `target` fits best in `markdown`: the paragraph most about it (of those not in `skip`) that has
 * a phrase naming it, and that phrase. `titlePhrase`: the anchor must have two consecutive words of the target's
 * title (the proposal to an older post asks for it, so that only a real mention of the newer post is linked).
 */
export function findPlacement(
  markdown: string,
  target: LinkTarget,
  opts: { relaxed?: boolean; titlePhrase?: boolean; skip?: Set<number> } = {},
): Placement | null {
  const lines = markdown.split('\n')
  const wanted = wantedOf(target)
  let best: (Placement & { about: number }) | null = null
  for (const paragraph of paragraphs(lines)) {
    if (opts.skip?.has(paragraph[0]!)) continue
    const about = aboutness(terms(plainOf(paragraph.map((i) => lines[i]).join(' '))), wanted)
    if (about < 2 || (best && about < best.about)) continue
    let anchor: Anchor | null = null
    for (const i of paragraph) {
      const a = bestAnchor(lines[i]!, i, wanted, opts.relaxed ?? false)
      if (!a) continue
      if (![...terms(a.text)].some((t) => wanted.title.has(t))) continue
      if (opts.titlePhrase && !sharesPhrase(a.text, target.title)) continue
      if (!anchor || a.score > anchor.score) anchor = a
    }
    if (!anchor) continue
    if (!best || about > best.about || anchor.score > best.anchor.score) best = { anchor, paragraph, about }
  }
  return best ? { anchor: best.anchor, paragraph: best.paragraph } : null
}

/** A Markdown link destination that survives any URL (spaces and parentheses escaped). */
export function linkDestination(url: string) {
  return url.replace(/\s/g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29')
}

/** The line with `[anchor](url)` in place of the anchor's words. */
export function linkAnchor(line: string, anchor: Pick<Anchor, 'start' | 'end'>, url: string) {
  return `${line.slice(0, anchor.start)}[${line.slice(anchor.start, anchor.end)}](${linkDestination(url)})${line.slice(anchor.end)}`
}

/**
 * Links the targets (best first) where the text is about them: for each, the body paragraph most about it (not a
 * heading, the Sources section, an existing link or code), on the phrase of its sentence that names the target's
 * topic. Each target once (one already linked counts), at most one new link per paragraph, at most `max` (5)
 * internal links in all. A target with no paragraph about it is left out; when fewer than `min` (2) are linked,
 * a looser match (one word of the target's title with its neighbour) is tried for the rest. The caller lists what
 * is still missing (finishArticle's 'Related reading' line).
 */
export function placeInternalLinks(
  markdown: string,
  targets: LinkTarget[],
  opts: { min?: number; max?: number } = {},
): string {
  const min = opts.min ?? MIN_INTERNAL_LINKS
  const max = opts.max ?? MAX_INTERNAL_LINKS
  const lines = markdown.split('\n')
  const present = new Set([...markdown.matchAll(INLINE_LINK_RE)].map((m) => comparableUrl(m[1]!)))
  const seen = new Set<string>()
  const unique = targets.filter((t) => {
    const key = comparableUrl(t.url)
    if (seen.has(key) || !/^https?:\/\//i.test(t.url)) return false
    seen.add(key)
    return true
  })
  let linked = unique.filter((t) => present.has(comparableUrl(t.url))).length
  const used = new Set<number>()
  const done = new Set<string>()
  for (const relaxed of [false, true]) {
    for (const target of unique) {
      if (linked >= (relaxed ? Math.min(min, max) : max)) break
      const key = comparableUrl(target.url)
      if (present.has(key) || done.has(key)) continue
      const place = findPlacement(lines.join('\n'), target, { relaxed, skip: used })
      if (!place) continue
      lines[place.anchor.line] = linkAnchor(lines[place.anchor.line]!, place.anchor, target.url)
      used.add(place.paragraph[0]!)
      done.add(key)
      linked++
    }
  }
  return lines.join('\n')
}
