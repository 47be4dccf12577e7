import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import type { z } from 'zod'
import { firstMessage, parseSubmission } from '#app/platform/forms/submission'

/**
 * A form checked by a zod schema, the one way (decision 0311, Conform). `lastResult` is the action's reply
 * (`submission.reply()`): the server-rendered page shows its field errors and kept values, so the form works the
 * same without JavaScript. With JavaScript the same schema checks the form when it is sent (an invalid form is not
 * sent: its messages appear at once) and then each wrong field again as it is corrected. `formProps` go on the <Form>; `message` is the first error, for the
 * banner above it; `fields.<name>` go to the fields' `meta`.
 */
export function useSchemaForm<S extends z.ZodTypeAny>({
  id,
  schema,
  lastResult,
  defaultValue,
}: {
  id: string
  schema: S
  lastResult?: SubmissionResult<string[]> | null
  defaultValue?: Partial<Record<keyof z.input<S>, string>>
}) {
  const [form, fields] = useForm<z.input<S>>({
    id,
    lastResult,
    defaultValue: defaultValue as never,
    // Checked when sent, then again as each wrong field is corrected. Not on blur: a message appearing under a field
    // the moment it is left moves what is below it between a press and its release, and the click misses.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, schema),
  })
  return { form, fields, formProps: getFormProps(form), message: firstMessage({ error: form.allErrors }) }
}
