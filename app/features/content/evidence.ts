/**
 * Evidence (issue 32): the fact store a post is written from and the claim ledger a reviewer trusts. Pure and
 * isomorphic: the pipeline, the editor, the post page, the review screen, Auto Pilot's gate and the evaluation
 * read these types.
 *
 * - Research keeps, for each page it fetched and parsed (HTTP 200, HTML, allowed by robots.txt), the sentences
 *   that carry figures, dates, names or quotations, verbatim, each with an id (F1, F2… across the pages read).
 *   Pages that failed, hung or were refused are kept as 'not read' and never cited.
 * - The brief and the sections cite facts by id (`[F3]` in the section's Markdown). The finish matches every
 *   figure, percentage, amount, date and quotation of a sentence against the sentence of the fact it cites.
 */

export type FactKind = 'figure' | 'date' | 'name' | 'quote'

/** One sentence of a page read, verbatim, with its id (F1…). */
export type Fact = { id: string; url: string; sentence: string; kinds: FactKind[] }

export type EvidencePage = {
  url: string
  title: string
  domain: string
  rank: number
  /** 'read': fetched and parsed; 'not read': failed, hung, not HTML, or refused by robots.txt (never cited). */
  status: 'read' | 'not read'
  /** Why a page was not read ('HTTP 500', 'timed out', 'robots.txt disallows it', …). */
  reason: string | null
  /** When it was fetched (ISO), for pages read. */
  fetchedAt: string | null
}

/** What a post was written from: stored in blog_posts.evidence. */
export type Evidence = { pages: EvidencePage[]; facts: Fact[] }

export type ClaimStatus = 'verified' | 'rewritten' | 'unverified' | 'removed'

/** The policy for a claim that cannot be verified (content settings; default 'rewrite'). */
export const UNVERIFIED_POLICIES = ['rewrite', 'remove', 'mark'] as const
export type UnverifiedPolicy = (typeof UNVERIFIED_POLICIES)[number]

/**
 * One entry of the claim ledger (blog_posts.claims): a sentence of the post with a figure, a date or a quotation.
 * - verified: every figure and quotation appears in the cited fact's sentence (sourceUrl, quote, evidenceUrl set);
 * - rewritten: the model's sentence could not be verified and was rewritten without it (`original` keeps it);
 * - unverified: kept as written, marked, never shown as sourced (sourceUrl null);
 * - removed: the sentence was removed from the post (`original` keeps it, `text` is empty).
 */
export type Claim = {
  text: string
  status: ClaimStatus
  /** The cited page, only when verified. */
  sourceUrl: string | null
  sourceTitle: string | null
  /** The fact's id (F3) when one was cited. */
  factId: string | null
  /** The exact sentence on the source page: the one that verifies it, or the one cited that does not. */
  quote: string | null
  /** A link to that sentence: the page with a text fragment (`#:~:text=`), or the page alone. */
  evidenceUrl: string | null
  /** What the model wrote, for 'rewritten' and 'removed'. */
  original: string | null
  /** Why it is not verified, in words a reviewer understands. */
  reason: string | null
}

/** A claim of any age: rows written before issue 32 are `{ text, sourceUrl }`. */
export type StoredClaim = Partial<Claim> & { text: string; sourceUrl?: string | null }

/** The ledger of a post, whatever its age (old rows: a sourced claim was 'verified' only by trust: 'unverified'). */
export function readClaims(value: unknown): Claim[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((raw): Claim[] => {
    if (!raw || typeof raw !== 'object' || typeof (raw as StoredClaim).text !== 'string') return []
    const c = raw as StoredClaim
    const status: ClaimStatus =
      c.status === 'verified' || c.status === 'rewritten' || c.status === 'removed' || c.status === 'unverified'
        ? c.status
        : 'unverified'
    return [
      {
        text: c.text,
        status,
        sourceUrl: status === 'verified' ? (c.sourceUrl ?? null) : null,
        sourceTitle: status === 'verified' ? (c.sourceTitle ?? null) : null,
        factId: c.factId ?? null,
        quote: c.quote ?? null,
        evidenceUrl: c.evidenceUrl ?? null,
        original: c.original ?? null,
        reason: c.reason ?? (c.status ? null : 'Written before figures were checked against their sources.'),
      },
    ]
  })
}

/** How many claims of a ledger are unverified (Auto Pilot refuses a post with any; the checklist counts them). */
export function unverifiedCount(claims: Claim[]): number {
  return claims.filter((c) => c.status === 'unverified').length
}

export function readEvidence(value: unknown): Evidence | null {
  if (!value || typeof value !== 'object') return null
  const v = value as Partial<Evidence>
  return { pages: Array.isArray(v.pages) ? v.pages : [], facts: Array.isArray(v.facts) ? v.facts : [] }
}
