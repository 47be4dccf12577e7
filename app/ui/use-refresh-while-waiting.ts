import { useFetchers, useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect, useRef } from 'react'

/**
 * While something on the page is on its way (a post being written, a webhook delivery being sent or retried, Auto
 * Pilot's first run), the page's data is refreshed after `delayMs` (null: nothing is on its way, no refresh), again
 * and again while it stays on its way; only while the tab is visible (a tab coming back refreshes at once).
 *
 * Never while a form or fetcher is on its way or just answered (and 10 seconds after): a refresh racing the
 * action's redirect would read (and so swallow) the toast that the redirect carries.
 *
 * Returns true while one of its own refreshes is loading (a page shows no 'Loading...' for those: the data is
 * already on screen and only its state changes).
 */
export function useRefreshWhileWaiting(delayMs: number | null, busy = false) {
  const revalidator = useRevalidator()
  const navigation = useNavigation()
  const fetchers = useFetchers()
  const lastBusyAt = useRef(0)
  if (navigation.state !== 'idle' || busy || fetchers.some((f) => f.state !== 'idle')) lastBusyAt.current = Date.now()
  const revalidate = useRef(revalidator.revalidate)
  revalidate.current = revalidator.revalidate
  const idle = revalidator.state === 'idle'
  const ours = useRef(false)
  if (idle) ours.current = false

  useEffect(() => {
    if (delayMs === null || !idle) return
    const refresh = () => {
      if (document.visibilityState !== 'visible') return
      // Just after a form's answer: try again once the quiet time is over.
      const quietIn = lastBusyAt.current + 10_000 - Date.now()
      if (quietIn > 0) {
        timer = setTimeout(refresh, quietIn)
        return
      }
      ours.current = true
      revalidate.current()
    }
    let timer = setTimeout(refresh, Math.max(1_000, delayMs))
    const onVisible = () => {
      if (document.visibilityState === 'visible') refresh()
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => {
      clearTimeout(timer)
      document.removeEventListener('visibilitychange', onVisible)
    }
  }, [delayMs, idle])
  return !idle && ours.current
}
