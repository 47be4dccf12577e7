import { Form } from '@remix-run/react'
import { FormMessage } from '#app/ui/form-message'
import { Field } from '#app/ui/field'
import { PasswordField } from './account-fields'
import { SubmitButton } from '#app/ui/submit-button'
import type { FieldErrors } from '#app/platform/forms/field-errors'
import { ActionButton } from '#app/ui/action-button'

/** /profile's security cards: password, sessions and API tokens, and the account's data (download, delete). */

type Session = {
  id: string
  kind: 'web' | 'api'
  device: string
  ipPrefix: string | null
  lastUsedAt: string
  current: boolean
}
type Failure = { intent: string; message: string; errors: FieldErrors } | null

const WHEN = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
const when = (iso: string) => WHEN.format(new Date(iso)) + ' UTC'

export function PasswordCard({ hasPassword, failure }: { hasPassword: boolean; failure: Failure }) {
  const mine = failure?.intent === 'change-password' ? failure : null
  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title" className="text-lg font-semibold">
        Password
      </h2>
      {hasPassword ? (
        <Form method="post" className="mt-4 space-y-4" aria-label="Change password" key={mine ? 'failed' : 'form'}>
          <FormMessage message={mine?.message} tone="error" />
          <PasswordField
            purpose="current"
            label="Current password"
            name="currentPassword"
            error={mine?.errors.currentPassword}
          />
          <PasswordField purpose="new" label="New password" name="newPassword" error={mine?.errors.newPassword} />
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

export function SessionsCard({ sessions, failure }: { sessions: Session[]; failure: Failure }) {
  const mine = failure && ['end-session', 'end-other-sessions'].includes(failure.intent) ? failure : null
  return (
    <section className="card" aria-labelledby="session-title" data-testid="sessions-card">
      <h2 id="session-title" className="text-lg font-semibold">
        Sessions and API tokens
      </h2>
      <FormMessage message={mine?.message} tone="error" />
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

export function DataCard({ hasPassword, failure }: { hasPassword: boolean; failure: Failure }) {
  const mine = failure?.intent === 'delete-account' ? failure : null
  return (
    <section className="card" aria-labelledby="data-title">
      <h2 id="data-title" className="text-lg font-semibold">
        Your data
      </h2>
      <a href="/api/user/export" download className="btn-secondary mt-4 w-full">
        Download my data
      </a>
      <details className="mt-4" open={Boolean(mine)}>
        <summary className="cursor-pointer text-sm font-medium text-red-700">Delete account</summary>
        <Form method="post" className="mt-3 space-y-3" aria-label="Delete account">
          <FormMessage message={mine?.message} tone="error" />
          <p className="text-sm text-slate-600">
            This deletes your keywords, posts and Auto Pilot settings, cancels your subscription at once and signs you
            out everywhere. It cannot be undone.
          </p>
          {hasPassword ? <PasswordField purpose="current" error={mine?.errors.password} /> : null}
          <Field
            label="Type DELETE to confirm"
            name="confirm"
            required
            autoComplete="off"
            error={mine?.errors.confirm}
          />
          <SubmitButton intent="delete-account" className="btn-danger w-full" pendingText="Deleting...">
            Delete account
          </SubmitButton>
        </Form>
      </details>
    </section>
  )
}
