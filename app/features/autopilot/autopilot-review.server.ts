import { isUuid } from '#app/platform/security/ids'
import { listDestinations, toView } from '#app/features/publishing/destinations.server'
import { approvePost, listWaitingDrafts, rejectPost, reviewSettingsOf } from '#app/features/publishing/review.server'

/** What /autopilot shows of publishing: review settings, drafts waiting for review, destinations (and pauses). */
export async function publishingOverview(userId: string) {
  const [settings, waiting, destinations] = await Promise.all([
    reviewSettingsOf(userId),
    listWaitingDrafts(userId),
    listDestinations(userId),
  ])
  return { settings, waiting, destinations: destinations.map(toView) }
}

export type ReviewActionResult = { ok: true; message: string } | { ok: false; message: string; status: number }

/** The review buttons of /autopilot: approve (now) or reject a waiting draft. */
export async function reviewAction(
  userId: string,
  intent: 'approve' | 'reject',
  form: FormData,
): Promise<ReviewActionResult> {
  const postId = String(form.get('postId') ?? '')
  if (!isUuid(postId)) return { ok: false, message: 'No blog post found.', status: 404 }
  return intent === 'approve' ? approvePost(userId, postId) : rejectPost(userId, postId)
}
