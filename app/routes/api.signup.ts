import { json, type ActionFunctionArgs } from '@remix-run/node'
import { AUTH_MESSAGES, signUpSchema } from '#app/features/accounts/account-schemas'
import { requestIpPrefix } from '#app/features/accounts/account-security.server'
import { apiError, issueApiToken, parseJson } from '#app/features/accounts/api-auth.server'
import { retryAfterHeaders, signUp } from '#app/features/accounts/auth.server'
import { commonPasswordApiError } from '#app/features/accounts/second-factor-gates.server'

/** POST /api/signup {name, email, password} → 201 {token, message}. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const input = await parseJson(request, signUpSchema)
  const common = commonPasswordApiError('password', input.password) // issue 34
  if (common) return common
  const result = await signUp(request, input)
  if (!result.ok)
    return json({ message: result.message }, { status: result.status, headers: retryAfterHeaders(result) })
  const token = await issueApiToken(result.user, request.headers.get('user-agent'), requestIpPrefix(request))
  return json({ token, message: AUTH_MESSAGES.signedUp }, { status: 201 })
}

export const loader = () => apiError(405, 'Method not allowed.')
