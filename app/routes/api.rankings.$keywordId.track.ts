import { json, type ActionFunctionArgs } from '@remix-run/node'
import { RANKINGS_MESSAGES } from '#app/features/rankings/rankings'
import { enqueueRankingsTick } from '#app/features/rankings/jobs/rankings.server'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { isUuid } from '#app/platform/security/ids'
import { capabilities } from '#app/platform/capabilities.server'
import { starSavedKeyword, unstar } from '#app/features/rankings/rankings.server'

/**
 * POST /api/rankings/:keywordId/track stars a saved keyword (201 with the tracked keyword's id; 403 over the plan's
 * limit); DELETE removes the star (a tracked keyword id or a saved keyword id; a published post's keyword stays
 * tracked).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const userId = await requireApiUserId(request)
  const keywordId = params.keywordId ?? ''
  if (!isUuid(keywordId))
    throw apiError(400, 'keywordId must be a keyword id.', { errors: { keywordId: ['Invalid id.'] } })
  if (request.method === 'POST') {
    const result = await starSavedKeyword(userId, keywordId)
    if (!result.ok) {
      if (result.reason === 'not_found') throw apiError(404, RANKINGS_MESSAGES.notFound)
      throw apiError(403, RANKINGS_MESSAGES.limit(result.limit), { limit: result.limit })
    }
    await enqueueRankingsTick().catch(() => undefined)
    return json(
      {
        id: result.id,
        tracked: true,
        message: capabilities().rankTracking ? RANKINGS_MESSAGES.tracked : RANKINGS_MESSAGES.trackedWithoutChecks,
      },
      { status: 201 },
    )
  }
  if (request.method === 'DELETE') {
    const result = await unstar(userId, keywordId)
    if (!result.ok) throw apiError(404, RANKINGS_MESSAGES.notFound)
    return json({ tracked: result.stillTracked, message: RANKINGS_MESSAGES.untracked })
  }
  throw apiError(405, 'Method not allowed.')
}

export const loader = () => apiError(405, 'Method not allowed.')
