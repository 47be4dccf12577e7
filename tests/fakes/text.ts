/**
 * Deterministic pseudo-random helpers and plausible English text generation
 * for the fakes. Everything is seeded from strings so identical requests
 * produce identical answers.
 */
import { createHash } from 'node:crypto'

export function hash32(input: string): number {
  return createHash('sha256').update(input).digest().readUInt32BE(0)
}

export interface Rng {
  next(): number
  int(min: number, max: number): number
  pick<T>(items: readonly T[]): T
  chance(p: number): boolean
}

/** mulberry32 seeded from a string. */
export function rngFrom(seed: string): Rng {
  let a = hash32(seed) || 0x9e3779b9
  const next = (): number => {
    a = (a + 0x6d2b79f5) | 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  }
}

const STOPWORDS = new Set(
  (
    'a an the and or but for to of in on at by with about from into over under is are was were be been being ' +
    'this that these those it its as please write create generate give me my our your we you i can could would ' +
    'should will make produce draft list return provide using use based article post blog outline json only ' +
    'short long brief detailed following below above some any all each per new good great'
  ).split(' '),
)

function cleanPhrase(s: string): string {
  return s
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[^\p{L}\p{N}\s'&+-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
}

/**
 * Extracts the "main phrase" of a prompt: quoted text if any, otherwise the
 * words after about/for/on/keyword/topic, otherwise the first content words.
 */
export function mainPhrase(prompt: string): string {
  const quoted = /["“'‘«]([^"”'’»\n]{3,80})["”'’»]/.exec(prompt)
  if (quoted) {
    const p = cleanPhrase(quoted[1])
    if (p.split(' ').length <= 8 && p.length >= 3) return p
  }
  const labelled = /(?:keyword|topic|phrase|query|subject)\s*[:=]\s*([^\n.;,]{3,80})/i.exec(prompt)
  if (labelled) {
    const p = cleanPhrase(labelled[1]).split(' ').slice(0, 6).join(' ')
    if (p) return p
  }
  const about = /\b(?:about|for|on|regarding|covering)\s+([^\n.;:?!,]{3,80})/i.exec(prompt)
  if (about) {
    const words = cleanPhrase(about[1])
      .split(' ')
      .filter((w) => w.length > 0)
    while (words.length > 0 && STOPWORDS.has(words[0])) words.shift()
    const p = words.slice(0, 5).join(' ')
    if (p.length >= 3) return p
  }
  const words = cleanPhrase(prompt)
    .split(' ')
    .filter((w) => w.length > 2 && !STOPWORDS.has(w))
  const p = words.slice(0, 3).join(' ')
  return p.length > 0 ? p : 'content strategy'
}

export function titleCase(s: string): string {
  const small = new Set(['a', 'an', 'and', 'or', 'for', 'of', 'to', 'in', 'on', 'vs', 'the', 'with'])
  return s
    .split(' ')
    .map((w, i) => (i > 0 && small.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ')
}

export function slugify(s: string): string {
  return (
    s
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'item'
  )
}

const NOUNS = [
  'search intent',
  'organic traffic',
  'content plan',
  'ranking signal',
  'landing page',
  'internal link',
  'editorial calendar',
  'conversion rate',
  'audience',
  'competitor',
  'topic cluster',
  'backlink profile',
  'click-through rate',
  'search result',
  'buyer journey',
  'headline',
  'meta description',
  'workflow',
  'budget',
  'long-tail query',
  'metric',
  'dashboard',
  'customer question',
  'first draft',
  'checklist',
]
const ADJECTIVES = [
  'practical',
  'reliable',
  'focused',
  'measurable',
  'realistic',
  'clear',
  'useful',
  'repeatable',
  'simple',
  'data-driven',
  'consistent',
  'specific',
  'modest',
  'steady',
  'competitive',
  'relevant',
  'thorough',
]
const VERBS = [
  'improves',
  'shapes',
  'supports',
  'clarifies',
  'strengthens',
  'guides',
  'simplifies',
  'reveals',
  'sharpens',
  'protects',
  'accelerates',
  'balances',
]
const ADVERBS = ['quickly', 'steadily', 'carefully', 'gradually', 'consistently', 'deliberately', 'noticeably']
const TEMPLATES = [
  'A {adj} approach to {phrase} {verb} every {noun} you publish.',
  'Most teams start with {phrase} because it {verb} the {noun} {adv}.',
  'When you review {phrase}, look at the {noun} first and the {noun2} second.',
  'The {adj} part of {phrase} is knowing which {noun} deserves attention this month.',
  'Small changes to the {noun} often matter more than a complete rewrite.',
  'Track the {noun} for a few weeks before you decide what to change.',
  'Readers who search for {phrase} usually want a {adj} answer and a clear next step.',
  'Pair each {noun} with a {adj} {noun2} so the page stays easy to scan.',
  'Good {phrase} work {verb} the {noun} without adding extra busywork.',
  'Start with the questions your audience already asks, then map them to a {noun}.',
  'Keep the {noun} {adj} and revisit it whenever the {noun2} shifts.',
  'Over time, a {adj} {noun} {adv} {verb} how people find {phrase}.',
  'Compare your {noun} with what the top results already cover.',
  'It helps to write down why each {noun} exists before you expand it.',
  'The best results for {phrase} come from a {adj} {noun} rather than clever tricks.',
  'Use the {noun} to decide what to cover next and what to leave out.',
]

function fill(template: string, rng: Rng, phrase: string): string {
  const noun = rng.pick(NOUNS)
  let noun2 = rng.pick(NOUNS)
  if (noun2 === noun) noun2 = NOUNS[(NOUNS.indexOf(noun) + 3) % NOUNS.length]
  const out = template
    .replace(/\{phrase\}/g, phrase)
    .replace(/\{noun2\}/g, noun2)
    .replace(/\{noun\}/g, noun)
    .replace(/\{adj\}/g, () => rng.pick(ADJECTIVES))
    .replace(/\{verb\}/g, () => rng.pick(VERBS))
    .replace(/\{adv\}/g, () => rng.pick(ADVERBS))
  return out.charAt(0).toUpperCase() + out.slice(1)
}

// Recently used templates per rng, so consecutive sentences don't repeat.
const recent = new WeakMap<Rng, string[]>()

export function sentence(rng: Rng, phrase: string, mention = false): string {
  const used = recent.get(rng) ?? []
  let pool = (mention ? TEMPLATES.filter((t) => t.includes('{phrase}')) : TEMPLATES).filter((t) => !used.includes(t))
  if (pool.length === 0) pool = mention ? TEMPLATES.filter((t) => t.includes('{phrase}')) : TEMPLATES
  const template = rng.pick(pool)
  used.push(template)
  if (used.length > 10) used.shift()
  recent.set(rng, used)
  return fill(template, rng, phrase)
}

export function sentences(rng: Rng, phrase: string, count: number): string {
  const out: string[] = []
  for (let i = 0; i < count; i++) out.push(sentence(rng, phrase, i === 0))
  return out.join(' ')
}

export function countWords(s: string): number {
  return s.split(/\s+/).filter(Boolean).length
}

/** A few Markdown paragraphs (about `targetWords` words) that mention `phrase`. */
export function markdownArticle(rng: Rng, phrase: string, targetWords = 220): string {
  const parts: string[] = []
  let words = 0
  if (targetWords >= 120) {
    const heading = `## ${titleCase(phrase)}: ${rng.pick(['What Actually Works', 'A Practical Overview', 'Where to Start', 'Key Points'])}`
    parts.push(heading)
    words += countWords(heading)
  }
  let paragraph = 0
  while (words < targetWords) {
    const n = Math.max(1, Math.min(rng.int(3, 5), Math.ceil((targetWords - words) / 14)))
    let p = sentences(rng, phrase, n)
    if (paragraph === 1) p = `When it comes to **${phrase}**, ${p.charAt(0).toLowerCase()}${p.slice(1)}`
    parts.push(p)
    words += countWords(p)
    paragraph++
  }
  return parts.join('\n\n')
}
