import type { ActionFunctionArgs } from '@remix-run/node'
import { json } from '@remix-run/node'
import { readText } from '#app/platform/http/body.server'
import { handleStripeWebhook } from '#app/features/billing/billing.server'

/**
 * Stripe webhooks. The raw body is verified against STRIPE_WEBHOOK_SECRET; a bad or stale signature gets 400 and
 * changes nothing. Exempt from the cookie origin check (app/server/security.server.ts): it is authenticated by signature.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST')
    return json({ message: 'Method not allowed.' }, { status: 405, headers: { Allow: 'POST' } })
  const payload = await readText(request)
  try {
    const result = await handleStripeWebhook(payload, request.headers.get('stripe-signature'))
    return json(result.body, { status: result.status })
  } catch (error) {
    // Nothing was stored (the event id is written in the same transaction), so Stripe's retry applies it later.
    console.error('[billing] webhook failed', error instanceof Error ? error.message : error)
    return json({ message: 'The event could not be processed. Stripe will retry it.' }, { status: 500 })
  }
}

export function loader() {
  return json({ message: 'Method not allowed.' }, { status: 405, headers: { Allow: 'POST' } })
}
