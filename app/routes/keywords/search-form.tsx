import type { FieldMetadata } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { firstMessage, parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { COUNTRY_OPTIONS, LANGUAGE_OPTIONS } from '#app/platform/markets/markets'
import { keywordSearchSchema, SEARCH_VALIDATION_MESSAGE } from '#app/features/keywords/keywords'
import { Field, SelectField } from '#app/ui/field'
import { useSchemaForm } from '#app/ui/form'
import { SubmitButton } from '#app/ui/submit-button'

export type SearchDefaults = { query: string; countryCode: string; languageCode: string }

/**
 * A search field's name, id, kept value and key, without a message below it: what is wrong with a search is said in
 * the page's dialog (the spec), not next to the fields.
 */
function wiring(meta: FieldMetadata<string>) {
  return { id: meta.id, name: meta.name, defaultValue: meta.initialValue ?? '' }
}

/**
 * 'Find Keywords': keyword, country and language, checked by `keywordSearchSchema` (decision 0311). Without
 * JavaScript the server answers an incomplete search with the dialog and the fields as they were sent (`lastResult`);
 * with it, the same schema refuses the search before it is sent and `onRefused` opens the dialog with its message.
 */
export function SearchForm({
  defaults,
  lastResult,
  searching,
  disabled,
  onRefused,
}: {
  defaults: SearchDefaults
  lastResult: SubmissionResult<string[]> | undefined
  searching: boolean
  disabled: boolean
  onRefused: (message: string) => void
}) {
  const { fields, formProps } = useSchemaForm({
    id: 'keyword-search',
    schema: keywordSearchSchema,
    lastResult,
    defaultValue: defaults,
  })
  return (
    <Form
      method="post"
      action="/keywords"
      className="card mb-8 grid gap-4 md:grid-cols-[2fr_1fr_1fr_auto] md:items-end"
      {...formProps}
      onSubmit={(event) => {
        formProps.onSubmit(event)
        if (!event.defaultPrevented) return
        // Conform also submits the form to check a field again as it is corrected (its own submitter): not a search.
        const { submitter } = event.nativeEvent as SubmitEvent
        const search = parseSubmission(new FormData(event.currentTarget, submitter), keywordSearchSchema)
        if (search.status !== 'error') return
        // Conform has focused the first wrong field; the message is in a dialog, whose opener (to give the focus back
        // to when it closes) is the button pressed.
        if (submitter instanceof HTMLElement) submitter.focus()
        onRefused(firstMessage(search.reply()) ?? SEARCH_VALIDATION_MESSAGE)
      }}
    >
      <Field
        label="Keyword/Topic"
        key={fields.query.key}
        {...wiring(fields.query)}
        placeholder="saas marketing"
        autoComplete="off"
        aria-required="true"
        maxLength={200}
      />
      <SelectField
        label="Country"
        key={fields.countryCode.key}
        {...wiring(fields.countryCode)}
        placeholder="Select country"
        options={COUNTRY_OPTIONS}
        aria-required="true"
      />
      <SelectField
        label="Language"
        key={fields.languageCode.key}
        {...wiring(fields.languageCode)}
        placeholder="Select language"
        options={LANGUAGE_OPTIONS}
        aria-required="true"
      />
      <SubmitButton
        intent="search"
        pending={searching}
        pendingText="Analyzing..."
        className="btn-primary whitespace-nowrap"
        {...(disabled ? { disabled: true } : {})}
      >
        Find Keywords
      </SubmitButton>
    </Form>
  )
}
