import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { confirmCheckout } from '#app/features/billing/billing.server'
import { requireUser } from '#app/features/accounts/session.server'

const NEXT = '/keywords'
const DELAY_SECONDS = 3
/** While a payment is being confirmed the page checks again every few seconds, for about three minutes. */
const RECHECK_SECONDS = 5
const MAX_CHECKS = 36

export const CHECKOUT_NOT_FOUND = {
  title: 'We could not find that checkout',
  text: 'The link may be incomplete, or the checkout has expired or belongs to another account. If you have just paid, your plan appears on your profile within a few minutes; you are never charged twice.',
} as const

/**
 * 'Subscription Successful!' then on to /keywords, or 'We are confirming your payment…' that checks again by
 * itself: both are meta refreshes, so they work without JavaScript.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: 'Checkout · Rankwell' }]
  if (data.state === 'not-found') return [{ title: 'Checkout not found · Rankwell' }]
  if (data.state === 'complete')
    return [
      { title: 'Subscription Successful! · Rankwell' },
      { httpEquiv: 'refresh', content: `${DELAY_SECONDS};url=${NEXT}` },
    ]
  if (data.next)
    return [
      { title: 'Confirming your payment · Rankwell' },
      { httpEquiv: 'refresh', content: `${RECHECK_SECONDS};url=${data.next}` },
    ]
  return [{ title: 'Confirming your payment · Rankwell' }]
}

/**
 * Stripe Checkout returns here with the session id. The success message appears only once Stripe confirms that the
 * session is this user's and complete (or, while Stripe cannot be reached, once its webhook has recorded it).
 * Without a session id it goes to /pricing (the spec). A session that is not this user's, does not exist or has
 * expired ends at once with a clear page (404) that says so and what to do (issue 35: never waiting forever, never a
 * silent redirect away from a checkout the user just made); a session Stripe cannot confirm yet ends, after its
 * checks, with what happens next.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const url = new URL(request.url)
  const sessionId = url.searchParams.get('session_id')?.trim()
  const headers = { 'Cache-Control': 'no-store' }
  const notFound = () => json({ state: 'not-found' as const, next: null }, { status: 404, headers })
  if (!sessionId) return redirect('/pricing')
  const check = Math.min(Math.max(Number.parseInt(url.searchParams.get('check') ?? '0', 10) || 0, 0), MAX_CHECKS)
  const result = await confirmCheckout(user.id, sessionId)
  if (result === 'invalid') return notFound()
  if (result === 'complete') return json({ state: 'complete' as const, next: null }, { headers })
  const next =
    check < MAX_CHECKS
      ? `/checkout-success?${new URLSearchParams({ session_id: sessionId, check: String(check + 1) })}`
      : null
  return json({ state: 'confirming' as const, next }, { headers })
}

export default function CheckoutSuccess() {
  const { state, next } = useLoaderData<typeof loader>()
  if (state === 'not-found') {
    return (
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        <div className="card" data-testid="checkout-not-found">
          <h1 className="text-3xl font-bold text-slate-900">{CHECKOUT_NOT_FOUND.title}</h1>
          <p className="mt-4 text-slate-700">{CHECKOUT_NOT_FOUND.text}</p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link to="/pricing" className="btn-primary">
              Choose a plan
            </Link>
            <Link to="/profile" className="btn-secondary">
              Open your profile
            </Link>
          </div>
        </div>
      </div>
    )
  }
  if (state === 'confirming') {
    return (
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        <div className="card" role="status" aria-live="polite">
          <h1 className="text-3xl font-bold text-slate-900">We are confirming your payment…</h1>
          {next ? (
            <p className="mt-4 text-slate-700">
              This usually takes a few seconds. This page checks again by itself; there is nothing more to do.
            </p>
          ) : (
            <p className="mt-4 text-slate-700" data-testid="confirming-later">
              Stripe has not confirmed your payment yet. If you paid, your plan appears on your profile as soon as it
              does; you will not be charged twice.
            </p>
          )}
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            {next ? (
              <Link to={next} className="btn-primary">
                Check again
              </Link>
            ) : null}
            <Link to="/profile" className="btn-secondary">
              Go to your profile
            </Link>
          </div>
        </div>
      </div>
    )
  }
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center">
      <div className="card">
        <p
          aria-hidden="true"
          className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-green-100 text-2xl text-green-700"
        >
          ✓
        </p>
        <h1 className="mt-4 text-3xl font-bold text-slate-900">Subscription Successful!</h1>
        <p className="mt-4 text-slate-700">Your subscription is now active. Thank you for subscribing!</p>
        <p className="mt-6 text-sm text-slate-600">Taking you to your keyword ideas…</p>
        <Link to={NEXT} className="btn-primary mt-4">
          Continue to Keyword Ideas
        </Link>
      </div>
    </div>
  )
}
