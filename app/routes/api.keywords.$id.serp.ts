import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { researchedWordCounts } from '#app/features/content/research-pages.server'
import { keywordSerpView } from '#app/features/keywords/serp-view.server'
import { SERP_VIEW_MESSAGES } from '#app/features/keywords/serp-view'

/**
 * GET /api/keywords/:id/serp → 200 {data: {keyword, summary, hint, features, strengthAvailable, fetchedAt, results:
 * [{rank, title, url, domain, strength, kind, words, publishedAt, age}]}} for one of the user's saved keywords.
 * The first call per keyword and UTC day counts as one keyword search (402 {redirect_to_profile: true, message} at
 * the limit); 404 for an unknown id or another user's keyword; 502 when Google's results could not be read (nothing
 * charged); 503 when reading them is not available.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  const answer = await keywordSerpView(userId, params.id ?? '', { wordCounts: researchedWordCounts })
  if (!answer.ok) {
    if (answer.reason === 'not_found') return apiError(404, SERP_VIEW_MESSAGES.notFound)
    if (answer.reason === 'quota') return apiError(402, answer.message, { redirect_to_profile: true })
    return apiError(answer.reason === 'unavailable' ? 503 : 502, answer.message)
  }
  const { keyword, rows, summary, features, strengthAvailable, fetchedAt } = answer.view
  return json(
    {
      data: {
        keyword,
        summary: summary.text,
        counts: summary.counts,
        hint: summary.hint,
        features: features.map((f) => f.id),
        strengthAvailable,
        fetchedAt,
        results: rows,
      },
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export function action() {
  return apiError(405, 'Method not allowed.')
}
