import { Link, useLocation } from '@remix-run/react'
import { useEffect, useState, type MouseEvent } from 'react'
import type { Claim, ClaimStatus } from '#app/features/content/evidence'
import {
  CLAIM_STATUS_LABELS,
  claimCounts,
  CLAIMS_COPY as COPY,
  CLAIMS_PARAM,
  countsLine,
  evidenceLinkOf,
  safeHref,
  UNVERIFIED_FIX,
  unverifiedWarning,
  visibleClaims,
  type ClaimsFilter,
  type PageView,
} from '#app/features/content/claims-view'
import { formatLongDate } from '#app/features/content/posts'

const BADGE: Record<ClaimStatus, { icon: string; className: string }> = {
  verified: { icon: '✓', className: 'border-green-300 bg-green-50 text-green-900' },
  rewritten: { icon: '✎', className: 'border-sky-300 bg-sky-50 text-sky-900' },
  unverified: { icon: '!', className: 'border-amber-400 bg-amber-50 text-amber-900' },
  removed: { icon: '−', className: 'border-slate-300 bg-slate-100 text-slate-800' },
}

/** A claim's status in words (with an icon beside it): never told by colour alone. */
export function ClaimStatusBadge({ status }: { status: ClaimStatus }) {
  const badge = BADGE[status]
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1 rounded border px-1.5 py-0.5 text-xs font-semibold ${badge.className}`}
      data-testid="claim-status"
    >
      <span aria-hidden="true">{badge.icon}</span>
      {CLAIM_STATUS_LABELS[status]}
    </span>
  )
}

const newTab = <span className="sr-only"> (opens in a new tab)</span>

/**
 * 'Claims and their sources' (issue 32), on the post page and the review screen: the counts, a warning when a claim
 * is unverified, each claim with its status, the exact sentence of its source and a link to that sentence, and the
 * research pages read and not read. The filter 'Unverified only' is a link to `?claims=unverified` (the loader reads
 * it: `filter`); with JavaScript the same link filters at once, without a navigation, and keeps the URL in step.
 */
export function ClaimsPanel({
  claims,
  pages,
  filter: initialFilter,
  blocking,
  editHref,
}: {
  claims: Claim[]
  /** The research pages of the post's evidence; null for a post written before evidence was kept. */
  pages: PageView[] | null
  filter: ClaimsFilter
  /**
   * How many claims keep Auto Pilot from publishing the post (its gate's count: an older ledger's sourced entry,
   * shown as unverified because it was never checked, does not).
   */
  blocking: number
  /** Where the claims are fixed (the editor), linked from the warning. */
  editHref?: string
}) {
  const location = useLocation()
  const [filter, setFilter] = useState<ClaimsFilter>(initialFilter)
  // A navigation to the page with another `?claims=` (a link, Back) shows what it asks for.
  useEffect(() => setFilter(initialFilter), [initialFilter])
  const counts = claimCounts(claims)
  const shown = visibleClaims(claims, filter)

  const searchFor = (next: ClaimsFilter) => {
    const params = new URLSearchParams(location.search)
    if (next === 'unverified') params.set(CLAIMS_PARAM, 'unverified')
    else params.delete(CLAIMS_PARAM)
    const query = params.toString()
    return `${location.pathname}${query ? `?${query}` : ''}`
  }
  function choose(event: MouseEvent<HTMLAnchorElement>, next: ClaimsFilter) {
    // A click that opens a new tab or window is the browser's.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    setFilter(next)
    // The URL follows (a reload shows the same list), without a navigation: the router is not told.
    window.history.replaceState(window.history.state, '', `${searchFor(next)}${window.location.hash}`)
  }

  const filterLink = (value: ClaimsFilter, label: string) => (
    <a
      href={`${searchFor(value)}#claims`}
      onClick={(e) => choose(e, value)}
      aria-current={filter === value ? 'true' : undefined}
      className={`rounded-md border px-3 py-1 font-medium ${
        filter === value
          ? 'border-brand-600 bg-brand-50 text-brand-800'
          : 'border-slate-300 text-slate-700 hover:bg-slate-50'
      }`}
    >
      {label}
    </a>
  )

  return (
    <section
      id="claims"
      className="mt-6 rounded-lg border border-slate-200 p-4"
      aria-labelledby="claims-title"
      data-testid="claims-panel"
    >
      <h2 id="claims-title" className="text-lg font-semibold text-slate-900">
        {COPY.title}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{COPY.intro}</p>

      {claims.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700" data-testid="claims-empty">
          {COPY.none}
        </p>
      ) : (
        <>
          <p className="mt-3 text-sm font-semibold text-slate-900" data-testid="claim-counts">
            {countsLine(counts)}
          </p>
          {blocking > 0 ? (
            <div
              className="mt-3 rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950"
              data-testid="unverified-warning"
            >
              <p className="font-semibold">{unverifiedWarning(blocking)}</p>
              <p className="mt-1">
                {UNVERIFIED_FIX}
                {editHref ? (
                  <>
                    {' '}
                    <Link to={editHref} className="font-semibold underline">
                      Edit the post
                    </Link>
                  </>
                ) : null}
              </p>
            </div>
          ) : null}
          <div className="mt-3 flex flex-wrap items-center gap-2 text-sm" role="group" aria-label="Which claims">
            {filterLink('all', `${COPY.all} (${claims.length})`)}
            {filterLink('unverified', `${COPY.unverifiedOnly} (${counts.unverified})`)}
            <span role="status" className="text-slate-600">
              {filter === 'unverified' ? `Showing ${shown.length} of ${claims.length} claims.` : ''}
            </span>
          </div>
          {shown.length === 0 ? (
            <p className="mt-3 text-sm text-slate-700" data-testid="claims-empty">
              {COPY.noUnverified}
            </p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-200 text-sm" data-testid="claim-ledger">
              {shown.map((c, i) => (
                <ClaimItem key={`${i}-${c.text}-${c.original ?? ''}`} claim={c} />
              ))}
            </ul>
          )}
        </>
      )}

      {pages && pages.length > 0 ? <ResearchPages pages={pages} /> : null}
    </section>
  )
}

function ClaimItem({ claim: c }: { claim: Claim }) {
  const link = evidenceLinkOf(c)
  return (
    <li
      className={`py-3 [overflow-wrap:anywhere] ${c.status === 'unverified' ? 'border-l-4 border-l-amber-400 pl-3' : ''}`}
      data-testid="claim"
      data-status={c.status}
    >
      <div className="flex flex-wrap items-start gap-2">
        <ClaimStatusBadge status={c.status} />
        <p className="min-w-0 flex-1 text-slate-900">
          {c.status === 'removed' || !c.text ? <em className="text-slate-600">{COPY.removedText}</em> : c.text}
        </p>
      </div>
      {c.status === 'verified' ? (
        <figure className="mt-2">
          {c.quote ? (
            <blockquote cite={link?.href} className="border-l-4 border-slate-200 pl-3 italic text-slate-700">
              “{c.quote}”
            </blockquote>
          ) : null}
          <figcaption className="mt-1 text-slate-600">
            {c.sourceTitle ? (
              <>
                <cite className="not-italic">{c.sourceTitle}</cite>
                {link ? ' · ' : ''}
              </>
            ) : null}
            {link ? (
              <a
                href={link.href}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="font-medium text-brand-700 underline"
              >
                See it on {link.domain}
                {newTab}
              </a>
            ) : null}
          </figcaption>
        </figure>
      ) : (
        <div className="mt-2 space-y-1 text-slate-700">
          {(c.status === 'rewritten' || c.status === 'removed') && c.original ? (
            <p>
              <span className="font-semibold">{COPY.was}</span> “{c.original}”
            </p>
          ) : null}
          {c.reason ? (
            <p>
              <span className="font-semibold">{COPY.why}</span> {c.reason}
            </p>
          ) : null}
          {c.quote ? (
            <p className="text-slate-600">
              <span className="font-semibold">{COPY.citedButNotSaid}</span> “{c.quote}”
            </p>
          ) : null}
        </div>
      )}
    </li>
  )
}

/** The research pages: those read (the only ones a claim can cite) and those not read, with the reason. */
function ResearchPages({ pages }: { pages: PageView[] }) {
  const read = pages.filter((p) => p.status === 'read')
  const notRead = pages.filter((p) => p.status !== 'read')
  return (
    <div className="mt-5 border-t border-slate-200 pt-4" data-testid="research-pages">
      <h3 className="text-base font-semibold text-slate-900">{COPY.pagesTitle}</h3>
      <p className="mt-1 text-sm text-slate-600">
        {read.length} read, {notRead.length} not read. {COPY.pagesIntro}
      </p>
      <ul className="mt-2 space-y-2 text-sm [overflow-wrap:anywhere]">
        {read.map((p) => (
          <li key={p.url} data-testid="page-read">
            <ClaimStatusText label="Read" className="border-green-300 bg-green-50 text-green-900" />{' '}
            {safeHref(p.url) ? (
              <a
                href={safeHref(p.url)}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="text-brand-700 underline"
              >
                {p.title || p.url}
                {newTab}
              </a>
            ) : (
              <span>{p.title || p.url}</span>
            )}{' '}
            <span className="text-slate-600">
              ({p.domain}
              {p.fetchedAt ? `, read ${formatLongDate(p.fetchedAt)}` : ''})
            </span>
          </li>
        ))}
        {notRead.map((p) => (
          <li key={p.url} data-testid="page-not-read">
            <ClaimStatusText label={COPY.notRead} className="border-slate-300 bg-slate-100 text-slate-800" />{' '}
            <span className="text-slate-800">{p.title || p.url}</span>{' '}
            <span className="text-slate-600">
              ({p.domain}){p.reason ? `: ${p.reason}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}

function ClaimStatusText({ label, className }: { label: string; className: string }) {
  return <span className={`rounded border px-1.5 py-0.5 text-xs font-semibold ${className}`}>{label}</span>
}
