import { Form, type FetcherWithComponents } from '@remix-run/react'
import { useId } from 'react'
import { FormMessage } from './ui/form-message'
import { SubmitButton } from './ui/submit-button'

export type HelpActionData =
  { ok: true } | { ok: false; message: string; errors?: Partial<Record<string, string[]>>; question: string }

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
  fetcher?: FetcherWithComponents<HelpActionData>
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
