import { json, type ActionFunctionArgs } from '@remix-run/node'
import { ACCOUNT_MESSAGES, resetPasswordSchema, takeoverMessage } from '#app/features/accounts/account-schemas'
import { reclaimLeftovers } from '#app/features/publishing/reclaim.server'
import { resetPassword } from '#app/features/accounts/account-security.server'
import { apiError, parseJson } from '#app/features/accounts/api-auth.server'

/**
 * POST /api/password/reset {token, password} → 200 {message}: the password is set and every session and API token
 * of the account has ended (sign in again). When nobody had verified the account (its owner takes it over), `removed`
 * says what whoever created it had left and was removed (issue 34), and the message lists it. 400 for a link that is unknown, expired or used.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const input = await parseJson(request, resetPasswordSchema)
  const result = await resetPassword(request, input.token, input.password, reclaimLeftovers)
  if (result.ok)
    return json({
      message: takeoverMessage('reset', result.reclaimed),
      ...(result.reclaimed ? { removed: result.reclaimed } : {}),
    })
  if (result.status === 429)
    return json(
      { message: 'Too many attempts. Please wait a few minutes and try again.' },
      { status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds ?? 60) } },
    )
  return apiError(400, ACCOUNT_MESSAGES.badResetLink, { errors: { token: [ACCOUNT_MESSAGES.badResetLink] } })
}

export const loader = () => apiError(405, 'Method not allowed.')
