import { z } from 'zod'
import { safeText } from '#app/platform/security/safe-text'

/**
 * The two libraries at any size (issue 21): the search, filter, sort and paging parameters of /blogposts,
 * /keywords, GET /api/blogposts and GET /api/saved-keywords, shared by the screens and the APIs. Pure (no I/O).
 */

export const POSTS_PAGE_SIZE = 20
/** The API's default page: as large as the answer was before paging, so the spec's client still gets every post. */
export const API_DEFAULT_LIMIT = 500
export const API_MAX_LIMIT = 500
export const MAX_SEARCH_LENGTH = 200
/** At most this many keywords in one bulk action (a Premium month is 100 posts). */
export const MAX_BULK_KEYWORDS = 100

// ---------------------------------------------------------------------------------------------------------------
// Posts
// ---------------------------------------------------------------------------------------------------------------

/**
 * The status filter: each value is a group of stored statuses. Publishing states are added here as values of their
 * own (with their stored statuses) when they exist; the screens and the API list them from this table.
 */
export const POST_STATUS_FILTERS = {
  writing: { label: 'Being written', statuses: ['queued', 'generating'] },
  ready: { label: 'Ready', statuses: ['completed'] },
  failed: { label: 'Failed', statuses: ['failed'] },
} as const satisfies Record<string, { label: string; statuses: readonly string[] }>
export type PostStatusFilter = keyof typeof POST_STATUS_FILTERS
const statusFilterValues = Object.keys(POST_STATUS_FILTERS) as [PostStatusFilter, ...PostStatusFilter[]]

/** The review state of a post (shared contract, issue 15 sets it). */
export const POST_REVIEW_FILTERS = {
  waiting: 'Waiting for review',
  approved: 'Approved',
  rejected: 'Rejected',
} as const
export type PostReviewFilter = keyof typeof POST_REVIEW_FILTERS
const reviewValues = Object.keys(POST_REVIEW_FILTERS) as [PostReviewFilter, ...PostReviewFilter[]]

export const POST_ORIGIN_FILTERS = { manual: 'Manual', autopilot: 'Auto Pilot' } as const
export type PostOrigin = keyof typeof POST_ORIGIN_FILTERS

/** '' and absent mean "no filter"; anything else must be a known value. */
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional())

const search = optional(safeText().trim().max(MAX_SEARCH_LENGTH, `Use at most ${MAX_SEARCH_LENGTH} characters.`))
const cursor = optional(
  z
    .string()
    .max(400)
    .regex(/^[A-Za-z0-9_-]+$/, 'Not a valid cursor.'),
)
const limit = optional(
  z.coerce
    .number({ invalid_type_error: 'Must be a number.' })
    .int('Must be a whole number.')
    .min(1, 'Must be at least 1.')
    .max(API_MAX_LIMIT, `Must be at most ${API_MAX_LIMIT}.`),
)

export const postListSchema = z.object({
  q: search,
  status: optional(z.enum(statusFilterValues, { message: `One of: ${statusFilterValues.join(', ')}.` })),
  source: optional(z.enum(['manual', 'autopilot'], { message: 'One of: manual, autopilot.' })),
  language: optional(safeText().trim().max(100)),
  review: optional(z.enum(reviewValues, { message: `One of: ${reviewValues.join(', ')}.` })),
  cursor,
  limit,
})
export type PostListParams = z.infer<typeof postListSchema>

// ---------------------------------------------------------------------------------------------------------------
// Saved keywords
// ---------------------------------------------------------------------------------------------------------------

/** Difficulty bands as score ranges (the table's badges: Easy 0-29, Medium 30-59, Hard 60-79, Very Hard 80+). */
export const DIFFICULTY_FILTERS = {
  easy: { label: 'Easy', min: 0, max: 29 },
  medium: { label: 'Medium', min: 30, max: 59 },
  hard: { label: 'Hard', min: 60, max: 79 },
  very_hard: { label: 'Very Hard', min: 80, max: null },
  none: { label: 'N/A', min: null, max: null },
} as const
export type DifficultyFilter = keyof typeof DIFFICULTY_FILTERS
const difficultyValues = Object.keys(DIFFICULTY_FILTERS) as [DifficultyFilter, ...DifficultyFilter[]]

/** Sortable columns; `date` is the spec's order (newest first, then higher volume). */
export const KEYWORD_SORTS = ['date', 'keyword', 'volume', 'difficulty'] as const
export type KeywordSort = (typeof KEYWORD_SORTS)[number]
export type SortOrder = 'asc' | 'desc'
/** The direction a column sorts in on its first click. */
export const DEFAULT_ORDER: Record<KeywordSort, SortOrder> = {
  date: 'desc',
  keyword: 'asc',
  volume: 'desc',
  difficulty: 'asc',
}

const volume = optional(
  z.coerce
    .number({ invalid_type_error: 'Must be a number.' })
    .int('Must be a whole number.')
    .min(0, 'Must be 0 or more.')
    .max(1_000_000_000, 'Too large.'),
)

export const keywordListSchema = z
  .object({
    q: search,
    difficulty: optional(z.enum(difficultyValues, { message: `One of: ${difficultyValues.join(', ')}.` })),
    minVolume: volume,
    maxVolume: volume,
    country: optional(
      z
        .string()
        .trim()
        .regex(/^\d{1,10}$/, 'Not a country code.'),
    ),
    language: optional(
      z
        .string()
        .trim()
        .regex(/^\d{1,10}$/, 'Not a language code.'),
    ),
    sort: optional(z.enum(KEYWORD_SORTS, { message: `One of: ${KEYWORD_SORTS.join(', ')}.` })),
    order: optional(z.enum(['asc', 'desc'], { message: 'One of: asc, desc.' })),
    cursor,
    limit,
  })
  .refine((v) => v.minVolume === undefined || v.maxVolume === undefined || v.minVolume <= v.maxVolume, {
    message: 'Must be at least the minimum volume.',
    path: ['maxVolume'],
  })
export type KeywordListParams = z.infer<typeof keywordListSchema>

// ---------------------------------------------------------------------------------------------------------------
// Parsing and cursors
// ---------------------------------------------------------------------------------------------------------------

export type ParamErrors = Record<string, string>

/** The query string's values for a schema's keys (the last value of a repeated key wins). */
export function parseParams<S extends z.ZodTypeAny>(
  schema: S,
  params: URLSearchParams,
): { ok: true; data: z.infer<S> } | { ok: false; errors: ParamErrors } {
  const raw: Record<string, string> = {}
  for (const [key, value] of params) raw[key] = value
  const parsed = schema.safeParse(raw)
  if (parsed.success) return { ok: true, data: parsed.data as z.infer<S> }
  const errors: ParamErrors = {}
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'query')
    errors[field] ??= issue.message
  }
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

/** The URL of the same list with some parameters changed (empty values dropped). */
/** Saved keywords are counted up to this many; a larger list shows '10,000+' (issue 21). */
export const KEYWORD_TOTAL_CAP = 10_000

/** A list's total for people: '1,234', or '10,000+' when the count stopped at its cap. */
export function formatTotal(total: number, capped: boolean) {
  return `${THOUSANDS.format(total)}${capped ? '+' : ''}`
}
const THOUSANDS = new Intl.NumberFormat('en-US')

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

// ---------------------------------------------------------------------------------------------------------------
// Bulk 'Create posts' and cannibalisation
// ---------------------------------------------------------------------------------------------------------------

type Skipped = { keyword: string; overlapTitle: string }

function quotedList(items: string[], max = 3) {
  const shown = items.slice(0, max).map((t) => `“${t}”`)
  return items.length > max ? `${shown.join(', ')} and ${items.length - max} more` : shown.join(', ')
}

/** What bulk 'Create posts' says about the selected keywords it left out: the user covers them already. */
export function skippedKeywordsMessage(skipped: Skipped[]): string {
  if (skipped.length === 1)
    return `Skipped “${skipped[0]!.keyword}”: you already have “${skipped[0]!.overlapTitle}” for a very similar search.`
  return `Skipped ${skipped.length} keywords you already have posts for: ${quotedList(skipped.map((s) => s.keyword))}.`
}

/** The refusal when every selected keyword is covered already (one: the single post's overlap message). */
export function allSkippedMessage(skipped: Skipped[]): string {
  if (skipped.length === 1)
    return `You already have "${skipped[0]!.overlapTitle}" for a very similar search: update it instead?`
  return `You already have posts for very similar searches: ${quotedList(skipped.map((s) => s.overlapTitle))}. Update them instead?`
}
