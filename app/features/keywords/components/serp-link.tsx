import { Link, useFetcher, useLocation } from '@remix-run/react'
import { useState, type MouseEvent } from 'react'
import { CloseButton, Dialog } from '#app/ui/dialog'
import type { SerpPagePayload } from '../serp-view'
import { SerpResults } from './serp-results'

/**
 * Issue 36: a keyword row's link to its results page (Google's top 10 with each domain's strength), at
 * /keywords/:id/serp. Without JavaScript a plain link to that page; with JavaScript it opens the top 10 in place, in
 * the app's dialog, loaded from the page's own loader with a fetcher, so the list stays where it was. A click with a
 * modifier key (a new tab) still follows the link.
 */
export function SerpLink({ id, keyword }: { id: string; keyword: string }) {
  const href = `/keywords/${id}/serp`
  const fetcher = useFetcher<SerpPagePayload>()
  const location = useLocation()
  const [open, setOpen] = useState(false)
  const titleId = `serp-title-${id}`
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    setOpen(true)
    if (fetcher.state === 'idle') fetcher.load(href)
  }
  const close = () => setOpen(false)
  const loading = fetcher.state !== 'idle' || !fetcher.data
  return (
    <>
      <Link
        to={href}
        onClick={onClick}
        className="mt-1 inline-block text-xs font-medium text-brand-700 underline-offset-2 hover:underline"
        aria-label={`Top 10 results for ${keyword}`}
        data-serp-link
      >
        Top 10 results
      </Link>
      {open ? (
        <Dialog open onClose={close} labelledBy={titleId} className="max-w-5xl" testId="serp-dialog">
          <div className="p-6" aria-busy={loading || undefined}>
            <h2 id={titleId} className="text-lg font-semibold text-slate-900">
              {`Top 10 results for “${keyword}”`}
            </h2>
            <div className="mt-4">
              {loading ? (
                <p role="status" className="text-slate-600">
                  Reading Google’s results…
                </p>
              ) : fetcher.data ? (
                <SerpResults payload={fetcher.data} />
              ) : null}
            </div>
            <div className="mt-6 flex flex-wrap items-center justify-end gap-3">
              <Link to={href} className="btn-secondary">
                Open as a page
              </Link>
              <CloseButton href={`${location.pathname}${location.search}`} onClose={close} />
            </div>
          </div>
        </Dialog>
      ) : null}
    </>
  )
}
