import { formatPaths } from '@conform-to/dom'
import { parseWithZod } from '@conform-to/zod'
import type { z } from 'zod'

/**
 * The one way a form (and its JSON twin) turns a zod schema's failures into field errors and kept values: Conform
 * (decision 0311). A form's action calls `parseSubmission` on the posted FormData; on failure it answers
 * `submission.reply()` (field errors by name, the values to show again), or `submission.reply({ formErrors, hideFields })`
 * for a refusal decided after validation. The page hands that reply to `useSchemaForm` (app/ui/form.tsx) as
 * `lastResult`: without JavaScript the server-rendered page shows it, with JavaScript the same schema also checks the
 * form before it is sent. The JSON API answers `apiErrors` of the same schema: the same names and messages.
 *
 * Values are parsed as the strings the browser posts (no automatic coercion): the schemas say how a string becomes
 * a number or a flag, so a form and its JSON twin are read alike and an empty field gets the schema's own message.
 */
export function parseSubmission<S extends z.ZodTypeAny>(payload: FormData | URLSearchParams, schema: S) {
  return parseWithZod(withoutBrokenControls(payload), { schema, disableAutoCoercion: true })
}

/** Conform's own fields: an intent (validate, reset…) and the form's state, both JSON. */
const CONTROL_FIELDS = ['__intent__', '__state__']

/**
 * The payload without a Conform control field that is not JSON: Conform would throw on it (a 500 for a hand-made
 * post), while without it the post is read as the plain form it is.
 */
function withoutBrokenControls<P extends FormData | URLSearchParams>(payload: P): P {
  const broken = CONTROL_FIELDS.filter((name) =>
    payload.getAll(name).some((value) => {
      if (typeof value !== 'string') return true
      try {
        JSON.parse(value)
        return false
      } catch {
        return true
      }
    }),
  )
  if (broken.length === 0) return payload
  const copy = (payload instanceof FormData ? new FormData() : new URLSearchParams()) as P
  for (const [name, value] of payload.entries())
    if (!broken.includes(name)) (copy as FormData).append(name, value as string | Blob)
  return copy
}

export type FormSubmission<S extends z.ZodTypeAny> = ReturnType<typeof parseSubmission<S>>
export type { SubmissionResult } from '@conform-to/dom'

/** Field errors by Conform's field names (`email`, `items[0].name`); '' holds the errors about the whole form. */
export type FieldErrors = Partial<Record<string, string[]>>

/**
 * A zod error as the JSON API answers it: `errors` by the names Conform gives the form's fields, and `message`, the
 * first of them (for a banner, or a client that shows one line).
 */
export function apiErrors(error: z.ZodError): { message: string; errors: FieldErrors } {
  const errors: Record<string, string[]> = {}
  for (const issue of error.issues) (errors[formatPaths(issue.path)] ??= []).push(issue.message)
  const fieldMessages = Object.entries(errors).filter(([name]) => name !== '')
  return { message: fieldMessages[0]?.[1][0] ?? errors['']?.[0] ?? 'Invalid input.', errors }
}

/** The first message of a reply's errors (a field's, else the form's), for the banner above a form. */
export function firstMessage(result: { error?: Record<string, string[] | null> | null } | undefined) {
  const entries = Object.entries(result?.error ?? {})
  const messages = [...entries.filter(([name]) => name !== ''), ...entries.filter(([name]) => name === '')]
  return messages.flatMap(([, list]) => list ?? [])[0]
}
