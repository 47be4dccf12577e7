import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { landingPath } from '#app/features/accounts/account-routing'
import { takeoverMessage } from '#app/features/accounts/account-schemas'
import { redeemOAuthCode } from '#app/features/accounts/google-auth.server'
import { signInAndRedirect } from '#app/features/accounts/session.server'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'

/**
 * /oauth-callback?token=<code>: signs the browser in and goes to /keywords (onboarding done) or /onboarding.
 * Only single-use codes minted by our own Google callback for this very browser in the last minute are accepted;
 * anything else goes back to /signin.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const token = url.searchParams.get('token')
  if (!token) return redirect('/signin')
  const { user, setCookie, reclaimed } = await redeemOAuthCode(request, token)
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  if (setCookie) headers.append('Set-Cookie', setCookie)
  if (!user) return redirect('/signin?error=link-expired', { headers })
  const signedIn = await signInAndRedirect(request, user.id, landingPath(user), headers)
  if (url.searchParams.get('notice') !== 'account-secured') return signedIn
  // Google proved the address of an account nobody had verified: it is now this person's alone. Say so, and what
  // whoever created it had left and was removed.
  return toast().redirectWithInfo(
    signedIn.headers.get('Location') ?? '/',
    { message: takeoverMessage('google', reclaimed), duration: TOAST_MS },
    { headers: signedIn.headers },
  )
}
