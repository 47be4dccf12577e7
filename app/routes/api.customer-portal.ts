import type { LoaderFunctionArgs } from '@remix-run/node'
import { json } from '@remix-run/node'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { BillingError, createPortalSession } from '#app/features/billing/billing.server'

/** GET /api/customer-portal → {url}: a Stripe Customer Portal session; the client navigates there. */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  try {
    return json({ url: await createPortalSession(userId) })
  } catch (error) {
    if (error instanceof BillingError) return apiError(error.status, error.message)
    throw error
  }
}
