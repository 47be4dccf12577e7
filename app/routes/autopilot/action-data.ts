import type { SubmissionResult } from '#app/platform/forms/submission'
import { clientFailureOf, type ClientFailure } from '#app/ui/client-failure'
import type { Toast } from '#app/ui/toaster'
import { AUTOPILOT_MESSAGES } from '#app/features/autopilot/settings/autopilot'

/** What the /autopilot actions answer: the reply to one of the page's forms (by `intent`), or a toast. */
export type AutopilotActionData = {
  intent: string
  /** The reply (Conform) of the form named by `intent`: its field errors and the values to show again. */
  result?: SubmissionResult<string[]>
  /** A failure shown as a toast by the page itself (also without JavaScript, where a flash cookie would show one page late). */
  toast?: Toast
}

const FAILED_ACTIONS: Record<string, string> = {
  toggle: AUTOPILOT_MESSAGES.toggleFailed,
  'save-webhook': AUTOPILOT_MESSAGES.webhookFailed,
  cadence: 'Failed to save the Auto Pilot schedule.',
}

/**
 * A request that failed in the browser (issue 12) as the action's own failure answer: its toast. The forms keep what
 * was typed, since nothing re-renders them.
 */
function failedAction(failure: ClientFailure): AutopilotActionData {
  const intent = failure.intent ?? ''
  return {
    intent,
    toast: {
      type: 'error',
      message: FAILED_ACTIONS[intent] ?? 'Auto Pilot could not do that just now. Please try again.',
      duration: 8000,
    },
  }
}

/** The page's action data (or a fetcher's), with a failed request turned into its failure answer. */
export function asActionData(answer: unknown): AutopilotActionData | undefined {
  const failure = clientFailureOf(answer)
  return failure ? failedAction(failure) : (answer as AutopilotActionData | undefined)
}

/** The reply to the form named `intent`, when the answer is about that form. */
export function replyTo(data: AutopilotActionData | undefined, intent: string) {
  return data?.intent === intent ? data.result : undefined
}
