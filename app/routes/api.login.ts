import { json, type ActionFunctionArgs } from '@remix-run/node'
import { AUTH_MESSAGES, apiLoginSchema, SECOND_FACTOR_MESSAGES } from '#app/features/accounts/account-schemas'
import { requestIpPrefix } from '#app/features/accounts/account-security.server'
import { apiError, issueApiToken, parseJson } from '#app/features/accounts/api-auth.server'
import { retryAfterHeaders, signIn } from '#app/features/accounts/auth.server'
import { checkSecondFactorCode, secondFactorEnabled } from '#app/features/accounts/second-factor.server'

/**
 * POST /api/login {email, password, code?} → {token, onboardingComplete, message}. With two-step sign-in on (issue
 * 34), `code` (the authenticator app's 6-digit code, or a recovery code) is required: without it, or with a wrong one,
 * 401 `{message, mfaRequired: true}` (and `errors.code` for a wrong one); no token is issued before it is right.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const input = await parseJson(request, apiLoginSchema)
  const result = await signIn(request, input)
  if (!result.ok)
    return json({ message: result.message }, { status: result.status, headers: retryAfterHeaders(result) })
  if (await secondFactorEnabled(result.user.id)) {
    if (!input.code) return apiError(401, SECOND_FACTOR_MESSAGES.mfaRequired, { mfaRequired: true })
    const check = await checkSecondFactorCode(request, result.user.id, input.code, { context: 'signIn' })
    if (!check.ok)
      return json(
        { message: check.message, mfaRequired: true, errors: { code: [check.message] } },
        {
          status: check.status === 429 ? 429 : 401,
          headers: check.retryAfterSeconds ? { 'Retry-After': String(check.retryAfterSeconds) } : {},
        },
      )
  }
  const token = await issueApiToken(result.user, request.headers.get('user-agent'), requestIpPrefix(request))
  return json({ token, onboardingComplete: result.user.onboardingComplete, message: AUTH_MESSAGES.signedIn })
}

export const loader = () => apiError(405, 'Method not allowed.')
