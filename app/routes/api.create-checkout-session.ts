import type { ActionFunctionArgs } from '@remix-run/node'
import { json } from '@remix-run/node'
import { apiError, parseJson, requireApiUser } from '#app/features/accounts/api-auth.server'
import { BillingError, createCheckoutSession, planForPriceId } from '#app/features/billing/billing.server'
import { checkoutSchema } from '#app/features/billing/billing'

/** POST /api/create-checkout-session {priceId} → {sessionId, url}: a Stripe Checkout session for one of our plans. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const user = await requireApiUser(request)
  const { priceId } = await parseJson(request, checkoutSchema)
  const plan = planForPriceId(priceId)
  if (!plan)
    return apiError(400, 'Unknown price. Choose one of the plans on the pricing page.', {
      errors: { priceId: ['Unknown price.'] },
    })
  try {
    return json(await createCheckoutSession(user, plan))
  } catch (error) {
    if (error instanceof BillingError) {
      const res = apiError(error.status, error.message)
      if (error.retryAfterSeconds) res.headers.set('Retry-After', String(error.retryAfterSeconds))
      return res
    }
    throw error
  }
}

export function loader() {
  return apiError(405, 'Method not allowed.')
}
