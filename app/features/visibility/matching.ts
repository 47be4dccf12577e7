/**
 * What one AI answer means for one user (issue 37, decision 0370): whether it names their brand, cites their domain
 * (which page, at which 1-based position among the references), and which competitors it names or cites. Pure: the
 * answer's text and references are data from a third party (never markup or instructions), matched as text only.
 */

export type AnswerReference = { url: string; domain: string; title: string; position: number }

export type MatchTarget = {
  /** The brand's names: aliases from the settings and the name taken from the user's website. */
  brandNames: readonly string[]
  /** The user's domain (from users.website), bare or not; null when unknown. */
  domain: string | null
  competitorDomains: readonly string[]
}

export type AnswerMatch = {
  mentioned: boolean
  cited: boolean
  citedUrl: string | null
  citedPosition: number | null
  competitorsMentioned: string[]
  competitorsCited: string[]
}

/** Bounds on what is matched: a hostile answer cannot make the matcher slow. */
const MAX_TEXT = 20_000
const MAX_NAME = 100
const MIN_NAME = 2

/** Lower case, accents removed, compatibility forms folded ('Café' → 'cafe', 'ｆｕｌｌ' → 'full'). */
export function foldText(value: string) {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
}

/** A host or URL as a bare domain: lower case, no scheme, port, path or leading 'www.'; '' when it is none. */
export function bareHost(value: string | null | undefined): string {
  if (!value) return ''
  let host = value.trim().toLowerCase()
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(host) ? host : `http://${host}`).hostname
  } catch {
    return ''
  }
  host = host.replace(/\.+$/, '').replace(/^www\./, '')
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) || /^xn--/.test(host) ? host : ''
}

/** Whether `host` is `domain` or one of its subdomains (blog.acme.com for acme.com; never notacme.com). */
export function hostMatches(host: string, domain: string) {
  const h = bareHost(host)
  const d = bareHost(domain)
  return Boolean(h && d && (h === d || h.endsWith(`.${d}`)))
}

/** The brand name a domain suggests: its registrable label, hyphens as spaces (acme-tools.co.uk → 'acme tools'). */
export function nameFromDomain(domain: string | null | undefined): string | null {
  const host = bareHost(domain)
  if (!host) return null
  const labels = host.split('.')
  // The label before the public suffix: two labels back for the common second-level suffixes (co.uk, com.au…).
  const secondLevel = labels.length >= 3 && /^(co|com|org|net|ac|gov|edu)$/.test(labels[labels.length - 2]!)
  const label = labels[labels.length - (secondLevel ? 3 : 2)] ?? ''
  const name = label.replace(/-+/g, ' ').trim()
  return name.length >= 3 ? name : null
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A name as a pattern: whole words only, spaces or hyphens between its words, never inside another word. */
function namePattern(name: string) {
  const words = foldText(name)
    .slice(0, MAX_NAME)
    .split(/[\s\-_]+/)
    .filter(Boolean)
  if (words.join('').length < MIN_NAME) return null
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.map(escape).join('[\\s\\-_]+')}(?![\\p{L}\\p{N}])`, 'u')
}

/** Whether the folded text names any of `names` as whole words. */
function names(folded: string, list: readonly string[]) {
  for (const name of list) {
    const pattern = namePattern(name)
    if (pattern?.test(folded)) return true
  }
  return false
}

/** The user's view of one answer: brand named, domain cited (first citing reference), competitors named or cited. */
export function matchAnswer(
  answer: { text: string | null; references: readonly AnswerReference[] },
  target: MatchTarget,
): AnswerMatch {
  const folded = foldText((answer.text ?? '').slice(0, MAX_TEXT))
  const domain = bareHost(target.domain)
  const brandNames = [...target.brandNames, ...(domain ? [domain] : [])]
  const mentioned = names(folded, brandNames)
  const citing = domain ? answer.references.find((r) => hostMatches(r.domain || r.url, domain)) : undefined
  const competitors = [...new Set(target.competitorDomains.map(bareHost).filter((d) => d && d !== domain))]
  const competitorsMentioned = competitors.filter((c) => {
    const name = nameFromDomain(c)
    return names(folded, name ? [c, name] : [c])
  })
  const competitorsCited = competitors.filter((c) => answer.references.some((r) => hostMatches(r.domain || r.url, c)))
  return {
    mentioned,
    cited: Boolean(citing),
    citedUrl: citing?.url ?? null,
    citedPosition: citing?.position ?? null,
    competitorsMentioned,
    competitorsCited,
  }
}
