import { comparableUrl } from '#app/features/keywords/serp'
import type { Claim, Evidence, Fact, UnverifiedPolicy } from './evidence'

/**
 * Claims checked against their sources (issue 32), deterministic (no model): the figures, amounts, dates and
 * quotations of a sentence must appear in the sentence of the fact it cites. Numbers are compared as values, so
 * 73%, 73 percent, 73 per cent and 0.73 agree, as do 7.3 million and 7,300,000, $5k and 5,000.
 */

// ---------------------------------------------------------------------------------------------------------------
// Figures and quotations
// ---------------------------------------------------------------------------------------------------------------

export type Figure = { raw: string; values: number[] }

const FIGURE_SCAN =
  /(?<![\p{L}\p{N}.,])([$€£¥]\s?)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(%|percent\b|per cent\b|percentage points?\b|trillion\b|billion\b|million\b|thousand\b|bn\b|k\b|m\b))?(?![\p{L}\p{N}])/giu
const MULTIPLIER: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  m: 1e6,
  billion: 1e9,
  bn: 1e9,
  trillion: 1e12,
}

/**
 * The figures of a text: percentages, amounts, numbers with separators, decimals or a scale word, and any number
 * of two or more digits (years and other dates included). A lone digit ('3 steps') is not a figure.
 */
export function figuresOf(text: string): Figure[] {
  const out: Figure[] = []
  for (const m of text.matchAll(FIGURE_SCAN)) {
    const [raw, currency, digits, unitRaw] = m
    const unit = (unitRaw ?? '').toLowerCase()
    const plain = digits!.replace(/,/g, '')
    const base = Number(plain)
    if (!Number.isFinite(base)) continue
    const percent = unit === '%' || unit.startsWith('percent') || unit === 'per cent'
    const scaled = base * (MULTIPLIER[unit] ?? 1)
    const significant =
      Boolean(currency) || Boolean(unit) || digits!.includes(',') || digits!.includes('.') || plain.length >= 2
    if (!significant) continue
    const values = percent ? [base, base / 100] : scaled > 0 && scaled < 1 ? [scaled, scaled * 100] : [scaled]
    out.push({ raw: raw!.trim(), values })
  }
  return out
}

const same = (a: number, b: number) => Math.abs(a - b) <= Math.max(1e-9, Math.abs(a) * 1e-9)

/** Whether a figure of a claim appears among the figures of a source sentence. */
export function figureIn(figure: Figure, source: Figure[]): boolean {
  return source.some((s) => s.values.some((v) => figure.values.some((w) => same(v, w))))
}

const QUOTE_SCAN = /[“"]([^”"\n]{12,}?)[”"]/g

/** Quotations of a text (12 characters or more between quotation marks). */
export function quotesOf(text: string): string[] {
  return [...text.matchAll(QUOTE_SCAN)].map((m) => m[1]!.trim())
}

const normalised = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/[^\p{L}\p{N}%$€£' ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()

/** Whether a text is a claim: it states a figure or a quotation. */
export function isClaim(text: string): boolean {
  return figuresOf(text).length > 0 || quotesOf(text).length > 0
}

/**
 * A sentence checked against the facts it cites: verified when every figure and quotation of it appears in one
 * cited fact's sentence (that fact is returned); otherwise what is missing.
 */
export function verifySentence(
  sentence: string,
  cited: Fact[],
): { verified: true; fact: Fact } | { verified: false; missing: string[]; closest: Fact | null } {
  const figures = figuresOf(sentence)
  const quotes = quotesOf(sentence)
  let best: { fact: Fact; missing: string[] } | null = null
  for (const fact of cited) {
    const sourceFigures = figuresOf(fact.sentence)
    const text = normalised(fact.sentence)
    const missing = [
      ...figures.filter((f) => !figureIn(f, sourceFigures)).map((f) => f.raw),
      ...quotes.filter((q) => !text.includes(normalised(q))).map((q) => `“${q}”`),
    ]
    if (!missing.length) return { verified: true, fact }
    if (!best || missing.length < best.missing.length) best = { fact, missing }
  }
  return {
    verified: false,
    missing: best?.missing ?? [...figures.map((f) => f.raw), ...quotes.map((q) => `“${q}”`)],
    closest: best?.fact ?? null,
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Links to the sentence: text fragments
// ---------------------------------------------------------------------------------------------------------------

const fragmentPart = (s: string) =>
  encodeURIComponent(s).replace(/[-,&()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/**
 * The page's URL with a text fragment that highlights the sentence (`#:~:text=start,end` for a long one).
 * Browsers that do not support text fragments open the page at its top.
 */
export function textFragmentUrl(url: string, sentence: string): string {
  const base = url.split('#')[0]!
  const words = sentence.replace(/\s+/g, ' ').trim().split(' ')
  if (!words.length || !words[0]) return base
  const directive =
    words.length <= 10
      ? fragmentPart(words.join(' '))
      : `${fragmentPart(words.slice(0, 5).join(' '))},${fragmentPart(words.slice(-5).join(' '))}`
  return `${base}#:~:text=${directive}`
}

// ---------------------------------------------------------------------------------------------------------------
// Citations: [F3] markers, citation links [[n](url)], the cited pages
// ---------------------------------------------------------------------------------------------------------------

/** The pages of the evidence that were read, by comparable URL. */
function readPages(evidence: Evidence) {
  return new Map(evidence.pages.filter((p) => p.status === 'read').map((p) => [comparableUrl(p.url), p]))
}

export const CITATION_LINK = /\[\[(\d{1,3})\]\(\s*<?([^)\s>]+)>?\s*\)\]/g

/**
 * Fact markers become citation links to the fact's sentence: `[F3]` (also `[F3, F7]`, `[F3][F7]`) → `[[0](url#:~:text=…)]`
 * (numbered later). A marker after a sentence's final stop moves before it. Markers of unknown facts are removed.
 */
export function citeFacts(markdown: string, evidence: Evidence): string {
  const byId = new Map(evidence.facts.map((f) => [f.id.toUpperCase(), f]))
  const read = readPages(evidence)
  const marker = /\[\s*(F\d{1,4}(?:\s*[,;]\s*F\d{1,4})*)\s*\]/gi
  return markdown
    .replace(/([.!?])((?:\s*\[\s*F\d{1,4}(?:\s*[,;]\s*F\d{1,4})*\s*\])+)/gi, (_w, stop: string, markers: string) => {
      return ` ${markers.trim()}${stop}`
    })
    .replace(marker, (_w, ids: string) =>
      ids
        .split(/[,;]/)
        .map((id) => byId.get(id.trim().toUpperCase()))
        .filter((f): f is Fact => Boolean(f) && read.has(comparableUrl(f!.url)))
        .map((f) => `[[0](${textFragmentUrl(f.url, f.sentence)})]`)
        .join(''),
    )
    .replace(/[ \t]+\[\[/g, ' [[')
}

/**
 * Citation links whose page was not read are removed; the others are renumbered by page in order of first use.
 * Returns the text and the cited pages in that order.
 */
export function numberCitations(markdown: string, evidence: Evidence): { markdown: string; cited: string[] } {
  const read = readPages(evidence)
  const order: string[] = []
  const text = markdown.replace(CITATION_LINK, (_w, _n: string, url: string) => {
    const page = read.get(comparableUrl(url))
    if (!page) return ''
    const key = comparableUrl(page.url)
    if (!order.includes(key)) order.push(key)
    return `[[${order.indexOf(key) + 1}](${url})]`
  })
  return { markdown: text.replace(/ +([.,;:!?])/g, '$1'), cited: order.map((k) => read.get(k)!.url) }
}

/** The facts a citation link points to: the fact whose sentence its fragment names, else every fact of its page. */
export function citedFacts(raw: string, evidence: Evidence): Fact[] {
  const out: Fact[] = []
  for (const m of raw.matchAll(CITATION_LINK)) {
    const url = m[2]!
    const exact = evidence.facts.filter((f) => textFragmentUrl(f.url, f.sentence) === url)
    const facts = exact.length ? exact : evidence.facts.filter((f) => comparableUrl(f.url) === comparableUrl(url))
    for (const f of facts) if (!out.includes(f)) out.push(f)
  }
  return out
}

// ---------------------------------------------------------------------------------------------------------------
// The claim pass
// ---------------------------------------------------------------------------------------------------------------

/** A sentence as a reader sees it: no Markdown, no citation numbers. */
export function plainSentence(raw: string): string {
  return raw
    .replace(CITATION_LINK, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim()
}

const LINE_PREFIX = /^(\s*(?:>\s?)*(?:[-*+]\s+|\d{1,3}[.)]\s+)?)/
const SENTENCE_SPLIT = /(?<=[.!?])\s+(?=[\p{Lu}“"[*_\d])/u

/**
 * Calls `fn` for every prose sentence of the Markdown (not headings, code, or the 'Sources' section) and puts what
 * it returns in its place ('' removes the sentence; a line left empty goes).
 */
export function mapSentences(markdown: string, fn: (raw: string) => string): string {
  const [body, ...rest] = markdown.split(/(?=^##\s+Sources\s*$)/m)
  let fence = false
  const lines = body!.split('\n').flatMap((line) => {
    if (/^\s{0,3}(```|~~~)/.test(line)) {
      fence = !fence
      return [line]
    }
    if (fence || /^\s{0,3}#/.test(line) || !line.trim() || /^\s{0,3}\[[^\]]+\]:/.test(line)) return [line]
    if (/^\s*\|/.test(line)) {
      if (/^\s*\|?[\s:|-]+\|?\s*$/.test(line)) return [line]
      const out = fn(line)
      return out ? [out] : []
    }
    const prefix = LINE_PREFIX.exec(line)![1]!
    const content = line.slice(prefix.length)
    const parts = content.split(SENTENCE_SPLIT)
    const kept = parts.map((s) => fn(s)).filter((s) => s.trim())
    if (!kept.length) return []
    return [`${prefix}${kept.join(' ')}`]
  })
  return [lines.join('\n').replace(/\n{3,}/g, '\n\n'), ...rest].join('')
}

export type ClaimPass = {
  markdown: string
  claims: Claim[]
  /** Sentences (plain text) that need a rewrite the caller has not given yet (policy 'rewrite'). */
  pending: string[]
}

const stripCitations = (raw: string) => raw.replace(CITATION_LINK, '').replace(/\s+([.,;:!?])/g, '$1')

/**
 * Every sentence with a figure or a quotation is checked against the facts it cites. Verified sentences keep their
 * citations. The others follow the policy: 'mark' keeps the sentence without its citations (unverified), 'remove'
 * removes it, 'rewrite' puts `rewrites[plain sentence]` in its place when that text states no figure or quotation
 * (otherwise the sentence is removed); a sentence whose rewrite is not given yet is removed and listed in
 * `pending`, so that the caller can ask for rewrites and run the pass again.
 */
export function checkClaims(
  markdown: string,
  evidence: Evidence,
  opts: { policy: UnverifiedPolicy; rewrites?: Record<string, string> },
): ClaimPass {
  const claims: Claim[] = []
  const pending: string[] = []
  const titles = new Map(evidence.pages.map((p) => [comparableUrl(p.url), p.title]))
  const text = mapSentences(markdown, (raw) => {
    const plain = plainSentence(raw)
    if (!plain || !isClaim(plain)) return raw
    const cited = citedFacts(raw, evidence)
    const check = verifySentence(plain, cited)
    if (check.verified) {
      const url = check.fact.url
      claims.push({
        text: plain.slice(0, 400),
        status: 'verified',
        sourceUrl: url,
        sourceTitle: titles.get(comparableUrl(url)) ?? null,
        factId: check.fact.id,
        quote: check.fact.sentence,
        evidenceUrl: textFragmentUrl(url, check.fact.sentence),
        original: null,
        reason: null,
      })
      return raw
    }
    const reason = cited.length
      ? `${check.missing.join(', ')} ${check.missing.length === 1 ? 'does' : 'do'} not appear in the cited sentence.`
      : 'It cites no source that was read.'
    const base = {
      sourceUrl: null,
      sourceTitle: null,
      factId: check.closest?.id ?? null,
      quote: check.closest?.sentence ?? null,
      evidenceUrl: check.closest ? textFragmentUrl(check.closest.url, check.closest.sentence) : null,
    }
    if (opts.policy === 'mark') {
      const kept = stripCitations(raw)
      claims.push({ ...base, text: plainSentence(kept).slice(0, 400), status: 'unverified', original: null, reason })
      return kept
    }
    const rewrite = opts.policy === 'rewrite' ? opts.rewrites?.[plain] : undefined
    if (rewrite !== undefined) {
      const clean = plainSentence(rewrite.replace(/\[\s*F\d+[^\]]*\]/gi, '')).replace(/https?:\/\/\S+|www\.\S+/gi, '')
      if (clean && !isClaim(clean)) {
        claims.push({ ...base, text: clean.slice(0, 400), status: 'rewritten', original: plain.slice(0, 400), reason })
        return clean
      }
      claims.push({
        ...base,
        text: '',
        status: 'removed',
        original: plain.slice(0, 400),
        reason: `${reason} Its rewrite still stated a figure, so it was removed.`,
      })
      return ''
    }
    if (opts.policy === 'rewrite') pending.push(plain)
    claims.push({ ...base, text: '', status: 'removed', original: plain.slice(0, 400), reason })
    return ''
  })
  return { markdown: text, claims: dedupe(claims), pending: [...new Set(pending)] }
}

function dedupe(claims: Claim[]): Claim[] {
  const seen = new Set<string>()
  return claims.filter((c) => {
    const key = `${c.status}|${c.text}|${c.original ?? ''}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Model text as plain text for fields that are never Markdown (the stored brief, JSON-LD): no syntax, no URLs. */
export function plainText(text: string): string {
  return plainSentence(text)
    .replace(/<?\b(?:https?:\/\/|www\.)[^\s<>]+>?/gi, '')
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim()
}
