import { readForm } from '#app/platform/http/body.server'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { AuthLayout } from '#app/features/accounts/components/auth-layout'
import { FormMessage } from '#app/ui/form-message'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { useSchemaForm } from '#app/ui/form'
import { PasswordField, useForgetPasswords } from '#app/features/accounts/components/account-fields'
import { SubmitButton } from '#app/ui/submit-button'
import { ACCOUNT_MESSAGES, resetPasswordSchema, takeoverMessage } from '#app/features/accounts/account-schemas'
import { reclaimLeftovers } from '#app/features/publishing/reclaim.server'
import { resetPassword, resetTokenIsLive } from '#app/features/accounts/account-security.server'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'

export const meta: MetaFunction = () => [
  { title: 'Choose a new password | Rankwell' },
  { name: 'robots', content: 'noindex' },
]

const noStore = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }

/** GET /reset-password?token=… : the form, when the link is still good (it is used only by the POST). */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? ''
  return json({ token, live: await resetTokenIsLive(token) }, { headers: noStore })
}

type ActionData = { result: SubmissionResult<string[]>; expired?: boolean }

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseSubmission(await readForm(request), resetPasswordSchema)
  // The page keeps the token from its loader; the answer repeats neither secret.
  const hideFields = ['password', 'token']
  if (submission.status !== 'success')
    return json<ActionData>({ result: submission.reply({ hideFields }) }, { status: 400, headers: noStore })
  const result = await resetPassword(request, submission.value.token, submission.value.password, reclaimLeftovers)
  if (result.ok)
    return toast().redirectWithSuccess(
      '/signin',
      { message: takeoverMessage('reset', result.reclaimed), duration: TOAST_MS },
      { status: 303 },
    )
  if (result.status === 429)
    return json<ActionData>(
      {
        result: submission.reply({
          formErrors: ['Too many attempts. Please wait a few minutes and try again.'],
          hideFields,
        }),
      },
      { status: 429, headers: { ...noStore, 'Retry-After': String(result.retryAfterSeconds ?? 60) } },
    )
  return json<ActionData>(
    { result: submission.reply({ formErrors: [ACCOUNT_MESSAGES.badResetLink], hideFields }), expired: true },
    { status: 400, headers: noStore },
  )
}

export default function ResetPassword() {
  const { token, live } = useLoaderData<typeof loader>()
  const data = useActionData<typeof action>()
  const { fields, formProps, message } = useSchemaForm({
    id: 'reset-password',
    schema: resetPasswordSchema,
    lastResult: data?.result,
  })
  useForgetPasswords(formProps.id, data?.result)
  const usable = live && !data?.expired
  return (
    <AuthLayout
      title="Choose a new password"
      subtitle="Signing in with the new password ends every other session of your account."
      footer={
        <Link to="/forgot-password" className="font-semibold text-brand-700 hover:underline">
          Ask for a new link
        </Link>
      }
    >
      <h2 className="mb-6 text-xl font-semibold">Reset your password</h2>
      <FormMessage message={usable ? message : (message ?? ACCOUNT_MESSAGES.badResetLink)} tone="error" />
      {usable ? (
        <Form method="post" className="space-y-4" {...formProps}>
          <input type="hidden" name={fields.token.name} value={token} />
          <PasswordField purpose="new" label="New password" meta={fields.password} />
          <SubmitButton className="btn-primary w-full" pendingText="Saving...">
            Save the new password
          </SubmitButton>
        </Form>
      ) : null}
    </AuthLayout>
  )
}
