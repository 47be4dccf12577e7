import { readForm } from '#app/platform/http/body.server'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import {
  AuthForm,
  authFormState,
  useAuthErrorState,
  type AuthFormState,
} from '#app/features/accounts/components/auth-layout'
import { EmailField, PasswordField } from '#app/features/accounts/components/account-fields'
import { Field } from '#app/ui/field'
import { AUTH_MESSAGES, MIN_PASSWORD_LENGTH, signUpSchema } from '#app/features/accounts/account-schemas'
import { useSchemaForm } from '#app/ui/form'
import { landingPath } from '#app/features/accounts/account-routing'
import { safeRedirect } from '#app/platform/security/redirect'
import { authPageAction, signUp } from '#app/features/accounts/auth.server'
import { commonPasswordResult } from '#app/features/accounts/second-factor-gates.server'
import { googleEnabled } from '#app/features/accounts/google-auth.server'
import { getUser } from '#app/features/accounts/session.server'
import { publicPage } from '#app/platform/http/cache'

// The form is the same for every anonymous visitor (no token, nothing personal; the page depends only on its URL),
// so a CDN may keep it like the marketing pages (decision 0213). A signed-in visitor sends a cookie and is redirected.
export const handle = publicPage

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

export async function action({ request }: ActionFunctionArgs) {
  return authPageAction(request, {
    form: await readForm(request),
    schema: signUpSchema,
    // Issue 34: a common password is refused next to the field (the list stays on the server).
    submit: async (input) => commonPasswordResult(input.password) ?? signUp(request, input),
    // A new account always starts with onboarding.
    success: () => ({ to: '/onboarding', message: AUTH_MESSAGES.signedUp }),
  })
}

function SignUpView({ state }: { state: AuthFormState }) {
  const { fields, formProps, message } = useSchemaForm({ id: 'signup', schema: signUpSchema, lastResult: state.result })
  return (
    <AuthForm
      state={state}
      form={{ formProps, message }}
      title="Start growing your organic traffic"
      subtitle="Join hundreds of founders scaling their organic traffic"
      switchTo={{ question: 'Already have an account?', label: 'Sign in', path: '/signin' }}
      heading={
        <>
          <h2 className="text-xl font-semibold">Create your account</h2>
          <p className="mb-6 mt-1 text-sm text-slate-600">Free 7-day trial • No credit card required</p>
        </>
      }
      submit={{ label: 'Create Account', pending: 'Creating account...' }}
    >
      <Field label="Name" type="text" autoComplete="name" required meta={fields.name} />
      <EmailField meta={fields.email} />
      <PasswordField purpose="new" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} meta={fields.password} />
    </AuthForm>
  )
}

export default function SignUp() {
  return <SignUpView state={authFormState(useLoaderData<typeof loader>(), useActionData<typeof action>())} />
}

export function ErrorBoundary() {
  return <SignUpView state={useAuthErrorState()} />
}
