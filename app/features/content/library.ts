import { z } from 'zod'
import { cursor, limit, optional, search } from '#app/platform/lists/list-params'
import { safeText } from '#app/platform/security/safe-text'

/**
 * The posts' library (issue 21): the filters and list schema of /blogposts and GET /api/blogposts, and what bulk
 * 'Create posts' says about keywords it skipped. Pure (no I/O). Paging helpers: app/platform/lists/list-params.ts.
 */

export const POSTS_PAGE_SIZE = 20

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
