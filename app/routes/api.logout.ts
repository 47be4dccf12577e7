import { json, type ActionFunctionArgs } from '@remix-run/node'
import { apiError, requireApiSession } from '#app/features/accounts/api-auth.server'
import { API_KEY_MESSAGES } from '#app/features/accounts/api-keys'
import { endSession } from '#app/features/accounts/account-security.server'

/**
 * POST /api/logout → ends the session behind this request (the Bearer token's, or the cookie's): it stops working.
 * A personal API key is not a session: 400, and the key keeps working (it is revoked on /profile; decision 0380).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const { userId, sessionId } = await requireApiSession(request)
  if (!sessionId) return apiError(400, API_KEY_MESSAGES.logoutWithKey)
  await endSession(userId, sessionId)
  return json({ message: 'Signed out.' })
}

export const loader = () => apiError(405, 'Method not allowed.')
