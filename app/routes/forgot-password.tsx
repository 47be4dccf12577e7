import { readForm } from '#app/platform/http/body.server'
import { json, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData } from '@remix-run/react'
import { AuthLayout } from '#app/features/accounts/components/auth-layout'
import { FormMessage } from '#app/ui/form-message'
import { Honeypot } from '#app/ui/honeypot'
import { HONEYPOT_FIELD } from '#app/platform/security/honeypot'
import { parseSubmission } from '#app/platform/forms/submission'
import { useSchemaForm } from '#app/ui/form'
import { EmailField } from '#app/features/accounts/components/account-fields'
import { SubmitButton } from '#app/ui/submit-button'
import { ACCOUNT_MESSAGES, AUTH_MESSAGES, forgotPasswordSchema } from '#app/features/accounts/account-schemas'
import { requestPasswordReset } from '#app/features/accounts/account-security.server'

export const meta: MetaFunction = () => [
  { title: 'Forgot password | Rankwell' },
  { name: 'description', content: 'Reset the password of your Rankwell account.' },
]

/** POST: sends a reset link when the account exists; the answer is the same either way. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request)
  const submission = parseSubmission(form, forgotPasswordSchema)
  if (form.get(HONEYPOT_FIELD))
    return json({ result: submission.reply({ formErrors: [AUTH_MESSAGES.generic] }) }, { status: 400 })
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 })
  const result = await requestPasswordReset(request, submission.value.email)
  if (!result.ok) {
    const minutes = Math.max(1, Math.ceil(result.retryAfterSeconds / 60))
    const message = `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`
    return json(
      { result: submission.reply({ formErrors: [message] }) },
      { status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds) } },
    )
  }
  return json({ result: submission.reply(), sent: ACCOUNT_MESSAGES.resetSent })
}

export default function ForgotPassword() {
  const data = useActionData<typeof action>()
  const { fields, formProps, message } = useSchemaForm({
    id: 'forgot-password',
    schema: forgotPasswordSchema,
    lastResult: data?.result,
  })
  const sent = data && 'sent' in data ? data.sent : undefined
  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter the address of your account and we will e-mail you a link to choose a new one."
      footer={
        <>
          Remembered it?{' '}
          <Link to="/signin" className="font-semibold text-brand-700 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <h2 className="mb-6 text-xl font-semibold">Reset your password</h2>
      <FormMessage message={message ?? sent} tone={message ? 'error' : 'success'} />
      <Form method="post" className="relative space-y-4" {...formProps}>
        <Honeypot />
        <EmailField meta={fields.email} />
        <SubmitButton className="btn-primary w-full" pendingText="Sending...">
          Send the reset link
        </SubmitButton>
      </Form>
    </AuthLayout>
  )
}
