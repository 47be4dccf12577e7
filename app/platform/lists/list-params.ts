import { z } from 'zod'
import { parseSubmission } from '#app/platform/forms/submission'
import { safeText } from '#app/platform/security/safe-text'

/**
 * Lists at any size (issue 21): the search, cursor and limit parameters shared by the libraries' screens and APIs
 * (/blogposts, /keywords, GET /api/blogposts, GET /api/saved-keywords), parsing, keyset cursors and list URLs. Pure.
 */

/** The API's default page: as large as the answer was before paging, so the spec's client still gets every post. */
export const API_DEFAULT_LIMIT = 500
export const API_MAX_LIMIT = 500
export const MAX_SEARCH_LENGTH = 200

/** '' and absent mean "no filter"; anything else must be a known value. */
export const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional())

export const search = optional(safeText().trim().max(MAX_SEARCH_LENGTH, `Use at most ${MAX_SEARCH_LENGTH} characters.`))
export const cursor = optional(
  z
    .string()
    .max(400)
    .regex(/^[A-Za-z0-9_-]+$/, 'Not a valid cursor.'),
)
export const limit = optional(
  z.coerce
    .number({ invalid_type_error: 'Must be a number.' })
    .int('Must be a whole number.')
    .min(1, 'Must be at least 1.')
    .max(API_MAX_LIMIT, `Must be at most ${API_MAX_LIMIT}.`),
)

export type ParamErrors = Record<string, string>

/** A parameter name of ours: Conform would read `a.b` and `a[0]` as paths, and `__intent__`/`__state__` are its own. */
const PARAM_NAME = /^[A-Za-z]\w*$/

/**
 * The query string's values for a schema's keys, read as a form is (`parseSubmission`, decision 0311; the last value
 * of a repeated key wins, names that are not ours are left out). Errors: the first message of each parameter, by its
 * name (`query` for one about the whole query).
 */
export function parseParams<S extends z.ZodTypeAny>(
  schema: S,
  params: URLSearchParams,
): { ok: true; data: z.infer<S> } | { ok: false; errors: ParamErrors } {
  const last = new URLSearchParams()
  for (const [key, value] of params) if (PARAM_NAME.test(key)) last.set(key, value)
  const submission = parseSubmission(last, schema)
  if (submission.status === 'success') return { ok: true, data: submission.value as z.infer<S> }
  const errors: ParamErrors = {}
  for (const [name, messages] of Object.entries(submission.error ?? {}))
    if (messages?.[0]) errors[name || 'query'] = messages[0]
  return { ok: false, errors }
}

/** A cursor is the sort key of the last row of a page (opaque to clients: base64url JSON). */
export function encodeCursor(values: Array<string | number>): string {
  const json = JSON.stringify(values)
  const bytes = new TextEncoder().encode(json)
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export function decodeCursor(cursor: string): Array<string | number> | null {
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'))
    const json = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
    const value: unknown = JSON.parse(json)
    if (!Array.isArray(value) || value.length < 2 || value.length > 4) return null
    if (!value.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) return null
    return value as Array<string | number>
  } catch {
    return null
  }
}

/** A LIKE pattern that matches the text anywhere, with the user's %, _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** A list's total for people: '1,234', or '10,000+' when the count stopped at its cap. */
export function formatTotal(total: number, capped: boolean) {
  return `${THOUSANDS.format(total)}${capped ? '+' : ''}`
}
const THOUSANDS = new Intl.NumberFormat('en-US')

/** The URL of the same list with some parameters changed (empty values dropped). */
export function withParams(base: string, params: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(params)
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') next.delete(key)
    else next.set(key, value)
  }
  for (const [key, value] of [...next]) if (value === '') next.delete(key)
  const query = next.toString()
  return query ? `${base}?${query}` : base
}
