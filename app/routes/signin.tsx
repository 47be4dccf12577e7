import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { AuthLayout, FormMessage, GoogleLink, Honeypot, HONEYPOT_FIELD, OrDivider } from '#app/components/auth-layout'
import { Field } from '#app/components/ui/field'
import { SubmitButton } from '#app/components/ui/submit-button'
import { AUTH_MESSAGES, describeErrors, formFields, signInSchema, type FieldErrors } from '#app/lib/account-schemas'
import { landingPath, signInErrorMessage } from '#app/lib/account-routing'
import { safeRedirect } from '#app/lib/redirect'
import type { RootData } from '#app/root'
import { browserSessionCookie, retryAfterHeaders, signIn } from '#app/server/auth.server'
import { googleEnabled } from '#app/server/google-auth.server'
import { getUser } from '#app/server/session.server'
import { TOAST_MS, toast } from '#app/server/toast.server'

export const meta: MetaFunction = () => [
  { title: 'Sign in | Rankwell' },
  { name: 'description', content: 'Sign in to Rankwell and continue your SEO automation journey.' },
]

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '')
  const user = await getUser(request)
  if (user) return redirect(landingPath(user, redirectTo))
  return json({ googleEnabled: googleEnabled(), error: signInErrorMessage(url.searchParams.get('error')), redirectTo })
}

type ActionData = { message: string; errors: FieldErrors; values: { email: string } }

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData()
  const fields = formFields(form, ['email', 'password', 'redirectTo'] as const)
  const values = { email: fields.email ?? '' }
  if (form.get(HONEYPOT_FIELD)) return json<ActionData>({ message: AUTH_MESSAGES.generic, errors: {}, values }, { status: 400 })
  const parsed = signInSchema.safeParse(fields)
  if (!parsed.success) return json<ActionData>({ ...describeErrors(parsed.error), values }, { status: 400 })
  const result = await signIn(request, parsed.data)
  if (!result.ok) {
    return json<ActionData>({ message: result.message, errors: {}, values }, { status: result.status, headers: retryAfterHeaders(result) })
  }
  const cookie = await browserSessionCookie(request, result.user.id)
  return toast().redirectWithSuccess(
    landingPath(result.user, fields.redirectTo),
    { message: AUTH_MESSAGES.signedIn, duration: TOAST_MS },
    { headers: { 'Set-Cookie': cookie } },
  )
}

function SignInView({
  googleEnabled,
  redirectTo,
  message,
  errors,
  email,
  attempt,
}: {
  /** Changes with every answer of the action (clears the password field). */
  attempt?: unknown
  googleEnabled: boolean
  redirectTo: string
  message: string | null | undefined
  errors?: FieldErrors
  email?: string
}) {
  const form = useRef<HTMLFormElement>(null)
  // Passwords are never kept after a failed attempt.
  useEffect(() => {
    const input = form.current?.elements.namedItem('password')
    if (attempt && input instanceof HTMLInputElement) input.value = ''
  }, [attempt])
  const signupHref = redirectTo ? `/signup?${new URLSearchParams({ redirectTo })}` : '/signup'
  return (
    <AuthLayout
      title="Welcome back"
      subtitle="Continue your SEO automation journey"
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Link to={signupHref} className="font-semibold text-brand-700 hover:underline">Sign up</Link>
        </>
      }
    >
      <h2 className="mb-6 text-xl font-semibold">Sign in to your account</h2>
      <FormMessage message={message} tone="error" />
      <Form ref={form} method="post" className="relative space-y-4">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Honeypot />
        <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={email} error={errors?.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errors?.password} />
        <SubmitButton className="btn-primary w-full" pendingText="Signing in...">Sign In</SubmitButton>
      </Form>
      <OrDivider />
      <GoogleLink enabled={googleEnabled} />
    </AuthLayout>
  )
}

export default function SignIn() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <SignInView
      googleEnabled={data.googleEnabled}
      redirectTo={data.redirectTo}
      message={actionData?.message ?? data.error}
      errors={actionData?.errors}
      email={actionData?.values.email}
      attempt={actionData}
    />
  )
}

/** A failure without a message of its own (a crash, a lost connection) still shows the form, in red. */
export function ErrorBoundary() {
  const root = useRouteLoaderData<RootData>('root')
  return <SignInView googleEnabled={Boolean(root?.env.GOOGLE_SIGN_IN)} redirectTo="" message={AUTH_MESSAGES.generic} />
}
