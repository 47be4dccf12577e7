import { bareHost, type AnswerReference } from '../matching'

/**
 * What the checks keep of a provider's answer (issue 37): plain, bounded text and the cited sources as
 * `{ url, domain, title, position }` (http(s) only, in the answer's order, deduplicated). Model output is data: no
 * markup survives, nothing of it is ever read as an instruction.
 */
export const ANSWER_TEXT_MAX = 4_000
export const REFERENCES_MAX = 30
const TITLE_MAX = 300
const URL_MAX = 2_000

export type ProviderAnswer = { present: boolean; text: string; references: AnswerReference[] }

/** Markdown and markup reduced to plain text: links to their label, tags and control characters dropped, bounded. */
export function plainText(value: string | null | undefined, max = ANSWER_TEXT_MAX) {
  if (!value) return ''
  const text = value
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, ' ')
    .replace(/[<>]/g, ' ')
    .replace(/[*_`#~|]+/g, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text
}

/** Cited sources as the checks store them: http(s) URLs only, each once, positions 1..n in the answer's order. */
export function cleanReferences(list: Array<{ url?: unknown; title?: unknown; domain?: unknown }>) {
  const out: AnswerReference[] = []
  const seen = new Set<string>()
  for (const r of list) {
    if (out.length >= REFERENCES_MAX) break
    if (typeof r.url !== 'string' || r.url.length > URL_MAX) continue
    let url: URL
    try {
      url = new URL(r.url.trim())
    } catch {
      continue
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue
    if (url.username || url.password) continue
    const href = url.toString()
    if (seen.has(href)) continue
    const domain = bareHost(url.hostname)
    if (!domain) continue
    seen.add(href)
    out.push({
      url: href,
      domain,
      title: plainText(typeof r.title === 'string' ? r.title : '', TITLE_MAX),
      position: out.length + 1,
    })
  }
  return out
}
