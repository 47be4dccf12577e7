import { useEffect } from 'react'
import { POST_MESSAGES } from '#app/features/content/posts'
import { clientFailureOf } from '#app/ui/client-failure'
import { showToast } from '#app/ui/toaster'

/** The toasts of this route's actions when their request fails in the browser. */
const FAILED_MESSAGES: Record<string, string> = {
  'create-post': POST_MESSAGES.failed,
  'retry-post': 'The post could not be restarted. Please try again.',
  'delete-post': 'The blog post could not be deleted. Please try again.',
}

/** Toasts the failure (if any) of one of this route's actions. */
export function useFailureToast(data: unknown) {
  const failure = clientFailureOf(data)
  useEffect(() => {
    if (failure)
      showToast({ type: 'error', message: FAILED_MESSAGES[failure.intent ?? ''] ?? FAILED_MESSAGES['retry-post']! })
  }, [failure])
}
