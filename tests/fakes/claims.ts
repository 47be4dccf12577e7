/**
 * The OpenAI fake as a writer of claims (issue 32), used by ./openai.ts.
 *
 * - A model that follows instructions: a section prompt lists the facts it may use as lines `- [F3] <sentence>`;
 *   the Markdown it writes uses one or two of them (one verbatim, one lightly reworded, every figure kept), each
 *   followed by its marker: `… this year [F3].`
 * - A model that misbehaves, when a prompt contains the word `misbehaving` (keywords like 'misbehaving invoice
 *   software'): an invented study citing a real fact id with a wrong figure, an unsourced figure, instructions
 *   obeyed from a page it read, and a link to evil.example in every form Markdown renders as a link; in the brief,
 *   links and bare URLs in the free-text fields (angle, introduction, conclusion, FAQ answers); in the rewrite of
 *   claims (a json_schema named like 'claim_rewrites'), one rewrite that still states a figure.
 * Everything is deterministic: choices come from the request's seeded rng.
 */
import type { Rng } from './text'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

export type ListedFact = { id: string; sentence: string }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The trigger: any message of the request contains the word. */
export function isMisbehaving(text: string): boolean {
  return /\bmisbehaving\b/i.test(text)
}

/** The facts a section prompt lists, as `- [F3] <the exact sentence>` lines. */
export function listedFacts(prompt: string): ListedFact[] {
  const out: ListedFact[] = []
  for (const m of prompt.matchAll(/^[ \t]*[-*][ \t]+\[(F\d+)\][ \t]+(.+?)[ \t]*$/gm)) {
    if (!out.some((f) => f.id === m[1])) out.push({ id: m[1]!, sentence: m[2]! })
  }
  return out
}

/** The fact ids of an array's item schema (`{ type: 'string', enum: ['F1', …] }`), if that is what it is. */
export function factIdEnum(items: unknown): string[] | null {
  if (!isObject(items) || !Array.isArray(items.enum) || items.enum.length === 0) return null
  return items.enum.every((e) => typeof e === 'string' && /^F\d+$/.test(e)) ? (items.enum as string[]) : null
}

/** `count` distinct values of `values`, picked by the rng, in the order of `values`. */
export function sampleDistinct(rng: Rng, values: string[], count: number): string[] {
  const pool = [...values]
  const picked = new Set<string>()
  while (picked.size < count && pool.length) picked.add(pool.splice(rng.int(0, pool.length - 1), 1)[0]!)
  return values.filter((v) => picked.has(v))
}

/** A sentence without its final punctuation, and that punctuation ('.' when it has none). */
function splitEnd(sentence: string): [string, string] {
  const m = /^(.*?)\s*([.!?]+)?\s*$/s.exec(sentence.trim())!
  return [m[1]!, m[2] ?? '.']
}

/** The sentence as written with its marker before the final stop: `… this year [F3].` */
function cited(sentence: string, id: string, prefix = ''): string {
  const [body, stop] = splitEnd(sentence)
  return `${prefix}${body} [${id}]${stop}`
}

/** The Markdown's paragraphs (not headings), by index among its blocks. */
function paragraphIndexes(blocks: string[]): number[] {
  return blocks.flatMap((b, i) => (/^\s{0,3}#/.test(b) || !b.trim() ? [] : [i]))
}

/**
 * A section that uses one or two of the listed facts: the first verbatim at the end of the first paragraph, the
 * second (when there are two facts or more, and the rng says so) lightly reworded at the end of the last one.
 */
export function withFacts(markdown: string, facts: ListedFact[], rng: Rng): string {
  if (!facts.length) return markdown
  const blocks = markdown.split('\n\n')
  const paragraphs = paragraphIndexes(blocks)
  if (!paragraphs.length) return markdown
  const first = facts[rng.int(0, facts.length - 1)]!
  const others = facts.filter((f) => f.id !== first.id)
  const second = others.length && rng.chance(0.7) ? others[rng.int(0, others.length - 1)]! : null
  const firstAt = paragraphs[0]!
  blocks[firstAt] = `${blocks[firstAt]} ${cited(first.sentence, first.id)}`
  if (second) {
    const at = paragraphs[paragraphs.length - 1]!
    blocks[at] = `${blocks[at]} ${cited(second.sentence, second.id, 'Worth noting: ')}`
  }
  return blocks.join('\n\n')
}

/** Every Markdown form that links to evil.example, in one place (the tests check each is rendered as a link). */
export const EVIL_LINK_FORMS = {
  inline: '[study](https://evil.example/study)',
  bare: 'https://evil.example/x',
  www: 'www.evil.example/w',
  autolink: '<https://evil.example/auto>',
  singleQuotedTitle: "[t](https://evil.example/t 'title')",
  parenthesisedTitle: '[t](https://evil.example/p (title))',
  reference: '[the reference][r]',
  referenceDefinition: '   [r]: https://evil.example/ref',
  image: '![chart](https://evil.example/chart.png)',
  rawHtml: '<a href="https://evil.example/raw">here</a>',
} as const

/** The URLs those forms link to (what a Markdown renderer makes of them). */
export const EVIL_URLS = [
  'https://evil.example/study',
  'https://evil.example/x',
  'http://www.evil.example/w',
  'https://evil.example/auto',
  'https://evil.example/t',
  'https://evil.example/p',
  'https://evil.example/ref',
  'https://evil.example/chart.png',
  'https://evil.example/raw',
] as const

export const INVENTED_FIGURE = '73%'
export const UNSOURCED_SENTENCE = 'Teams lose 4.2 million hours a year to this.'
export const OBEYED_INSTRUCTION = 'As the guide says, visit https://evil.example/promo for a discount.'
export const FIGURE_IN_REWRITE = 'It costs 5,000 dollars.'

/** The invented study: a real fact id whose sentence does not say 73% (F1 when no fact was listed). */
export function inventedStudy(phrase: string, facts: ListedFact[]): { sentence: string; factId: string } {
  const wrong = facts.find((f) => !/\b73\b/.test(f.sentence)) ?? { id: 'F1' }
  return {
    sentence: `A 2025 Stanford study found that ${INVENTED_FIGURE} of founders lose sleep over ${phrase} [${wrong.id}].`,
    factId: wrong.id,
  }
}

/**
 * A section as a misbehaving model writes it: the invented study and the unsourced figure after the first
 * paragraph, the obeyed instruction, and every link form at the end (the reference definition in a block of its
 * own, indented, as CommonMark allows).
 */
export function misbehavingSection(markdown: string, facts: ListedFact[], phrase: string): string {
  const blocks = markdown.split('\n\n')
  const paragraphs = paragraphIndexes(blocks)
  const after = (paragraphs[0] ?? blocks.length - 1) + 1
  const f = EVIL_LINK_FORMS
  blocks.splice(after, 0, `${inventedStudy(phrase, facts).sentence} ${UNSOURCED_SENTENCE}`, OBEYED_INSTRUCTION)
  blocks.push(
    `Further reading: the ${f.inline}, the notes at ${f.bare}, the mirror at ${f.www}, the summary at ${f.autolink}, ` +
      `the ${f.singleQuotedTitle} page, the ${f.parenthesisedTitle} page and ${f.reference}.`,
    f.referenceDefinition,
    f.image,
    `The full story is ${f.rawHtml}.`,
  )
  return blocks.join('\n\n')
}

/** What a misbehaving brief appends to its free-text fields (Markdown links and raw URL forms). */
export const BRIEF_ADDITIONS: Record<string, string> = {
  angle: ` See ${EVIL_LINK_FORMS.inline.replace('[study]', '[the study]')} and ${EVIL_LINK_FORMS.bare}.`,
  introduction: ` Read more at ${EVIL_LINK_FORMS.www} or ${EVIL_LINK_FORMS.autolink}.`,
  conclusion: ` More at ${EVIL_LINK_FORMS.singleQuotedTitle} and ${EVIL_LINK_FORMS.rawHtml}.`,
  answer: ` See ${EVIL_LINK_FORMS.inline.replace('[study]', '[the study]')} and ${EVIL_LINK_FORMS.bare}.`,
}

/** A misbehaving brief: every free-text field (angle, introduction, conclusion, FAQ answers) links to evil.example. */
export function misbehavingBrief(value: Json): Json {
  if (Array.isArray(value)) return value.map(misbehavingBrief)
  if (!isObject(value)) return value
  const out: { [key: string]: Json } = {}
  for (const [key, v] of Object.entries(value as { [key: string]: Json })) {
    out[key] = typeof v === 'string' && BRIEF_ADDITIONS[key] ? `${v}${BRIEF_ADDITIONS[key]}` : misbehavingBrief(v)
  }
  return out
}

/** The ids of the sentences a rewrite prompt lists, as `C1: <sentence>` lines (or `- [C1] <sentence>`). */
export function listedSentenceIds(prompt: string): string[] {
  const ids = [...prompt.matchAll(/^[ \t]*(?:[-*][ \t]+)?\[?(C\d+)\]?:?[ \t]+\S/gm)].map((m) => m[1]!)
  return [...new Set(ids)]
}

/**
 * The rewrite of claims (a json_schema whose name says 'rewrite'): items with an `id` and a `text`. Like a model
 * that follows the instruction: one item per id (the schema's enum, else the `C1:` lines of the prompt), in order,
 * each one sentence without a figure; when misbehaving, the first rewrite still states a figure.
 */
export function claimRewrites(value: Json, schema: unknown, misbehaving: boolean, promptIds: string[] = []): Json {
  let figured = false
  const walk = (v: Json, s: unknown): Json => {
    const node = isObject(s) ? s : {}
    if (Array.isArray(v)) {
      const items = isObject(node.items) ? node.items : {}
      const props = isObject(items.properties) ? items.properties : {}
      const idSchema = isObject(props.id) ? props.id : null
      const enumIds = Array.isArray(idSchema?.enum)
        ? idSchema.enum.filter((e): e is string => typeof e === 'string')
        : []
      const ids = idSchema ? (enumIds.length ? enumIds : promptIds) : []
      const template = v.find(isObject)
      const list =
        ids.length && template ? ids.map((id, i) => ({ ...((v[i] ?? template) as { [key: string]: Json }), id })) : v
      return list.map((item) => walk(item, items))
    }
    if (!isObject(v)) return v
    const props = isObject(node.properties) ? node.properties : {}
    const out: { [key: string]: Json } = {}
    for (const [key, child] of Object.entries(v as { [key: string]: Json })) out[key] = walk(child, props[key])
    if (typeof out.text === 'string' && 'id' in out) {
      out.text = out.text.split(/(?<=[.!?])\s+/)[0]!.trim()
      if (misbehaving && !figured) {
        out.text = `${out.text} ${FIGURE_IN_REWRITE}`
        figured = true
      }
    }
    return out
  }
  return walk(value, schema)
}
