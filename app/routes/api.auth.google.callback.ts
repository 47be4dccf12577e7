import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { apiError } from '#app/features/accounts/api-auth.server'
import { finishGoogleSignIn, googleEnabled } from '#app/features/accounts/google-auth.server'
import { reclaimLeftovers } from '#app/features/publishing/reclaim.server'

/**
 * GET /api/auth/google/callback: Google's redirect back; continues at /oauth-callback with a single-use code. A
 * takeover of an unverified account removes what whoever created it set up (`reclaimLeftovers`, issue 34).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!googleEnabled()) return redirect('/signin?error=google-unavailable')
  const result = await finishGoogleSignIn(request, reclaimLeftovers)
  const headers = { 'Set-Cookie': result.setCookie, 'Cache-Control': 'no-store' }
  return result.ok ? redirect(result.to, { headers }) : redirect(`/signin?error=${result.error}`, { headers })
}

export const action = () => apiError(405, 'Method not allowed.')
