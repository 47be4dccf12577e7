import { Form, useNavigation } from '@remix-run/react'

/**
 * Shown on every signed-in page while a renewal payment has failed and Stripe is retrying it: 'Update payment
 * method' is a form post to /billing/portal (the Stripe Customer Portal), so it works without JavaScript.
 */
export function PastDueBanner() {
  const navigation = useNavigation()
  const pending = navigation.state !== 'idle' && navigation.formAction === '/billing/portal'
  return (
    <div role="alert" className="border-b border-yellow-200 bg-yellow-50" data-testid="past-due-banner">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm text-yellow-900">
        <p>
          Your last payment failed. Update your payment method to keep Premium: Stripe will try again in the next days.
        </p>
        <Form method="post" action="/billing/portal">
          <button type="submit" className="btn-primary" disabled={pending} aria-busy={pending || undefined}>
            {pending ? 'Opening...' : 'Update payment method'}
          </button>
        </Form>
      </div>
    </div>
  )
}
