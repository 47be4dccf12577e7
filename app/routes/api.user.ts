import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { apiUser } from '#app/features/billing/api-user.server'
import { deleteAccount } from '#app/features/accounts/account-data.server'
import { apiError, parseJson, requireApiSession, requireApiUser } from '#app/features/accounts/api-auth.server'
import { findSession } from '#app/features/accounts/session.server'
import { findUserById } from '#app/features/accounts/users.server'
import { cancelSubscriptionNow } from '#app/features/billing/billing.server'
import { revokeSearchConsoleGrant } from '#app/features/rankings/search-console.server'
import { apiDeleteAccountSchema } from '#app/features/accounts/account-schemas'
import { secondFactorRefusal } from '#app/features/accounts/second-factor-gates.server'

/** GET /api/user → the signed-in user's fields (profile, subscription, usage, Auto Pilot, onboarding). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  return json(await apiUser(user), { headers: { 'Cache-Control': 'no-store' } })
}

/**
 * DELETE /api/user {password} → 200: the account is deleted (a Stripe subscription is cancelled at once, every
 * session ends, a confirmation e-mail goes out). 400 for a wrong password; with two-step sign-in on, `code` too
 * (400 when missing, 401 when wrong).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'DELETE') return apiError(405, 'Method not allowed.')
  const { userId, sessionId } = await requireApiSession(request)
  const input = await parseJson(request, apiDeleteAccountSchema)
  const user = await findUserById(userId)
  if (!user) return apiError(403, 'User not found.')
  // Issue 34: with two-step sign-in on, a current code (or a recovery code) as `code`.
  const gate = await secondFactorRefusal(request, user.id, input.code)
  if (gate) return apiError(gate.status, gate.message, { errors: { code: [gate.message] } })
  const result = await deleteAccount(user, sessionId ? await findSession(sessionId) : null, input, {
    cancelSubscription: cancelSubscriptionNow,
    revokeSearchConsole: revokeSearchConsoleGrant,
  })
  if (!result.ok)
    return apiError(result.status, result.message, result.field ? { errors: { [result.field]: [result.message] } } : {})
  return json({ message: 'Your account has been deleted.' })
}
