import { useFetchers, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'

/** How long a navigation or submission runs before the bar shows: quick ones never flash it. */
export const PROGRESS_DELAY_MS = 150

/**
 * A slim bar at the top of the window while a client navigation or a form submission (a `<Form>` or a fetcher
 * posting) is under way for more than 150 ms. Background loads (polling, 'Load more') do not show it.
 * It is a `progressbar` without a live region, so screen readers can find it but it does not interrupt them.
 */
export function GlobalProgress() {
  const navigation = useNavigation()
  const fetchers = useFetchers()
  const busy =
    navigation.state !== 'idle' ||
    fetchers.some((f) => f.state !== 'idle' && f.formMethod !== undefined && f.formMethod.toUpperCase() !== 'GET')
  const [shown, setShown] = useState(false)
  useEffect(() => {
    if (!busy) {
      setShown(false)
      return
    }
    const timer = setTimeout(() => setShown(true), PROGRESS_DELAY_MS)
    return () => clearTimeout(timer)
  }, [busy])
  if (!shown) return null
  return (
    <div
      role="progressbar"
      aria-label={navigation.state === 'loading' ? 'Loading the page' : 'Sending'}
      data-testid="global-progress"
      className="pointer-events-none fixed inset-x-0 top-0 z-[60] h-1 overflow-hidden bg-brand-100"
    >
      <div className="progress-indeterminate h-full w-1/3 rounded-r-full bg-brand-600" />
    </div>
  )
}
