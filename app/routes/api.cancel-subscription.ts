import type { ActionFunctionArgs } from '@remix-run/node'
import { json } from '@remix-run/node'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { BillingError, cancelSubscription } from '#app/features/billing/billing.server'

/** POST /api/cancel-subscription → {message}: cancels at the end of the current billing period. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request)
  try {
    const result = await cancelSubscription(userId)
    return json({ message: result.message, cancelAtPeriodEnd: true, endsAt: result.endsAt })
  } catch (error) {
    if (error instanceof BillingError) return apiError(error.status, error.message)
    throw error
  }
}

export function loader() {
  return apiError(405, 'Method not allowed.')
}
