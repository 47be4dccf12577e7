import { Form } from '@remix-run/react'
import { useState } from 'react'
import type { SubmissionResult } from '#app/platform/forms/submission'
import { Field } from '#app/ui/field'
import { FormMessage } from '#app/ui/form-message'
import { useSchemaForm } from '#app/ui/form'
import { SubmitButton } from '#app/ui/submit-button'
import { useHydrated } from '#app/ui/use-hydrated'
import { API_SCOPE_LABELS, API_SCOPES, createApiKeySchema, MAX_API_KEYS } from '../api-keys'
import { SecondFactorCodeField } from './second-factor-card'
import { ShownOnce } from './shown-once'
import type { ApiKeyListItem } from '../api-keys.server'

/**
 * Issue 38: /profile's 'API keys' card. Create a key (name, scopes; the second factor's code when it is on), the new
 * key shown once as selectable text (and a 'Copy' button with JavaScript), the active keys with their scopes, dates
 * and last use, and 'Revoke' behind a confirmation that opens in place (a <details>: the same with JavaScript off).
 */

/** A key as the card lists it (the active ones: no revocation time). */
export type ApiKeyView = Omit<ApiKeyListItem, 'revokedAt'>

type Answer =
  | { intent: 'api-key-create'; result: SubmissionResult<string[]> }
  | { intent: 'api-key-created'; key: string; name: string; message: string }
  | { intent: 'api-key-revoke'; message: string }

/** This card's part of the action's last answer (anything else: undefined). */
function answerOf(answer: unknown): Answer | undefined {
  if (!answer || typeof answer !== 'object' || !('intent' in answer)) return undefined
  const intent = (answer as { intent: unknown }).intent
  return intent === 'api-key-create' || intent === 'api-key-created' || intent === 'api-key-revoke'
    ? (answer as Answer)
    : undefined
}

const WHEN = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
const when = (iso: string) => WHEN.format(new Date(iso)) + ' UTC'

function NewKey({ created }: { created: Extract<Answer, { intent: 'api-key-created' }> }) {
  const hydrated = useHydrated()
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key)
      setCopied('yes')
    } catch {
      setCopied('failed')
    }
  }
  return (
    <ShownOnce
      testId="new-api-key"
      message={created.message}
      hint={
        <>
          Send it as <code>Authorization: Bearer &lt;key&gt;</code>. Keep it secret, like a password.
        </>
      }
    >
      <p className="mt-3 text-xs font-medium text-slate-700">Key “{created.name}”</p>
      <div className="mt-1 flex items-start gap-2">
        <code
          className="block min-w-0 flex-1 select-all break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900"
          data-testid="new-api-key-value"
        >
          {created.key}
        </code>
        {hydrated ? (
          <button type="button" className="btn-secondary shrink-0 py-1 text-xs" onClick={copy}>
            {copied === 'yes' ? 'Copied' : 'Copy'}
          </button>
        ) : null}
      </div>
      {copied === 'failed' ? (
        <p className="mt-1 text-xs text-red-700" role="alert">
          Could not copy. Select the key and copy it yourself.
        </p>
      ) : null}
    </ShownOnce>
  )
}

function CreateForm({
  secondFactor,
  result,
}: {
  secondFactor: boolean
  result: SubmissionResult<string[]> | undefined
}) {
  const { fields, formProps, message } = useSchemaForm({
    id: 'api-key-create',
    schema: createApiKeySchema,
    lastResult: result,
  })
  const kept = fields.scopes.initialValue
  const keptScopes = result ? (Array.isArray(kept) ? kept : typeof kept === 'string' ? [kept] : []) : null
  const scopesError = Object.values(fields.scopes.allErrors).flat()[0]
  return (
    <details className="mt-4" open={Boolean(result)}>
      <summary className="cursor-pointer text-sm font-medium text-brand-700">Create an API key</summary>
      <Form method="post" className="mt-3 space-y-3" aria-label="Create an API key" {...formProps}>
        <FormMessage message={message} tone="error" />
        <Field
          label="Key name"
          hint="What uses it, e.g. “CI” or “Claude agent”."
          maxLength={60}
          autoComplete="off"
          meta={fields.name}
        />
        <fieldset aria-describedby={scopesError ? fields.scopes.errorId : undefined}>
          <legend className="label">Scopes</legend>
          <ul className="mt-1 space-y-2">
            {API_SCOPES.map((scope) => (
              <li key={scope} className="flex items-start gap-2">
                <input
                  id={`api-key-scope-${scope}`}
                  type="checkbox"
                  name={fields.scopes.name}
                  value={scope}
                  defaultChecked={keptScopes ? keptScopes.includes(scope) : scope === 'read'}
                  className="mt-1 h-4 w-4"
                />
                <label htmlFor={`api-key-scope-${scope}`} className="text-sm">
                  <span className="font-semibold text-slate-900">{API_SCOPE_LABELS[scope].label}</span>{' '}
                  <span className="text-slate-600">{API_SCOPE_LABELS[scope].hint}</span>
                </label>
              </li>
            ))}
          </ul>
          {scopesError ? (
            <p id={fields.scopes.errorId} className="field-error mt-1" role="alert">
              {scopesError}
            </p>
          ) : (
            <p className="mt-1 text-xs text-slate-600">Every key can read.</p>
          )}
        </fieldset>
        {secondFactor ? <SecondFactorCodeField meta={fields.code} recovery /> : null}
        <SubmitButton intent="api-key-create" className="btn-primary w-full" pendingText="Creating...">
          Create key
        </SubmitButton>
      </Form>
    </details>
  )
}

function KeyRow({ apiKey }: { apiKey: ApiKeyView }) {
  return (
    <li className="py-3 text-sm" data-testid="api-key-row">
      <p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{apiKey.name}</p>
      <p className="font-mono text-xs text-slate-600">{`${apiKey.prefix}…`}</p>
      <p className="text-slate-600">
        Scopes: {apiKey.scopes.map((s) => API_SCOPE_LABELS[s].label.toLowerCase()).join(', ')}
      </p>
      <p className="text-slate-500">
        Created {when(apiKey.createdAt)} ·{' '}
        {apiKey.lastUsedAt
          ? `last used ${when(apiKey.lastUsedAt)}${apiKey.lastUsedIpPrefix ? ` from ${apiKey.lastUsedIpPrefix}` : ''}`
          : 'never used'}
      </p>
      <details className="mt-1">
        <summary className="cursor-pointer text-xs font-medium text-red-700">Revoke</summary>
        <Form method="post" className="mt-2 rounded-lg border border-red-200 bg-red-50 p-3">
          <p className="text-sm text-slate-800">
            Revoke “{apiKey.name}”? Whatever uses it stops working at once. This cannot be undone.
          </p>
          <input type="hidden" name="keyId" value={apiKey.id} />
          <SubmitButton intent="api-key-revoke" className="btn-danger mt-2 py-1 text-xs" pendingText="Revoking...">
            Revoke key
          </SubmitButton>
        </Form>
      </details>
    </li>
  )
}

export function ApiKeysCard({
  keys,
  secondFactor,
  answer,
}: {
  keys: ApiKeyView[]
  /** Two-step sign-in is on: creating a key asks for a current code. */
  secondFactor: boolean
  /** The page action's last answer (the card picks its own). */
  answer: unknown
}) {
  const mine = answerOf(answer)
  return (
    <section className="card scroll-mt-20" id="api-keys" aria-labelledby="api-keys-title" data-testid="api-keys-card">
      <h2 id="api-keys-title" className="text-lg font-semibold">
        API keys
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        For your scripts and AI agents: the same API as the app, with the scopes you choose.
      </p>
      {mine?.intent === 'api-key-created' ? <NewKey created={mine} /> : null}
      <FormMessage message={mine?.intent === 'api-key-revoke' ? mine.message : undefined} tone="error" />
      {keys.length > 0 ? (
        <ul className="mt-3 divide-y divide-slate-100" aria-label="Your API keys">
          {keys.map((k) => (
            <KeyRow key={k.id} apiKey={k} />
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-sm text-slate-600">No API keys yet.</p>
      )}
      {keys.length < MAX_API_KEYS || mine?.intent === 'api-key-create' ? (
        // A new key (or a revoked one) mounts the form anew: empty, closed.
        <CreateForm
          key={keys[0]?.id ?? 'none'}
          secondFactor={secondFactor}
          result={mine?.intent === 'api-key-create' ? mine.result : undefined}
        />
      ) : (
        <p className="mt-3 text-xs text-slate-600">{`You have ${MAX_API_KEYS} keys, the most an account can have.`}</p>
      )}
    </section>
  )
}
