/**
 * Issue 36 (decision 0362): who holds a keyword's top 10, in plain words, so that 'Hard 74' reads as 'three big
 * sites and two forums'. Pure and isomorphic.
 *
 * Each result is one of:
 * - 'forum': a community where people answer each other (reddit.com, quora.com, stackoverflow.com, the Stack
 *   Exchange sites, a host starting with forum./forums./community./discuss./answers., a domain with "forum" in it,
 *   and a few more below). Checked first: a forum ranks on its crowd, not on the strength of the page, and a good
 *   post can beat it.
 * - 'video': a video platform (YouTube, Vimeo, TikTok, Dailymotion).
 * - 'big': a domain whose strength (the 0-1000 rank of domain-strength.server.ts) is at least BIG_SITE_STRENGTH.
 * - 'small': a domain below it.
 * - 'unknown': its strength is not known (the provider did not answer).
 */
export const BIG_SITE_STRENGTH = 500

export type SerpResultKind = 'big' | 'forum' | 'video' | 'small' | 'unknown'

const FORUM_DOMAINS = [
  'reddit.com',
  'quora.com',
  'stackoverflow.com',
  'stackexchange.com',
  'superuser.com',
  'serverfault.com',
  'askubuntu.com',
  'mathoverflow.net',
  'news.ycombinator.com',
  'indiehackers.com',
  'discourse.org',
]
const VIDEO_DOMAINS = ['youtube.com', 'youtu.be', 'vimeo.com', 'tiktok.com', 'dailymotion.com']

const under = (domain: string, parent: string) => domain === parent || domain.endsWith(`.${parent}`)

/** The kind of a result from its (bare) domain and its domain's strength. */
export function classifyResult(domain: string, strength: number | null): SerpResultKind {
  const d = domain.toLowerCase().replace(/^www\./, '')
  if (
    FORUM_DOMAINS.some((f) => under(d, f)) ||
    /^(?:forums?|community|communities|discuss|discussions?|answers|board|boards)\./.test(d) ||
    /forum/.test(d)
  )
    return 'forum'
  if (VIDEO_DOMAINS.some((v) => under(d, v))) return 'video'
  if (strength === null || !Number.isFinite(strength)) return 'unknown'
  return strength >= BIG_SITE_STRENGTH ? 'big' : 'small'
}

export type SerpSummary = {
  counts: Record<SerpResultKind, number>
  /** '3 big sites, 2 forums and 5 smaller sites'; '' when there are no results. */
  text: string
  /** What it means for a founder who wants to rank: one sentence. */
  hint: string
}

const NOUNS: Record<SerpResultKind, [string, string]> = {
  big: ['big site', 'big sites'],
  forum: ['forum', 'forums'],
  video: ['video', 'videos'],
  small: ['smaller site', 'smaller sites'],
  unknown: ['site of unknown strength', 'sites of unknown strength'],
}
const ORDER: SerpResultKind[] = ['big', 'forum', 'video', 'small', 'unknown']

function list(parts: string[]) {
  if (parts.length <= 1) return parts.join('')
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
}

/** The counts of each kind in `items` (their kinds), in words, and a hint. */
export function summarizeSerp(items: Array<{ kind: SerpResultKind }>): SerpSummary {
  const counts: Record<SerpResultKind, number> = { big: 0, forum: 0, video: 0, small: 0, unknown: 0 }
  for (const item of items) counts[item.kind]++
  const parts = ORDER.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${NOUNS[k][counts[k] === 1 ? 0 : 1]}`)
  return { counts, text: list(parts), hint: hintFor(counts, items.length) }
}

function hintFor(c: Record<SerpResultKind, number>, total: number): string {
  if (total === 0) return 'Google shows no ordinary results for this search: there is no page to beat yet.'
  const room = c.forum + c.small
  if (c.unknown === total) return 'How strong these sites are is unavailable right now: look at who they are.'
  if (c.forum > 0 && c.small > 0)
    return 'Forums and smaller sites rank here: a thorough, well-written post has real room in this top 10.'
  if (c.forum > 0) return 'Forums rank here: Google lacks a good article, so a thorough post has room in this top 10.'
  if (c.small >= 3) return 'Smaller sites rank here: a thorough, well-written post has room in this top 10.'
  if (room > 0)
    return 'Mostly big sites, with a smaller one in between: possible, with a post clearly better than that one.'
  if (c.big >= total / 2)
    return 'Big sites hold this top 10: a narrower, more specific keyword will be easier to rank for.'
  return 'A mixed top 10: a post that answers the search better than the weaker pages can get in.'
}

/**
 * A page's age in words from its publication date: 'today', '5 days old', '3 months old', '2 years old'; null
 * when unknown.
 */
export function ageInWords(publishedAt: string | null, now: Date = new Date()): string | null {
  if (!publishedAt) return null
  const at = new Date(publishedAt).getTime()
  if (Number.isNaN(at)) return null
  const days = Math.floor((now.getTime() - at) / 86_400_000)
  if (days < 1) return 'today'
  const unit = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'} old`
  if (days < 14) return unit(days, 'day')
  if (days < 60) return unit(Math.floor(days / 7), 'week')
  if (days < 365) return unit(Math.floor(days / 30.44), 'month')
  return unit(Math.floor(days / 365.25), 'year')
}
