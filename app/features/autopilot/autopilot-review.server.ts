import { isUuid } from '#app/platform/security/ids'
import { PUBLISHING_MESSAGES } from '#app/features/publishing/publishing'
import { listDestinations, toView } from '#app/features/publishing/destinations.server'
import {
  approvePost,
  listWaitingDrafts,
  rejectPost,
  reviewSettingsOf,
  saveReviewSettings,
} from '#app/features/publishing/review.server'

/** What /autopilot shows of publishing: review settings, drafts waiting for review, destinations (and pauses). */
export async function publishingOverview(userId: string) {
  const [settings, waiting, destinations] = await Promise.all([
    reviewSettingsOf(userId),
    listWaitingDrafts(userId),
    listDestinations(userId),
  ])
  return { settings, waiting, destinations: destinations.map(toView) }
}

export type ReviewActionResult =
  { ok: true; message: string } | { ok: false; message: string; status: number; errors?: Record<string, string> }

/** The review forms of /autopilot: settings, approve (now) and reject. */
export async function reviewAction(userId: string, intent: string, form: FormData): Promise<ReviewActionResult> {
  if (intent === 'review-settings') {
    const result = await saveReviewSettings(userId, Object.fromEntries(form))
    return result.ok
      ? { ok: true, message: PUBLISHING_MESSAGES.reviewSaved }
      : { ok: false, message: 'Check the review settings.', status: 400, errors: result.fieldErrors }
  }
  const postId = String(form.get('postId') ?? '')
  if (!isUuid(postId)) return { ok: false, message: 'No blog post found.', status: 404 }
  return intent === 'approve' ? approvePost(userId, postId) : rejectPost(userId, postId)
}
