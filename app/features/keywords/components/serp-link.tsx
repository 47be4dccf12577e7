import { Link, useFetcher, useLocation } from '@remix-run/react'
import { useState, type MouseEvent, type ReactNode } from 'react'
import { CloseButton, Dialog } from '#app/ui/dialog'
import type { SerpPagePayload } from '../serp-view'
import { SerpResults } from './serp-results'

/**
 * Issue 36: a keyword row's link to its results page (Google's top 10 with each domain's strength), at
 * /keywords/:id/serp. Without JavaScript a plain link to that page; with JavaScript it opens the top 10 in place, in
 * the app's dialog, loaded from the page's own loader with a fetcher, so the list stays where it was. A click with a
 * modifier key (a new tab) still follows the link.
 *
 * Issue 39 (decision 0390): the link is plain markup, no component and no hook (the table renders 50 to 1,000 of
 * them); the table holds the one dialog, its fetcher and one click handler for every row's link (`useSerpDialog`).
 */
export function serpLink(id: string, keyword: string) {
  return (
    <a
      href={serpHref(id)}
      className="mt-1 inline-block text-xs font-medium text-brand-700 underline-offset-2 hover:underline"
      aria-label={`Top 10 results for ${keyword}`}
      data-serp-link={id}
      data-serp-keyword={keyword}
    >
      Top 10 results
    </a>
  )
}

const serpHref = (id: string) => `/keywords/${id}/serp`

/**
 * The table's one results dialog: `onClick` for the element around the rows (a click on a row's link, a plain left
 * click, opens the dialog instead of the page), and the dialog to render once.
 */
export function useSerpDialog(): { onClick: (e: MouseEvent<HTMLElement>) => void; dialog: ReactNode } {
  const fetcher = useFetcher<SerpPagePayload>()
  const location = useLocation()
  const [shown, setShown] = useState<{ id: string; keyword: string } | null>(null)
  // The row whose answer the fetcher holds or is loading: opening the same row again shows it without a new request.
  const [loadedId, setLoadedId] = useState<string | null>(null)
  const onClick = (e: MouseEvent<HTMLElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    const link = e.target instanceof Element ? e.target.closest<HTMLElement>('a[data-serp-link]') : null
    const id = link?.dataset.serpLink
    if (!link || !id) return
    e.preventDefault()
    setShown({ id, keyword: link.dataset.serpKeyword ?? '' })
    if (id !== loadedId || (fetcher.state === 'idle' && !fetcher.data)) {
      setLoadedId(id)
      fetcher.load(serpHref(id))
    }
  }
  if (!shown) return { onClick, dialog: null }
  const href = serpHref(shown.id)
  const titleId = `serp-title-${shown.id}`
  const payload = fetcher.state === 'idle' && fetcher.data && loadedId === shown.id ? fetcher.data : null
  const close = () => setShown(null)
  const dialog = (
    <Dialog open onClose={close} labelledBy={titleId} className="max-w-5xl" testId="serp-dialog">
      <div className="p-6" aria-busy={payload ? undefined : true}>
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {`Top 10 results for “${shown.keyword}”`}
        </h2>
        <div className="mt-4">
          {payload ? (
            <SerpResults payload={payload} />
          ) : (
            <p role="status" className="text-slate-600">
              Reading Google’s results…
            </p>
          )}
        </div>
        <div className="mt-6 flex flex-wrap items-center justify-end gap-3">
          <Link to={href} className="btn-secondary">
            Open as a page
          </Link>
          <CloseButton href={`${location.pathname}${location.search}`} onClose={close} />
        </div>
      </div>
    </Dialog>
  )
  return { onClick, dialog }
}
