import { readForm } from '#app/platform/http/body.server'
import { json, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData } from '@remix-run/react'
import { AuthLayout } from '#app/features/accounts/components/auth-layout'
import { FormMessage } from '#app/ui/form-message'
import { Honeypot } from '#app/ui/honeypot'
import { HONEYPOT_FIELD } from '#app/platform/security/honeypot'
import { describeErrors, type FieldErrors } from '#app/platform/forms/field-errors'
import { EmailField } from '#app/features/accounts/components/account-fields'
import { SubmitButton } from '#app/ui/submit-button'
import { ACCOUNT_MESSAGES, forgotPasswordSchema, formFields } from '#app/features/accounts/account-schemas'
import { requestPasswordReset } from '#app/features/accounts/account-security.server'

export const meta: MetaFunction = () => [
  { title: 'Forgot password | Rankwell' },
  { name: 'description', content: 'Reset the password of your Rankwell account.' },
]

type ActionData = { sent: boolean; message: string; errors: FieldErrors; values: { email: string } }

/** POST: sends a reset link when the account exists; the answer is the same either way. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request)
  const fields = formFields(form, ['email'] as const)
  const values = { email: fields.email ?? '' }
  if (form.get(HONEYPOT_FIELD))
    return json<ActionData>({ sent: false, message: 'An error occurred.', errors: {}, values }, { status: 400 })
  const parsed = forgotPasswordSchema.safeParse(fields)
  if (!parsed.success)
    return json<ActionData>({ sent: false, ...describeErrors(parsed.error), values }, { status: 400 })
  const result = await requestPasswordReset(request, parsed.data.email)
  if (!result.ok) {
    const minutes = Math.max(1, Math.ceil(result.retryAfterSeconds / 60))
    return json<ActionData>(
      {
        sent: false,
        message: `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
        errors: {},
        values,
      },
      { status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds) } },
    )
  }
  return json<ActionData>({ sent: true, message: ACCOUNT_MESSAGES.resetSent, errors: {}, values })
}

export default function ForgotPassword() {
  const data = useActionData<typeof action>()
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
      <FormMessage message={data?.message} tone={data?.sent ? 'success' : 'error'} />
      <Form method="post" className="relative space-y-4">
        <Honeypot />
        <EmailField defaultValue={data?.values.email} error={data?.errors.email} />
        <SubmitButton className="btn-primary w-full" pendingText="Sending...">
          Send the reset link
        </SubmitButton>
      </Form>
    </AuthLayout>
  )
}
