import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { apiError } from '#app/server/api.server'
import { googleEnabled, startGoogleSignIn } from '#app/server/google-auth.server'

/** GET /api/auth/google: starts Google sign-in (redirects to Google's consent screen). */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!googleEnabled()) return redirect('/signin?error=google-unavailable')
  return startGoogleSignIn(request)
}

export const action = () => apiError(405, 'Method not allowed.')
