import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { apiError } from '#app/features/accounts/api-auth.server'
import { googleEnabled, startGoogleSignIn } from '#app/features/accounts/google-auth.server'

/** GET /api/auth/google: starts Google sign-in (redirects to Google's consent screen). */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!googleEnabled()) return redirect('/signin?error=google-unavailable')
  return startGoogleSignIn(request)
}

export const action = () => apiError(405, 'Method not allowed.')
