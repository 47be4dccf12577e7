import type { LoaderFunctionArgs } from '@remix-run/node'
import { keywordListSchema } from '#app/features/keywords/keyword-library'
import { API_DEFAULT_LIMIT, parseParams } from '#app/platform/lists/list-params'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { toApiKeyword } from '#app/features/keywords/keywords.server'
import { wholeJson } from '#app/platform/http/remix-handler.server'
import { BadCursorError } from '#app/platform/lists/keyset.server'
import { pageKeywords } from '#app/features/keywords/keyword-library.server'

/**
 * GET /api/saved-keywords → {data: [...], total, nextCursor}: the keywords searched by hand (not Auto Pilot's),
 * by default newest first then higher volume. Pages by cursor (`?limit=` 1-500, default 500; `?cursor=`), and
 * searches, filters and sorts like the Keywords screen: `q`, `difficulty` (easy, medium, hard, very_hard, none),
 * `minVolume`, `maxVolume`, `country`, `language` (codes), `sort` (date, keyword, volume, difficulty), `order`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  const parsed = parseParams(keywordListSchema, new URL(request.url).searchParams)
  if (!parsed.ok) return apiError(400, 'Invalid query parameters.', { errors: parsed.errors })
  let page
  try {
    page = await pageKeywords(userId, parsed.data, { limit: parsed.data.limit ?? API_DEFAULT_LIMIT })
  } catch (error) {
    if (error instanceof BadCursorError)
      return apiError(400, 'Invalid query parameters.', { errors: { cursor: error.message } })
    throw error
  }
  // Up to 500 rows: encoded once and sent in one write.
  return wholeJson(
    {
      data: page.rows.map(toApiKeyword),
      total: page.total,
      totalCapped: page.totalCapped,
      nextCursor: page.nextCursor,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}
