import { useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import { showToast } from '#app/ui/toaster'
import { clientFailureOf } from '#app/ui/client-failure'
import { useHydrated } from '#app/ui/use-hydrated'
import { RANKINGS_MESSAGES } from '#app/features/rankings/rankings'

/**
 * Track a keyword's ranking or stop tracking it, per row of /rankings (issue 16). Without JavaScript a plain form
 * post to /rankings, which redirects back to `returnTo` with a toast. With JavaScript a fetcher that shows the new
 * state at once and goes back to the server's state when the request is refused or never answered (a toast says so).
 */
export function TrackToggle({
  keywordId,
  keyword,
  tracked,
  returnTo,
}: {
  keywordId: string
  keyword: string
  tracked: boolean
  returnTo: string
}) {
  const fetcher = useFetcher<{ ok: boolean; message?: string }>()
  const hydrated = useHydrated()
  const pending = fetcher.formData?.get('intent')
  const shown = pending ? pending === 'track' : tracked
  const failure = clientFailureOf(fetcher.data)
  useEffect(() => {
    if (failure) showToast({ type: 'error', message: RANKINGS_MESSAGES.trackFailed })
  }, [failure])
  return (
    <fetcher.Form method="post" action="/rankings" className="inline">
      <input type="hidden" name="keywordId" value={keywordId} />
      <input type="hidden" name="returnTo" value={returnTo} />
      {hydrated ? <input type="hidden" name="respond" value="json" /> : null}
      <button
        type="submit"
        name="intent"
        value={shown ? 'untrack' : 'track'}
        aria-label={shown ? `Stop tracking “${keyword}”` : `Track “${keyword}”`}
        className="text-sm text-brand-700 underline disabled:opacity-50"
      >
        {shown ? 'Stop tracking' : 'Track'}
      </button>
    </fetcher.Form>
  )
}
