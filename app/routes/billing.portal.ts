import type { ActionFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { BILLING_MESSAGES } from '#app/features/billing/billing'
import { BillingError, createPortalSession } from '#app/features/billing/billing.server'
import { requireUserId } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'

/** 'Manage Payment' on the profile: a form post answered with a redirect to the Stripe Customer Portal. */
export async function action({ request }: ActionFunctionArgs) {
  const userId = await requireUserId(request)
  try {
    return redirect(await createPortalSession(userId), 303)
  } catch (error) {
    if (!(error instanceof BillingError)) console.error('[billing] portal failed', error)
    const message = error instanceof BillingError ? error.message : BILLING_MESSAGES.portalFailed
    return toast().redirectWithError('/profile', { message, duration: TOAST_MS }, { status: 303 })
  }
}

export function loader() {
  return redirect('/profile')
}
