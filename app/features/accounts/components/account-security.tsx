import { Form } from '@remix-run/react'
import { FormMessage } from '#app/ui/form-message'
import { Field } from '#app/ui/field'
import { PasswordField, useForgetPasswords } from './account-fields'
import { SubmitButton } from '#app/ui/submit-button'
import type { SubmissionResult } from '#app/platform/forms/submission'
import { useSchemaForm } from '#app/ui/form'
import { changePasswordSchema, deleteAccountSchema } from '#app/features/accounts/account-schemas'
import { ActionButton } from '#app/ui/action-button'
import { SecondFactorCodeField } from './second-factor-card'

/** /profile's security cards: password, sessions and API tokens, and the account's data (download, delete). */

type Session = {
  id: string
  kind: 'web' | 'api'
  device: string
  ipPrefix: string | null
  lastUsedAt: string
  current: boolean
}
/** The action's reply to this card's form, when its last answer was about it. */
type Result = SubmissionResult<string[]> | undefined

const WHEN = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
const when = (iso: string) => WHEN.format(new Date(iso)) + ' UTC'

export function PasswordCard({
  hasPassword,
  secondFactor = false,
  result,
}: {
  hasPassword: boolean
  /** Issue 34: two-step sign-in is on, so a current code is asked too. */
  secondFactor?: boolean
  result: Result
}) {
  const { fields, formProps, message } = useSchemaForm({
    id: 'change-password',
    schema: changePasswordSchema,
    lastResult: result,
  })
  useForgetPasswords(formProps.id, result)
  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title" className="text-lg font-semibold">
        Password
      </h2>
      {hasPassword ? (
        <Form method="post" className="mt-4 space-y-4" aria-label="Change password" {...formProps}>
          <FormMessage message={message} tone="error" />
          <PasswordField purpose="current" label="Current password" meta={fields.currentPassword} />
          <PasswordField purpose="new" label="New password" meta={fields.newPassword} />
          {secondFactor ? <SecondFactorCodeField meta={fields.code} recovery /> : null}
          <SubmitButton intent="change-password" className="btn-secondary w-full" pendingText="Saving...">
            Change password
          </SubmitButton>
          <p className="text-xs text-slate-500">Changing it signs out every other session and API token.</p>
        </Form>
      ) : (
        <p className="mt-1 text-sm text-slate-600">
          You sign in with Google. To add a password, use &lsquo;Forgot password?&rsquo; on the sign-in page.
        </p>
      )}
    </section>
  )
}

/** `message`: why the last 'Sign out' of a session did not go through. */
export function SessionsCard({ sessions, message }: { sessions: Session[]; message: string | undefined }) {
  return (
    <section className="card" aria-labelledby="session-title" data-testid="sessions-card">
      <h2 id="session-title" className="text-lg font-semibold">
        Sessions and API tokens
      </h2>
      <FormMessage message={message} tone="error" />
      <ul className="mt-3 divide-y divide-slate-100">
        {sessions.map((s) => (
          <li key={s.id} className="flex items-center justify-between gap-3 py-2 text-sm" data-testid="session-row">
            <div>
              <p className="font-medium text-slate-900">
                {`${s.kind === 'api' ? 'API token · ' : ''}${s.device}`}
                {s.current ? <span className="ml-1 text-green-700">(this browser)</span> : null}
              </p>
              <p className="text-slate-500">
                Last used {when(s.lastUsedAt)}
                {s.ipPrefix ? ` · ${s.ipPrefix}` : ''}
              </p>
            </div>
            {s.current ? null : (
              <ActionButton field={['sessionId', s.id]} intent="end-session" className="btn-secondary py-1 text-xs">
                Sign out
              </ActionButton>
            )}
          </li>
        ))}
      </ul>
      <Form method="post" className="mt-3">
        <SubmitButton intent="end-other-sessions" className="btn-secondary w-full" pendingText="Signing out...">
          Sign out everywhere else
        </SubmitButton>
      </Form>
      <Form method="post" action="/logout" className="mt-2">
        <button type="submit" className="btn-secondary w-full">
          Log Out
        </button>
      </Form>
    </section>
  )
}

export function DataCard({
  hasPassword,
  secondFactor = false,
  result,
}: {
  hasPassword: boolean
  /** Issue 34: two-step sign-in is on, so a current code is asked too. */
  secondFactor?: boolean
  result: Result
}) {
  const { fields, formProps, message } = useSchemaForm({
    id: 'delete-account',
    schema: deleteAccountSchema,
    lastResult: result,
  })
  useForgetPasswords(formProps.id, result)
  return (
    <section className="card" aria-labelledby="data-title">
      <h2 id="data-title" className="text-lg font-semibold">
        Your data
      </h2>
      <a href="/api/user/export" download className="btn-secondary mt-4 w-full">
        Download my data
      </a>
      <details className="mt-4" open={Boolean(result)}>
        <summary className="cursor-pointer text-sm font-medium text-red-700">Delete account</summary>
        <Form method="post" className="mt-3 space-y-3" aria-label="Delete account" {...formProps}>
          <FormMessage message={message} tone="error" />
          <p className="text-sm text-slate-600">
            This deletes your keywords, posts and Auto Pilot settings, cancels your subscription at once and signs you
            out everywhere. It cannot be undone.
          </p>
          {hasPassword ? <PasswordField purpose="current" meta={fields.password} /> : null}
          {secondFactor ? <SecondFactorCodeField meta={fields.code} recovery /> : null}
          <Field label="Type DELETE to confirm" required autoComplete="off" meta={fields.confirm} />
          <SubmitButton intent="delete-account" className="btn-danger w-full" pendingText="Deleting...">
            Delete account
          </SubmitButton>
        </Form>
      </details>
    </section>
  )
}
