import { z } from 'zod'
import { cursor, limit, optional, search } from '#app/platform/lists/list-params'

/** The saved keywords' library (issue 21): filters, sorts and the list schema of /keywords and GET /api/saved-keywords. */

/** At most this many keywords in one bulk action (a Premium month is 100 posts). */
export const MAX_BULK_KEYWORDS = 100

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

/** Saved keywords are counted up to this many; a larger list shows '10,000+' (issue 21). */
export const KEYWORD_TOTAL_CAP = 10_000
