import { useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import { showToast } from '#app/ui/toaster'
import { clientFailureOf } from '#app/ui/client-failure'
import { useHydrated } from '#app/ui/use-hydrated'
import { RANKINGS_MESSAGES } from '#app/features/rankings/rankings'

/**
 * The star on a saved keyword's row of /keywords (issue 16): tracks the keyword's ranking or stops tracking it.
 * A toggle button (`aria-pressed`) whose name stays 'Track' in both states, described by the row's keyword
 * (`describedBy`, the id of the element holding the keyword): a name that contained the keyword would match the
 * row's other buttons' locators (a keyword 'estimated …' and the 'Estimate' marker), and a toggle's name does not
 * change with its state.
 *
 * Without JavaScript a plain form post to the /rankings action, which redirects back to `returnTo` (the list as the
 * user had it) with a toast. With JavaScript a fetcher: the star changes at once, and goes back to the server's
 * state when the request is refused (over the plan's limit: the action's toast says so) or never answered (a toast
 * here says so).
 */
type TrackStarProps = {
  keywordId: string
  describedBy: string
  tracked: boolean
  returnTo: string
}

/** True in the server's render (no document). */
const onServer = typeof document === 'undefined'

export function TrackStar(props: TrackStarProps) {
  // As with 'Create Post' on the same rows: the server renders the plain form (no fetcher hooks for 50 rows), the
  // browser the live fetcher form over the same markup.
  return onServer ? (
    <form method="post" action="/rankings">
      <TrackStarFields {...props} shown={props.tracked} hydrated={false} />
    </form>
  ) : (
    <LiveTrackStar {...props} />
  )
}

function LiveTrackStar(props: TrackStarProps) {
  const fetcher = useFetcher<{ ok: boolean; message?: string }>()
  const hydrated = useHydrated()
  const pending = fetcher.formData?.get('intent')
  const shown = pending ? pending === 'track' : props.tracked
  const failure = clientFailureOf(fetcher.data)
  useEffect(() => {
    if (failure) showToast({ type: 'error', message: RANKINGS_MESSAGES.trackFailed })
  }, [failure])
  return (
    <fetcher.Form method="post" action="/rankings">
      <TrackStarFields {...props} shown={shown} hydrated={hydrated} />
    </fetcher.Form>
  )
}

/** The form's fields and the toggle: the same markup on the server and, once hydrated, in the browser. */
function TrackStarFields({
  keywordId,
  describedBy,
  returnTo,
  shown,
  hydrated,
}: TrackStarProps & { shown: boolean; hydrated: boolean }) {
  return (
    <>
      <input type="hidden" name="keywordId" value={keywordId} />
      <input type="hidden" name="returnTo" value={returnTo} />
      {hydrated ? <input type="hidden" name="respond" value="json" /> : null}
      <button
        type="submit"
        name="intent"
        value={shown ? 'untrack' : 'track'}
        aria-pressed={shown}
        aria-describedby={describedBy}
        title={shown ? 'Stop tracking its ranking' : 'Track its ranking'}
        className={`inline-flex items-center gap-1 rounded px-1.5 py-1 text-xs font-semibold ${
          shown ? 'text-amber-800 hover:text-amber-900' : 'text-slate-700 hover:text-slate-900'
        }`}
        data-track-star
      >
        <span aria-hidden="true" className={`text-base leading-none ${shown ? 'text-amber-700' : 'text-slate-500'}`}>
          {shown ? '★' : '☆'}
        </span>
        Track
      </button>
    </>
  )
}
