import type { Claim, ClaimStatus, Evidence, EvidencePage } from './evidence'

/**
 * What the reviewer sees of a post's evidence (issue 32): the claim ledger with each claim's status, the exact
 * sentence that verifies it and a link to it, and the research pages read and not read. Pure: the post page, the
 * review screen and their loaders share it.
 */

/** The claims shown: all of them, or only the unverified ones (`?claims=unverified`, read by the loader). */
export type ClaimsFilter = 'all' | 'unverified'

export const CLAIMS_PARAM = 'claims'

export function claimsFilterOf(searchParams: URLSearchParams): ClaimsFilter {
  return searchParams.get(CLAIMS_PARAM) === 'unverified' ? 'unverified' : 'all'
}

export const CLAIM_STATUS_LABELS: Record<ClaimStatus, string> = {
  verified: 'Verified',
  rewritten: 'Rewritten',
  unverified: 'Unverified',
  removed: 'Removed',
}

export const CLAIMS_COPY = {
  title: 'Claims and their sources',
  intro:
    'Every figure, date and quotation in the post, checked against the sentence of the page it cites. Follow a link to see that sentence on its page.',
  none: 'No figures or quotations in this post.',
  noUnverified: 'No unverified claims.',
  all: 'All claims',
  unverifiedOnly: 'Unverified only',
  was: 'Was:',
  why: 'Why:',
  removedText: 'Taken out of the post.',
  citedButNotSaid: 'The sentence it cited:',
  pagesTitle: 'Pages read for this post',
  pagesIntro: 'Only pages read can be cited. Pages not read were never used.',
  notRead: 'Not read',
} as const

/** Only http(s) URLs become links (a javascript: or data: URL in a stored row is shown as nothing). */
export const safeHref = (url: string | null | undefined) => (url && /^https?:\/\//i.test(url) ? url : undefined)

/** The host of a URL without `www.`, or '' when it is not one. */
export function domainOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./i, '')
  } catch {
    return ''
  }
}

export type ClaimCounts = Record<ClaimStatus, number>

export function claimCounts(claims: Claim[]): ClaimCounts {
  const counts: ClaimCounts = { verified: 0, rewritten: 0, unverified: 0, removed: 0 }
  for (const c of claims) counts[c.status] += 1
  return counts
}

/** '12 verified · 2 rewritten · 1 unverified' (rewritten and removed only when there are some). */
export function countsLine(counts: ClaimCounts): string {
  return [
    `${counts.verified} verified`,
    counts.rewritten ? `${counts.rewritten} rewritten` : '',
    counts.removed ? `${counts.removed} removed` : '',
    `${counts.unverified} unverified`,
  ]
    .filter(Boolean)
    .join(' · ')
}

/** The warning of a post with unverified claims (the review screen and the post page). */
export function unverifiedWarning(n: number): string {
  return n === 1
    ? '1 unverified claim: Auto Pilot will not publish this post until it is fixed.'
    : `${n} unverified claims: Auto Pilot will not publish this post until they are fixed.`
}

/** What to do about it. */
export const UNVERIFIED_FIX =
  'Edit the post to give the figure a source the page confirms, or take it out. You can still publish it yourself.'

export function visibleClaims(claims: Claim[], filter: ClaimsFilter): Claim[] {
  return filter === 'unverified' ? claims.filter((c) => c.status === 'unverified') : claims
}

/** The link to the sentence that verifies a claim: its text-fragment link, else the page. */
export function evidenceLinkOf(claim: Claim): { href: string; domain: string } | null {
  if (claim.status !== 'verified') return null
  const href = safeHref(claim.evidenceUrl) ?? safeHref(claim.sourceUrl)
  if (!href) return null
  return { href, domain: domainOf(href) || href }
}

/** The research pages as the screens show them (the facts stay on the server). */
export type PageView = Pick<EvidencePage, 'url' | 'title' | 'domain' | 'status' | 'reason' | 'fetchedAt'>

export function pagesOf(evidence: Evidence | null): PageView[] {
  if (!evidence) return []
  return evidence.pages.flatMap((p): PageView[] => {
    if (!p || typeof p !== 'object' || typeof p.url !== 'string') return []
    return [
      {
        url: p.url,
        title: typeof p.title === 'string' ? p.title : '',
        domain: typeof p.domain === 'string' && p.domain ? p.domain : domainOf(p.url),
        status: p.status === 'read' ? 'read' : 'not read',
        reason: typeof p.reason === 'string' ? p.reason : null,
        fetchedAt: typeof p.fetchedAt === 'string' ? p.fetchedAt : null,
      },
    ]
  })
}
