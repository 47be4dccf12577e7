import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { keywordHistory } from '#app/features/rankings/rankings.server'
import { historyQuerySchema } from '#app/features/rankings/rankings'
import { apiErrors } from '#app/platform/forms/submission'

/** GET /api/rankings/:keywordId/history[?days=365] → {keyword, data: [{day, status, position, url}]}, oldest first. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  const parsed = historyQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams))
  if (!parsed.success)
    throw apiError(400, 'days must be a whole number from 1 to 3650.', { errors: apiErrors(parsed.error).errors })
  const history = await keywordHistory(userId, params.keywordId ?? '', { days: parsed.data.days })
  if (!history) throw apiError(404, 'Keyword not found.')
  const k = history.keyword
  return json(
    {
      keyword: {
        id: k.id,
        keyword: k.keyword,
        countryCode: k.countryCode,
        languageCode: k.languageCode,
        starred: k.starred,
        postId: k.postId,
        savedKeywordId: k.savedKeywordId,
        best: k.bestPosition,
      },
      data: history.points,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}
