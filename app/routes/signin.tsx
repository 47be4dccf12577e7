import { readForm } from '#app/platform/http/body.server'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import {
  AuthForm,
  authFormState,
  useAuthErrorState,
  type AuthFormState,
} from '#app/features/accounts/components/auth-layout'
import { EmailField, PasswordField } from '#app/features/accounts/components/account-fields'
import { AUTH_MESSAGES, signInSchema } from '#app/features/accounts/account-schemas'
import { useSchemaForm } from '#app/ui/form'
import { landingPath, signInErrorMessage } from '#app/features/accounts/account-routing'
import { safeRedirect } from '#app/platform/security/redirect'
import { authPageAction, signIn } from '#app/features/accounts/auth.server'
import { googleEnabled } from '#app/features/accounts/google-auth.server'
import { getUser } from '#app/features/accounts/session.server'
import { redirectToSecondStep, secondFactorEnabled } from '#app/features/accounts/second-factor.server'
import { publicPage } from '#app/platform/http/cache'

// The form is the same for every anonymous visitor (no token, nothing personal; the page depends only on its URL),
// so a CDN may keep it like the marketing pages (decision 0213). A signed-in visitor sends a cookie and is redirected.
export const handle = publicPage

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

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request)
  const redirectTo = form.get('redirectTo')
  return authPageAction(request, {
    form,
    schema: signInSchema,
    submit: (input) => signIn(request, input),
    success: (user) => ({
      to: landingPath(user, typeof redirectTo === 'string' ? redirectTo : null),
      message: AUTH_MESSAGES.signedIn,
    }),
    // Issue 34: with two-step sign-in on, no session yet: the code is asked at /signin/verify.
    secondStep: async (user) =>
      (await secondFactorEnabled(user.id))
        ? redirectToSecondStep(user.id, { redirectTo: typeof redirectTo === 'string' ? redirectTo : null })
        : null,
  })
}

function SignInView({ state }: { state: AuthFormState }) {
  const { fields, formProps, message } = useSchemaForm({ id: 'signin', schema: signInSchema, lastResult: state.result })
  return (
    <AuthForm
      state={state}
      form={{ formProps, message }}
      title="Welcome back"
      subtitle="Continue your SEO automation journey"
      switchTo={{ question: "Don't have an account?", label: 'Sign up', path: '/signup' }}
      heading={<h2 className="mb-6 text-xl font-semibold">Sign in to your account</h2>}
      hidden={<input type="hidden" name="redirectTo" value={state.redirectTo} />}
      submit={{ label: 'Sign In', pending: 'Signing in...' }}
    >
      <EmailField meta={fields.email} />
      <PasswordField purpose="current" meta={fields.password} />
      <p className="text-right text-sm">
        <Link to="/forgot-password" className="font-medium text-brand-700 hover:underline">
          Forgot password?
        </Link>
      </p>
    </AuthForm>
  )
}

export default function SignIn() {
  return <SignInView state={authFormState(useLoaderData<typeof loader>(), useActionData<typeof action>())} />
}

export function ErrorBoundary() {
  return <SignInView state={useAuthErrorState()} />
}
