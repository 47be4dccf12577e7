import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { confirmCheckout } from '#app/server/billing.server'
import { requireUser } from '#app/server/session.server'
import { toast, TOAST_MS } from '#app/server/toast.server'

const NEXT = '/keywords'
const DELAY_SECONDS = 3

/** Shows the spec's copy, then goes on to /keywords by itself (a meta refresh, so it works without JavaScript). */
export const meta: MetaFunction = () => [
  { title: 'Subscription Successful! · Rankwell' },
  { httpEquiv: 'refresh', content: `${DELAY_SECONDS};url=${NEXT}` },
]

/**
 * Stripe Checkout returns here with the session id. Without one, or with a session that is not this user's,
 * the user goes back to /pricing. A paid session is applied at once (the webhook may still be on its way).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const sessionId = new URL(request.url).searchParams.get('session_id')?.trim()
  if (!sessionId) throw redirect('/pricing')
  const result = await confirmCheckout(user.id, sessionId)
  if (result === 'invalid') {
    throw await toast().redirectWithError('/pricing', {
      message: 'We could not find that checkout. Please choose a plan again.',
      duration: TOAST_MS,
    })
  }
  if (result === 'open') {
    throw await toast().redirectWithError('/pricing', {
      message: 'Your checkout was not completed. Please choose a plan to continue.',
      duration: TOAST_MS,
    })
  }
  return json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } })
}

export default function CheckoutSuccess() {
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
