import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { landingPath } from '#app/lib/account-routing'
import { redeemOAuthCode } from '#app/server/google-auth.server'
import { signInAndRedirect } from '#app/server/session.server'

/**
 * /oauth-callback?token=<code>: signs the browser in and goes to /keywords (onboarding done) or /onboarding.
 * Only single-use codes minted by our own Google callback for this very browser in the last minute are accepted;
 * anything else goes back to /signin.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get('token')
  if (!token) return redirect('/signin')
  const { user, setCookie } = await redeemOAuthCode(request, token)
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  if (setCookie) headers.append('Set-Cookie', setCookie)
  if (!user) return redirect('/signin?error=link-expired', { headers })
  return signInAndRedirect(request, user.id, landingPath(user), headers)
}
