import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { AuthLayout, FormMessage, GoogleLink, Honeypot, HONEYPOT_FIELD, OrDivider } from '#app/components/auth-layout'
import { Field } from '#app/components/ui/field'
import { SubmitButton } from '#app/components/ui/submit-button'
import {
  AUTH_MESSAGES,
  describeErrors,
  formFields,
  MIN_PASSWORD_LENGTH,
  signUpSchema,
  type FieldErrors,
} from '#app/lib/account-schemas'
import { landingPath } from '#app/lib/account-routing'
import { safeRedirect } from '#app/lib/redirect'
import type { RootData } from '#app/root'
import { browserSessionCookie, retryAfterHeaders, signUp } from '#app/server/auth.server'
import { googleEnabled } from '#app/server/google-auth.server'
import { getUser } from '#app/server/session.server'
import { TOAST_MS, toast } from '#app/server/toast.server'

export const meta: MetaFunction = () => [
  { title: 'Create your account | Rankwell' },
  {
    name: 'description',
    content: 'Join hundreds of founders scaling their organic traffic. 7-day free trial, no credit card required.',
  },
]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request)
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '')
  if (user) return redirect(landingPath(user, redirectTo))
  return json({ googleEnabled: googleEnabled(), redirectTo })
}

type ActionData = { message: string; errors: FieldErrors; values: { name: string; email: string } }

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData()
  const fields = formFields(form, ['name', 'email', 'password'] as const)
  const values = { name: fields.name ?? '', email: fields.email ?? '' }
  if (form.get(HONEYPOT_FIELD)) return json<ActionData>({ message: AUTH_MESSAGES.generic, errors: {}, values }, { status: 400 })
  const parsed = signUpSchema.safeParse(fields)
  if (!parsed.success) return json<ActionData>({ ...describeErrors(parsed.error), values }, { status: 400 })
  const result = await signUp(request, parsed.data)
  if (!result.ok) {
    return json<ActionData>({ message: result.message, errors: {}, values }, { status: result.status, headers: retryAfterHeaders(result) })
  }
  // A new account always starts with onboarding.
  const cookie = await browserSessionCookie(request, result.user.id)
  return toast().redirectWithSuccess(
    '/onboarding',
    { message: AUTH_MESSAGES.signedUp, duration: TOAST_MS },
    { headers: { 'Set-Cookie': cookie } },
  )
}

function SignUpView({
  googleEnabled,
  redirectTo,
  message,
  errors,
  values,
  attempt,
}: {
  googleEnabled: boolean
  redirectTo: string
  message: string | null | undefined
  errors?: FieldErrors
  values?: { name: string; email: string }
  attempt?: unknown
}) {
  const form = useRef<HTMLFormElement>(null)
  useEffect(() => {
    const input = form.current?.elements.namedItem('password')
    if (attempt && input instanceof HTMLInputElement) input.value = ''
  }, [attempt])
  const signinHref = redirectTo ? `/signin?${new URLSearchParams({ redirectTo })}` : '/signin'
  return (
    <AuthLayout
      title="Start growing your organic traffic"
      subtitle="Join hundreds of founders scaling their organic traffic"
      footer={
        <>
          Already have an account?{' '}
          <Link to={signinHref} className="font-semibold text-brand-700 hover:underline">Sign in</Link>
        </>
      }
    >
      <h2 className="text-xl font-semibold">Create your account</h2>
      <p className="mb-6 mt-1 text-sm text-slate-600">Free 7-day trial • No credit card required</p>
      <FormMessage message={message} tone="error" />
      <Form ref={form} method="post" className="relative space-y-4">
        <Honeypot />
        <Field label="Name" name="name" type="text" autoComplete="name" required defaultValue={values?.name} error={errors?.name} />
        <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={values?.email} error={errors?.email} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          error={errors?.password}
        />
        <SubmitButton className="btn-primary w-full" pendingText="Creating account...">Create Account</SubmitButton>
      </Form>
      <OrDivider />
      <GoogleLink enabled={googleEnabled} />
    </AuthLayout>
  )
}

export default function SignUp() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <SignUpView
      googleEnabled={data.googleEnabled}
      redirectTo={data.redirectTo}
      message={actionData?.message}
      errors={actionData?.errors}
      values={actionData?.values}
      attempt={actionData}
    />
  )
}

export function ErrorBoundary() {
  const root = useRouteLoaderData<RootData>('root')
  return <SignUpView googleEnabled={Boolean(root?.env.GOOGLE_SIGN_IN)} redirectTo="" message={AUTH_MESSAGES.generic} />
}
