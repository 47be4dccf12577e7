import type { z } from 'zod'

/**
 * The one way a zod error becomes field errors, for forms (shown next to each field) and the JSON API
 * (`{message, errors}`). An issue belongs to the field named by the first segment of its path; an issue without
 * a path is about the whole form.
 */
export type FieldErrors = Partial<Record<string, string[]>>

const fieldOf = (issue: z.ZodIssue) => (issue.path.length > 0 ? String(issue.path[0]) : null)

/** Every message of each field, and the first message (for the banner and the API's `message`). */
export function describeErrors(error: z.ZodError): { message: string; errors: FieldErrors } {
  const errors: Record<string, string[]> = {}
  const formErrors: string[] = []
  for (const issue of error.issues) {
    const field = fieldOf(issue)
    if (field === null) formErrors.push(issue.message)
    else (errors[field] ??= []).push(issue.message)
  }
  return { message: Object.values(errors).flat()[0] ?? formErrors[0] ?? 'Invalid input.', errors }
}

/** The first message of each field (whole-form messages under `form`). */
export function firstFieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {}
  for (const issue of error.issues) out[fieldOf(issue) ?? 'form'] ??= issue.message
  return out
}
