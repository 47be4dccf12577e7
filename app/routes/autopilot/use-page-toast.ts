import { useEffect, useState } from 'react'
import type { Toast } from '#app/ui/toaster'
import { AUTOPILOT_MESSAGES } from '#app/features/autopilot/settings/autopilot'
import type { AutopilotActionData } from './action-data'

/**
 * The page's own toast: an action's failure (the page's forms or the switch), the page data that could not be
 * loaded, and once when refreshing starts failing (the periodic refresh keeps trying; the alert stays until it
 * works). The copy button sets it too.
 */
export function usePageToast({
  actionData,
  toggleData,
  loadError,
  refreshFailing,
}: {
  actionData: AutopilotActionData | undefined
  toggleData: AutopilotActionData | undefined
  loadError: string | null
  refreshFailing: boolean
}) {
  const [toast, setToast] = useState<Toast | null>(
    actionData?.toast ?? (loadError ? { type: 'error', message: loadError } : null),
  )
  useEffect(() => {
    if (refreshFailing) setToast({ type: 'error', message: AUTOPILOT_MESSAGES.statusFailed, duration: 8000 })
  }, [refreshFailing])
  useEffect(() => {
    if (actionData?.toast) setToast(actionData.toast)
  }, [actionData])
  useEffect(() => {
    if (toggleData?.toast) setToast(toggleData.toast)
  }, [toggleData])
  return [toast, setToast] as const
}
