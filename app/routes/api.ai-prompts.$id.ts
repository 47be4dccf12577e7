import { json, type ActionFunctionArgs } from '@remix-run/node'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { removePrompt } from '#app/features/visibility/prompts.server'
import { PROMPT_MESSAGES } from '#app/features/visibility/settings'

/** DELETE /api/ai-prompts/:id → {message}: removes an active prompt or a suggestion, and its figures; 404 when not yours. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'DELETE') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request)
  const removed = await removePrompt(userId, params.id ?? '')
  if (!removed) return apiError(404, 'Prompt not found.')
  return json({ message: PROMPT_MESSAGES.removed })
}
