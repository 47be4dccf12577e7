import { Form, type FetcherWithComponents } from '@remix-run/react'
import { isClientFailure } from '#app/ui/client-failure'
import type { SubmissionResult } from '#app/platform/forms/submission'
import { helpSchema } from '#app/features/accounts/account-schemas'
import { useSchemaForm } from '#app/ui/form'
import { FormMessage } from '#app/ui/form-message'
import { SubmitButton } from '#app/ui/submit-button'

/** The action's answer: sent, or Conform's reply (the question's error or the form's, the question kept). */
export type HelpActionData = { ok: true } | { ok: false; result: SubmissionResult<string[]> }

/** Shown when the question's request failed in the browser (no answer, a 5xx, a proxy's page). */
export const HELP_SEND_FAILED = 'Your question could not be sent. Please try again in a moment.'

/** What the form shows after its last answer: the action's reply, or the message of a request that failed. */
export type HelpAnswer = { ok: boolean; result?: SubmissionResult<string[]>; failed?: string }

/** The form's last answer, from the action's data (or a failure of the request: the typed question stays). */
export function helpAnswer(data: unknown): HelpAnswer | undefined {
  if (isClientFailure(data)) return { ok: false, failed: HELP_SEND_FAILED }
  const answer = data as HelpActionData | undefined
  if (!answer) return undefined
  return answer.ok ? { ok: true } : { ok: false, result: answer.result }
}

/**
 * The help question form, used by the /help page (a plain form post) and by the nav's modal (a fetcher).
 * `mode=modal` asks the action for a JSON answer instead of a redirect.
 */
export function HelpForm({
  fetcher,
  redirectTo,
  answer,
  onCancel,
  autoFocus,
}: {
  fetcher?: Pick<FetcherWithComponents<unknown>, 'Form' | 'state'>
  redirectTo: string
  answer?: HelpAnswer
  onCancel?: () => void
  autoFocus?: boolean
}) {
  const { form, fields, formProps } = useSchemaForm({
    // The /help page and the modal may be open at once.
    id: fetcher ? 'help-modal' : 'help-page',
    schema: helpSchema,
    lastResult: answer?.result,
  })
  const FormComponent = fetcher ? fetcher.Form : Form
  const question = fields.question
  const fieldError = question.errors?.[0]
  const kept = question.initialValue
  return (
    <FormComponent method="post" action="/help" className="space-y-4" {...formProps}>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {fetcher ? <input type="hidden" name="mode" value="modal" /> : null}
      <FormMessage message={answer?.failed ?? form.errors?.[0]} tone="error" />
      <div>
        <label htmlFor={question.id} className="sr-only">
          Your question
        </label>
        <textarea
          key={question.key}
          id={question.id}
          name={question.name}
          rows={4}
          required
          maxLength={5000}
          placeholder="Describe your question..."
          defaultValue={typeof kept === 'string' ? kept : undefined}
          autoFocus={autoFocus}
          data-autofocus={autoFocus || undefined}
          className="input resize-y"
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? question.errorId : undefined}
        />
        {fieldError ? (
          <p id={question.errorId} className="field-error" role="alert">
            {fieldError}
          </p>
        ) : null}
      </div>
      <div className="flex justify-end gap-3">
        {onCancel ? (
          <button type="button" className="btn-secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <SubmitButton pendingText="Sending..." pending={fetcher ? fetcher.state !== 'idle' : undefined}>
          Send Question
        </SubmitButton>
      </div>
    </FormComponent>
  )
}
