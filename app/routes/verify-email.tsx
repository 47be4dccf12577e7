import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { ACCOUNT_MESSAGES } from '#app/features/accounts/account-schemas'
import { safeRedirect } from '#app/platform/security/redirect'
import { resendVerification, verifyEmail } from '#app/features/accounts/account-security.server'
import { getUser, requireUser } from '#app/features/accounts/session.server'
import { landingPath } from '#app/features/accounts/account-routing'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'

export const meta: MetaFunction = () => [
  { title: 'Verify your email | Rankwell' },
  { name: 'robots', content: 'noindex' },
]

/**
 * GET /verify-email?token=…&next=… : the link of the verification e-mail (single use, 24 hours). Continues where the
 * user was: `next` (a same-site path; anything else is ignored), or the onboarding while it is not done, with a toast
 * that says whether it worked. Signed out, the sign-in page, which then goes on to `next`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams
  const token = params.get('token') ?? ''
  const next = safeRedirect(params.get('next'), '')
  const verified = token ? await verifyEmail(token) : null
  const user = await getUser(request)
  const to = user
    ? landingPath(user, next || null)
    : next
      ? `/signin?${new URLSearchParams({ redirectTo: next })}`
      : '/signin'
  const headers = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }
  if (!verified)
    return toast().redirectWithError(to, { message: ACCOUNT_MESSAGES.badVerifyLink, duration: TOAST_MS }, { headers })
  return toast().redirectWithSuccess(to, { message: ACCOUNT_MESSAGES.verified, duration: TOAST_MS }, { headers })
}

/** The page a banner's request came from (its Referer, on this site), or null. */
function refererPath(request: Request): string | null {
  try {
    const referer = new URL(request.headers.get('Referer') ?? '')
    if (referer.host !== new URL(request.url).host) return null
    const back = safeRedirect(`${referer.pathname}${referer.search}`, '')
    return back || null
  } catch {
    return null
  }
}

/** POST /verify-email (the banner's button): sends a new link, then back to the page the banner was on. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  // The banner's page: where the new link continues to as well.
  const from = refererPath(request)
  const back = from ?? landingPath(user, null)
  if (user.emailVerifiedAt) return redirect(back, 303)
  const result = await resendVerification(user, from ?? undefined)
  if (result.ok)
    return toast().redirectWithSuccess(
      back,
      { message: ACCOUNT_MESSAGES.verificationSent, duration: TOAST_MS },
      { status: 303 },
    )
  const minutes = Math.max(1, Math.ceil((result.retryAfterSeconds ?? 60) / 60))
  const message = result.retryAfterSeconds
    ? `You asked for several links already. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`
    : 'We could not send the e-mail right now. Please try again in a few minutes.'
  return toast().redirectWithError(back, { message, duration: TOAST_MS }, { status: 303 })
}
