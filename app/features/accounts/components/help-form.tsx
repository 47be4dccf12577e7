import { Form, type FetcherWithComponents } from '@remix-run/react'
import { useId } from 'react'
import { clientFailureOf } from '#app/ui/client-failure'
import { FormMessage } from '#app/ui/form-message'
import { SubmitButton } from '#app/ui/submit-button'

export type HelpActionData =
  { ok: true } | { ok: false; message: string; errors?: Partial<Record<string, string[]>>; question: string }

/** Shown when the question's request failed in the browser (no answer, a 5xx, a proxy's page). */
export const HELP_SEND_FAILED = 'Your question could not be sent. Please try again in a moment.'

/** The form's answer: the server's, or a failure of the request turned into the same shape (question kept). */
export function helpResult(data: unknown): HelpActionData | undefined {
  const failure = clientFailureOf(data)
  if (failure) return { ok: false, message: HELP_SEND_FAILED, question: failure.values.question ?? '' }
  return data as HelpActionData | undefined
}

/**
 * The help question form, used by the /help page (a plain form post) and by the nav's modal (a fetcher).
 * `mode=modal` asks the action for a JSON answer instead of a redirect.
 */
export function HelpForm({
  fetcher,
  redirectTo,
  result,
  onCancel,
  autoFocus,
}: {
  fetcher?: Pick<FetcherWithComponents<unknown>, 'Form' | 'state'>
  redirectTo: string
  result?: HelpActionData
  onCancel?: () => void
  autoFocus?: boolean
}) {
  const id = useId()
  const FormComponent = fetcher ? fetcher.Form : Form
  const failed = result && !result.ok ? result : null
  const fieldError = failed?.errors?.question?.[0]
  return (
    <FormComponent method="post" action="/help" className="space-y-4">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {fetcher ? <input type="hidden" name="mode" value="modal" /> : null}
      <FormMessage message={failed && !fieldError ? failed.message : null} tone="error" />
      <div>
        <label htmlFor={`${id}-question`} className="sr-only">
          Your question
        </label>
        <textarea
          id={`${id}-question`}
          name="question"
          rows={4}
          required
          maxLength={5000}
          placeholder="Describe your question..."
          defaultValue={failed?.question}
          autoFocus={autoFocus}
          data-autofocus={autoFocus || undefined}
          className="input resize-y"
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? `${id}-error` : undefined}
        />
        {fieldError ? (
          <p id={`${id}-error`} className="field-error" role="alert">
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
