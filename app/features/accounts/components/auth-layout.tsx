import { Form, Link, useRouteLoaderData } from '@remix-run/react'
import type { ReactNode } from 'react'
import type { SubmissionResult } from '#app/platform/forms/submission'
import { AUTH_MESSAGES } from '#app/features/accounts/account-schemas'
import { useForgetPasswords } from '#app/features/accounts/components/account-fields'
import type { RootData } from '#app/root'
import { SubmitButton } from '#app/ui/submit-button'
import { FormMessage } from '#app/ui/form-message'
import { Honeypot } from '#app/ui/honeypot'
import type { useSchemaForm } from '#app/ui/form'

/** The sign-in and sign-up pages: a hero beside (or above) the form card. */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string
  subtitle: string
  children: ReactNode
  footer: ReactNode
}) {
  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 lg:grid-cols-2 lg:items-center lg:py-20">
      <section aria-labelledby="auth-title" className="text-center lg:text-left">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Rankwell</p>
        <h1 id="auth-title" className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
          {title}
        </h1>
        <p className="mt-4 text-lg text-slate-600">{subtitle}</p>
        <ul className="mx-auto mt-8 hidden max-w-md space-y-3 text-left text-slate-700 lg:mx-0 lg:block">
          {[
            'Find keywords you can actually rank for',
            'Write SEO blog posts with AI in minutes',
            'Let Auto Pilot publish to your site',
          ].map((item) => (
            <li key={item} className="flex items-start gap-3">
              <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 h-5 w-5 flex-none fill-brand-600">
                <path d="M8.3 13.3 4.7 9.7l-1.4 1.4 5 5 9-9-1.4-1.4z" />
              </svg>
              {item}
            </li>
          ))}
        </ul>
      </section>
      <div className="card mx-auto w-full max-w-md">
        {children}
        <p className="mt-6 text-center text-sm text-slate-600">{footer}</p>
      </div>
    </div>
  )
}

export function OrDivider() {
  return (
    <div className="my-6 flex items-center gap-3 text-sm text-slate-500">
      <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
      <span>Or continue with</span>
      <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
    </div>
  )
}

function GoogleMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 48 48" className="h-5 w-5">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
      />
    </svg>
  )
}

/**
 * The 'Google' link. It is a plain link (a full page load), because /api/auth/google redirects to Google.
 * Without Google credentials it explains that Google sign-in is unavailable instead.
 */
export function GoogleLink({ enabled }: { enabled: boolean }) {
  if (!enabled) {
    return (
      <div className="text-center" data-testid="google-unavailable">
        <span className="btn-secondary w-full cursor-not-allowed opacity-60" aria-disabled="true">
          <GoogleMark />
          Google
        </span>
        <p className="mt-2 text-xs text-slate-600">
          Google sign-in is unavailable right now. Please use your email and password.
        </p>
      </div>
    )
  }
  return (
    <a href="/api/auth/google" className="btn-secondary w-full" data-testid="google-link">
      <GoogleMark />
      Google
    </a>
  )
}

/** What the sign-in and sign-up pages show: from their loader and their action's last answer, or the defaults. */
export type AuthFormState = {
  googleEnabled: boolean
  redirectTo: string
  /** The page's own message (a Google sign-in that did not go through, a crash), shown when the form has none. */
  error?: string | null
  /** The action's last reply (Conform's): errors by field, the values to show again (never the password). */
  result?: SubmissionResult<string[]>
}

export function authFormState(
  data: { googleEnabled: boolean; redirectTo: string; error?: string | null },
  actionData: { result: SubmissionResult<string[]> } | undefined,
): AuthFormState {
  return {
    googleEnabled: data.googleEnabled,
    redirectTo: data.redirectTo,
    error: data.error,
    result: actionData?.result,
  }
}

/** A failure without a message of its own (a crash, a lost connection) still shows the form, in red. */
export function useAuthErrorState(): AuthFormState {
  const root = useRouteLoaderData<RootData>('root')
  return { googleEnabled: Boolean(root?.env.GOOGLE_SIGN_IN), redirectTo: '', error: AUTH_MESSAGES.generic }
}

/**
 * The sign-in and sign-up card: the page's heading, the form's first error (else the page's message), the form (made
 * by the page's `useSchemaForm`: the honeypot, the page's fields, the submit button), and the Google link below.
 * `hidden` goes first in the form; the footer links to the other page, keeping `redirectTo`. The password field is
 * emptied after every answer of the action: passwords are never kept.
 */
export function AuthForm({
  state: { googleEnabled, redirectTo, error, result },
  form: { formProps, message },
  title,
  subtitle,
  switchTo,
  heading,
  hidden,
  submit,
  children,
}: {
  state: AuthFormState
  form: Pick<ReturnType<typeof useSchemaForm>, 'formProps' | 'message'>
  title: string
  subtitle: string
  switchTo: { question: string; label: string; path: string }
  heading: ReactNode
  hidden?: ReactNode
  /** The submit button's label, and its label while the form is submitting. */
  submit: { label: string; pending: string }
  children: ReactNode
}) {
  useForgetPasswords(formProps.id, result)
  const switchHref = redirectTo ? `${switchTo.path}?${new URLSearchParams({ redirectTo })}` : switchTo.path
  return (
    <AuthLayout
      title={title}
      subtitle={subtitle}
      footer={
        <>
          {switchTo.question}{' '}
          <Link to={switchHref} className="font-semibold text-brand-700 hover:underline">
            {switchTo.label}
          </Link>
        </>
      }
    >
      {heading}
      <FormMessage message={message ?? error} tone="error" />
      <Form method="post" className="relative space-y-4" {...formProps}>
        {hidden}
        <Honeypot />
        {children}
        <SubmitButton className="btn-primary w-full" pendingText={submit.pending}>
          {submit.label}
        </SubmitButton>
      </Form>
      <OrDivider />
      <GoogleLink enabled={googleEnabled} />
    </AuthLayout>
  )
}
