import { useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect, useRef } from 'react'

/**
 * While something is on its way (the first run, a post being written, a delivery being retried), the page's data is
 * refreshed every 5 seconds, while the tab is visible. Never while a form is on its way or just answered
 * (`busy`, and 10 seconds after): a refresh racing the action's redirect would read (and so swallow) the toast that
 * the redirect carries.
 */
export function useRefreshWhileWaiting(waiting: boolean, busy: boolean) {
  const revalidator = useRevalidator()
  const navigation = useNavigation()
  const lastBusyAt = useRef(0)
  if (navigation.state !== 'idle' || busy) lastBusyAt.current = Date.now()
  useEffect(() => {
    if (!waiting) return
    const timer = setInterval(() => {
      const quiet = Date.now() - lastBusyAt.current > 10_000
      if (quiet && revalidator.state === 'idle' && document.visibilityState === 'visible') revalidator.revalidate()
    }, 5000)
    return () => clearInterval(timer)
  }, [waiting, revalidator])
}
