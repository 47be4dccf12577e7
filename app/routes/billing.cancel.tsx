import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { SubmitButton } from '#app/ui/submit-button'
import { BILLING_MESSAGES, cancelConfirmMessage, formatShortDate } from '#app/features/billing/billing'
import { BillingError, cancelSubscription } from '#app/features/billing/billing.server'
import { getUsageSummary } from '#app/features/billing/quota.server'
import { requireUserId } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'

export const meta: MetaFunction = () => [{ title: 'Cancel Subscription · Rankwell' }]

/** The confirm step of 'Cancel Subscription' when JavaScript is off (with it, the profile card asks in a dialog). */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request)
  const summary = await getUsageSummary(userId)
  if (summary.status !== 'active' || summary.cancelAtPeriodEnd) throw redirect('/profile')
  return json({ endsOn: formatShortDate(summary.renewalDate) })
}

/** Cancels at period end, then back to the profile (which re-reads the user) with the outcome as a toast. */
export async function action({ request }: ActionFunctionArgs) {
  const userId = await requireUserId(request)
  try {
    const result = await cancelSubscription(userId)
    const endsOn = formatShortDate(result.endsAt)
    return toast().redirectWithSuccess(
      '/profile',
      {
        message: result.message,
        description: endsOn ? `Premium stays active until ${endsOn}.` : undefined,
        duration: TOAST_MS,
      },
      { status: 303 },
    )
  } catch (error) {
    if (!(error instanceof BillingError)) console.error('[billing] cancel failed', error)
    const message = error instanceof BillingError ? error.message : BILLING_MESSAGES.cancelFailed
    return toast().redirectWithError('/profile', { message, duration: TOAST_MS }, { status: 303 })
  }
}

export default function CancelSubscription() {
  const { endsOn } = useLoaderData<typeof loader>()
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <div className="card" role="dialog" aria-labelledby="cancel-title" aria-describedby="cancel-message">
        <h1 id="cancel-title" className="text-xl font-semibold text-slate-900">
          Cancel Subscription
        </h1>
        <p id="cancel-message" className="mt-3 text-slate-700">
          {cancelConfirmMessage(endsOn)}
        </p>
        <Form method="post" className="mt-6 flex justify-end gap-3">
          <Link to="/profile" className="btn-secondary">
            Close
          </Link>
          <SubmitButton className="btn-danger" pendingText="Canceling...">
            Cancel Subscription
          </SubmitButton>
        </Form>
      </div>
    </div>
  )
}
