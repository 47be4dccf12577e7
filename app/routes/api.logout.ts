import { json, type ActionFunctionArgs } from '@remix-run/node'
import { apiError, requireApiSession } from '#app/features/accounts/api-auth.server'
import { endSession } from '#app/features/accounts/account-security.server'

/** POST /api/logout → ends the session behind this request (the Bearer token's, or the cookie's): it stops working. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const { userId, sessionId } = await requireApiSession(request)
  await endSession(userId, sessionId)
  return json({ message: 'Signed out.' })
}

export const loader = () => apiError(405, 'Method not allowed.')
