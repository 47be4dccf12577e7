import { Form } from '@remix-run/react'
import { SubmitButton } from '#app/ui/submit-button'

/** Shown on every signed-in page until the account's address is verified; the button sends a new link. */
export function VerifyEmailBanner({ email }: { email: string }) {
  return (
    <div role="status" data-testid="verify-banner" className="border-b border-amber-200 bg-amber-50">
      <Form
        method="post"
        action="/verify-email"
        className="mx-auto flex max-w-6xl flex-wrap items-center gap-3 px-4 py-2 text-sm text-amber-900"
      >
        <p className="flex-1">
          Please verify your email address: we sent a link to <strong>{email}</strong>. Until then Auto Pilot cannot
          publish.
        </p>
        <SubmitButton intent="resend" className="btn-secondary py-1 text-sm" pendingText="Sending...">
          Resend the link
        </SubmitButton>
      </Form>
    </div>
  )
}
