import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { ACCOUNT_MESSAGES } from '#app/features/accounts/account-schemas'
import { safeRedirect } from '#app/platform/security/redirect'
import { resendVerification, verifyEmail } from '#app/features/accounts/account-security.server'
import { getUserId, requireUser } from '#app/features/accounts/session.server'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'

export const meta: MetaFunction = () => [
  { title: 'Verify your email | Rankwell' },
  { name: 'robots', content: 'noindex' },
]

/**
 * GET /verify-email?token=… : the link of the verification e-mail (single use, 24 hours). Goes on to the app (or
 * to /signin) with a toast that says whether it worked.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? ''
  const user = token ? await verifyEmail(token) : null
  const signedIn = Boolean(await getUserId(request))
  const to = signedIn ? '/profile' : '/signin'
  const headers = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }
  if (!user)
    return toast().redirectWithError(to, { message: ACCOUNT_MESSAGES.badVerifyLink, duration: TOAST_MS }, { headers })
  return toast().redirectWithSuccess(to, { message: ACCOUNT_MESSAGES.verified, duration: TOAST_MS }, { headers })
}

/** POST /verify-email (the banner's button): sends a new link, then back to the page the banner was on. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  let back = '/profile'
  try {
    const referer = new URL(request.headers.get('Referer') ?? '')
    if (referer.host === new URL(request.url).host) back = safeRedirect(`${referer.pathname}${referer.search}`, back)
  } catch {
    /* no usable Referer: /profile */
  }
  if (user.emailVerifiedAt) return redirect(back, 303)
  const result = await resendVerification(user)
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
