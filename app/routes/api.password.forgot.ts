import { json, type ActionFunctionArgs } from '@remix-run/node'
import { ACCOUNT_MESSAGES, forgotPasswordSchema } from '#app/features/accounts/account-schemas'
import { requestPasswordReset } from '#app/features/accounts/account-security.server'
import { apiError, parseJson } from '#app/features/accounts/api-auth.server'

/** POST /api/password/forgot {email} → 200 {message}, the same whether or not the account exists; 429 when limited. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const { email } = await parseJson(request, forgotPasswordSchema)
  const result = await requestPasswordReset(request, email)
  if (!result.ok)
    return json(
      { message: 'Too many attempts. Please wait a few minutes and try again.' },
      { status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds) } },
    )
  return json({ message: ACCOUNT_MESSAGES.resetSent })
}

export const loader = () => apiError(405, 'Method not allowed.')
