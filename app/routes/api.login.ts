import { json, type ActionFunctionArgs } from '@remix-run/node'
import { AUTH_MESSAGES, signInSchema } from '#app/features/accounts/account-schemas'
import { requestIpPrefix } from '#app/features/accounts/account-security.server'
import { apiError, issueApiToken, parseJson } from '#app/features/accounts/api-auth.server'
import { retryAfterHeaders, signIn } from '#app/features/accounts/auth.server'

/** POST /api/login {email, password} → {token, onboardingComplete, message}. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const input = await parseJson(request, signInSchema)
  const result = await signIn(request, input)
  if (!result.ok)
    return json({ message: result.message }, { status: result.status, headers: retryAfterHeaders(result) })
  const token = await issueApiToken(result.user, request.headers.get('user-agent'), requestIpPrefix(request))
  return json({ token, onboardingComplete: result.user.onboardingComplete, message: AUTH_MESSAGES.signedIn })
}

export const loader = () => apiError(405, 'Method not allowed.')
