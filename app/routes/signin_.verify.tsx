import { readForm } from '#app/platform/http/body.server'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData } from '@remix-run/react'
import { AuthLayout } from '#app/features/accounts/components/auth-layout'
import { SecondFactorCodeField } from '#app/features/accounts/components/second-factor-card'
import { FormMessage } from '#app/ui/form-message'
import { SubmitButton } from '#app/ui/submit-button'
import { useSchemaForm } from '#app/ui/form'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { ACCOUNT_MESSAGES, AUTH_MESSAGES, signInCodeSchema } from '#app/features/accounts/account-schemas'
import { landingPath } from '#app/features/accounts/account-routing'
import { browserSessionHeaders } from '#app/features/accounts/auth.server'
import {
  checkSecondFactorCode,
  clearPendingSignIn,
  readPendingSignIn,
} from '#app/features/accounts/second-factor.server'
import { findUserById } from '#app/features/accounts/users.server'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'

/**
 * /signin/verify (issue 34): the sign-in's second step. The password (or Google) was right and left a signed pending
 * cookie of five minutes; no session exists until the authenticator app's code (or a recovery code) is right here.
 * Wrong codes count in the same kind of lockout as wrong passwords (per client, per account, or per known device).
 */
export const meta: MetaFunction = () => [
  { title: 'Two-step sign-in | Rankwell' },
  { name: 'robots', content: 'noindex' },
]

const noStore = { 'Cache-Control': 'no-store' }
const expired = () => redirect('/signin?error=code-expired', { headers: noStore })

export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await readPendingSignIn(request))) return expired()
  return json(null, { headers: noStore })
}

type ActionData = { result: SubmissionResult<string[]> }

export async function action({ request }: ActionFunctionArgs) {
  const pending = await readPendingSignIn(request)
  if (!pending) return expired()
  const submission = parseSubmission(await readForm(request), signInCodeSchema)
  const hideFields = ['code']
  if (submission.status !== 'success')
    return json<ActionData>({ result: submission.reply({ hideFields }) }, { status: 400, headers: noStore })
  const check = await checkSecondFactorCode(request, pending.userId, submission.value.code, { context: 'signIn' })
  if (!check.ok) {
    const refusal = check.status === 429 ? { formErrors: [check.message] } : { fieldErrors: { code: [check.message] } }
    return json<ActionData>(
      { result: submission.reply({ ...refusal, hideFields }) },
      {
        status: check.status,
        headers: { ...noStore, ...(check.retryAfterSeconds ? { 'Retry-After': String(check.retryAfterSeconds) } : {}) },
      },
    )
  }
  const user = await findUserById(pending.userId)
  if (!user) return expired()
  const headers = await browserSessionHeaders(request, user.id)
  headers.append('Set-Cookie', await clearPendingSignIn())
  const to = landingPath(user, pending.redirectTo)
  if (pending.notice === 'account-secured')
    return toast().redirectWithInfo(to, { message: ACCOUNT_MESSAGES.accountSecured, duration: TOAST_MS }, { headers })
  return toast().redirectWithSuccess(to, { message: AUTH_MESSAGES.signedIn, duration: TOAST_MS }, { headers })
}

export default function SignInVerify() {
  const data = useActionData<typeof action>()
  const { fields, formProps, message } = useSchemaForm({
    id: 'signin-verify',
    schema: signInCodeSchema,
    lastResult: data?.result,
  })
  return (
    <AuthLayout
      title="Two-step sign-in"
      subtitle="One more step: the code from your authenticator app."
      footer={
        <Link to="/signin" className="font-semibold text-brand-700 hover:underline">
          Start again
        </Link>
      }
    >
      <h2 className="mb-6 text-xl font-semibold">Enter your code</h2>
      <FormMessage message={message} tone="error" />
      <Form method="post" className="space-y-4" aria-label="Two-step sign-in" {...formProps}>
        <SecondFactorCodeField meta={fields.code} recovery autoFocus />
        <SubmitButton className="btn-primary w-full" pendingText="Checking...">
          Verify
        </SubmitButton>
      </Form>
    </AuthLayout>
  )
}
