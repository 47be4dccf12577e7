/**
 * Deterministic keyword-idea generator shared by the DataForSEO and Google Ads
 * fakes (and used by the OpenAI fake for keyword-ish strings).
 *
 * Ideas are derived from the seed keywords with common modifiers; metrics are
 * seeded by keyword and by market (location + language), so different markets
 * give different volumes. A seed containing "emptyresult" yields no ideas.
 */
import { hash32, rngFrom } from './text'

export type CompetitionLevel = 'LOW' | 'MEDIUM' | 'HIGH'
export type SearchIntent = 'informational' | 'navigational' | 'commercial' | 'transactional'

export interface MonthlyVolume {
  year: number
  month: number
  searchVolume: number
}

export interface KeywordIdea {
  keyword: string
  seed: string
  /** 0 = the seed itself, 1 = one modifier, 2 = two modifiers */
  depth: number
  searchVolume: number | null
  keywordDifficulty: number | null
  competitionIndex: number | null
  competitionLevel: CompetitionLevel | null
  /** 0..1 (DataForSEO Labs style) */
  competition: number | null
  cpc: number | null
  lowTopOfPageBid: number | null
  highTopOfPageBid: number | null
  monthly: MonthlyVolume[] | null
  intent: SearchIntent
}

const PREFIXES = ['best', 'free', 'how to', 'what is', 'top', 'cheap', 'online']
const SUFFIXES = [
  'tools',
  'software',
  'for beginners',
  '2026',
  'guide',
  'examples',
  'tips',
  'checklist',
  'template',
  'course',
  'alternatives',
  'pricing',
  'app',
  'strategy',
  'ideas',
  'for small business',
  'tutorial',
  'comparison',
  'reddit',
  'near me',
]
const COMBO_PREFIXES = ['best', 'free', 'top', 'cheap']
const COMBO_SUFFIXES = ['tools', 'software', 'for beginners', 'app', 'template', 'course']
const VS_TARGETS = ['diy', 'agency', 'manual']

// Typical Google Ads volume buckets.
const BUCKETS = [
  10, 20, 30, 40, 50, 70, 90, 110, 140, 170, 210, 260, 320, 390, 480, 590, 720, 880, 1000, 1300, 1600, 1900, 2400, 2900,
  3600, 4400, 5400, 6600, 8100, 9900, 12100, 14800, 18100, 22200, 27100, 33100, 40500, 49500, 60500, 74000, 90500,
  110000, 135000, 165000, 201000, 246000, 301000,
]

export function normalizeKeyword(k: string): string {
  return k.toLowerCase().replace(/\s+/g, ' ').trim()
}

export function isEmptySeed(seeds: readonly string[]): boolean {
  return seeds.some((s) => s.toLowerCase().includes('emptyresult'))
}

/** Ordered list of variants for one seed (seed first). */
export function keywordVariants(
  seed: string,
  otherSeeds: readonly string[] = [],
): Array<{ keyword: string; depth: number }> {
  const s = normalizeKeyword(seed)
  const out: Array<{ keyword: string; depth: number }> = [{ keyword: s, depth: 0 }]
  const interleaved: string[] = []
  const max = Math.max(PREFIXES.length, SUFFIXES.length)
  for (let i = 0; i < max; i++) {
    if (i < PREFIXES.length) interleaved.push(`${PREFIXES[i]} ${s}`)
    if (i < SUFFIXES.length) interleaved.push(`${s} ${SUFFIXES[i]}`)
    if (i === 4) {
      const other = otherSeeds.map(normalizeKeyword).find((o) => o !== s)
      interleaved.push(`${s} vs ${other ?? VS_TARGETS[hash32(s) % VS_TARGETS.length]}`)
    }
  }
  for (const k of interleaved) out.push({ keyword: k, depth: 1 })
  for (const p of COMBO_PREFIXES) for (const x of COMBO_SUFFIXES) out.push({ keyword: `${p} ${s} ${x}`, depth: 2 })
  // drop variants that repeat a word already in the seed ("seo tools tools", "best best ...")
  const seedWords = new Set(s.split(' '))
  return out.filter((v, i) => {
    if (i === 0) return true
    const extra = v.keyword.split(' ')
    const counts = new Map<string, number>()
    for (const w of extra) counts.set(w, (counts.get(w) ?? 0) + 1)
    return [...counts.entries()].every(([w, c]) => c === 1 || !seedWords.has(w))
  })
}

function intentOf(keyword: string): SearchIntent {
  if (/\b(how to|what is|guide|examples|tips|tutorial|for beginners|ideas|course|checklist|reddit)\b/.test(keyword)) {
    return 'informational'
  }
  if (/\b(best|top|vs|alternatives|comparison|review)\b/.test(keyword)) return 'commercial'
  if (/\b(free|cheap|pricing|software|app|template|buy|tools|near me)\b/.test(keyword)) return 'transactional'
  return keyword.includes('.') ? 'navigational' : 'informational'
}

function bucketize(v: number): number {
  if (v < 10) return Math.max(0, Math.round(v))
  let best = BUCKETS[0]
  for (const b of BUCKETS) if (Math.abs(b - v) < Math.abs(best - v)) best = b
  return best
}

function round2(n: number): number {
  return Math.round(n * 100) / 100
}

/** The 12 months before the current month, oldest first. */
export function lastTwelveMonths(now = new Date()): Array<{ year: number; month: number }> {
  const out: Array<{ year: number; month: number }> = []
  for (let i = 12; i >= 1; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1))
    out.push({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 })
  }
  return out
}

/** Metrics for one keyword in one market (e.g. "2840|en"). Deterministic. */
export function keywordMetrics(keyword: string, market: string, depth = 1, seed = keyword): KeywordIdea {
  const k = normalizeKeyword(keyword)
  const r = rngFrom(`kw:${k}`)
  const m = rngFrom(`kw:${k}|${market}`)
  const marketFactor = 0.25 + (hash32(`market:${market}`) % 1000) / 800 // 0.25 .. 1.5
  const roll = r.next()

  let searchVolume: number | null
  if (depth > 0 && roll < 0.05) searchVolume = null
  else if (depth > 0 && roll < 0.13) searchVolume = r.int(0, 9)
  else {
    const words = k.split(' ').length
    const exp = depth === 0 ? 3 + r.next() * 1.6 : 1.1 + r.next() * 3.3 - Math.max(0, words - 3) * 0.25
    const raw = Math.pow(10, exp) * marketFactor * (0.85 + m.next() * 0.3)
    searchVolume = bucketize(raw)
  }

  const difficultyBase = r.next() * 100
  const keywordDifficulty =
    searchVolume === null && r.chance(0.5)
      ? null
      : Math.max(0, Math.min(100, Math.round(difficultyBase + (m.next() - 0.5) * 8)))
  const hasAds = searchVolume !== null && searchVolume >= 10
  const competitionIndex = hasAds ? Math.max(0, Math.min(100, Math.round(r.next() * 100 + (m.next() - 0.5) * 6))) : null
  const competitionLevel: CompetitionLevel | null =
    competitionIndex === null ? null : competitionIndex < 34 ? 'LOW' : competitionIndex < 67 ? 'MEDIUM' : 'HIGH'
  const cpc = hasAds ? round2((0.15 + r.next() * 11.5) * (0.8 + marketFactor * 0.3)) : null
  const lowTopOfPageBid = cpc === null ? null : round2(cpc * (0.3 + r.next() * 0.2))
  const highTopOfPageBid = cpc === null ? null : round2(cpc * (1.6 + r.next() * 0.8))

  let monthly: MonthlyVolume[] | null = null
  if (searchVolume !== null) {
    const phase = r.next() * Math.PI * 2
    const amp = 0.1 + r.next() * 0.3
    monthly = lastTwelveMonths().map(({ year, month }) => ({
      year,
      month,
      searchVolume:
        searchVolume === null
          ? 0
          : searchVolume < 10
            ? searchVolume
            : bucketize(searchVolume * (1 + amp * Math.sin(phase + month))),
    }))
  }

  return {
    keyword: k,
    seed: normalizeKeyword(seed),
    depth,
    searchVolume,
    keywordDifficulty,
    competitionIndex,
    competitionLevel,
    competition: competitionIndex === null ? null : round2(competitionIndex / 100),
    cpc,
    lowTopOfPageBid,
    highTopOfPageBid,
    monthly,
    intent: intentOf(k),
  }
}

/**
 * All ideas for the given seeds in relevance order (seeds first, then one
 * modifier, then two modifiers, round-robin over seeds), deduplicated.
 */
export function generateIdeas(
  seeds: readonly string[],
  market: string,
  opts: { includeSeeds?: boolean } = {},
): KeywordIdea[] {
  const cleanSeeds = seeds.map(normalizeKeyword).filter((s) => s.length > 0)
  if (cleanSeeds.length === 0 || isEmptySeed(cleanSeeds)) return []
  const perSeed = cleanSeeds.map((s) => keywordVariants(s, cleanSeeds).map((v) => ({ ...v, seed: s })))
  const ordered: Array<{ keyword: string; depth: number; seed: string }> = []
  for (let depth = 0; depth <= 2; depth++) {
    const lists = perSeed.map((l) => l.filter((v) => v.depth === depth))
    const longest = Math.max(...lists.map((l) => l.length))
    for (let i = 0; i < longest; i++) for (const l of lists) if (i < l.length) ordered.push(l[i])
  }
  const seen = new Set<string>()
  const out: KeywordIdea[] = []
  for (const v of ordered) {
    if (seen.has(v.keyword)) continue
    if (v.depth === 0 && opts.includeSeeds === false) continue
    seen.add(v.keyword)
    out.push(keywordMetrics(v.keyword, market, v.depth, v.seed))
  }
  return out
}
