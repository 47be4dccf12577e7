import { json, type ActionFunctionArgs } from '@remix-run/node'
import { keywordSearchSchema, SEARCH_ERROR_MESSAGE, SEARCH_UNAVAILABLE_MESSAGE } from '#app/features/keywords/keywords'
import { apiError, parseJson, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { quotaRefusal } from '#app/features/billing/quota.server'
import { searchKeywordsWithQuota, toApiKeyword } from '#app/features/keywords/keywords.server'

/**
 * POST /api/search {query, countryCode, languageCode, countryName, languageName} → 200 {data: [saved keywords]}, plus
 * `note` (issue 36) when part of the answer is missing (e.g. the intent call failed: those rows have intent null).
 * Over quota: 402 {redirect_to_profile: true, message} (never 403: clients sign out on any 403).
 * Bad input: 400 {message, errors}. Provider failure: 502; no provider configured: 503.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request)
  const input = await parseJson(request, keywordSearchSchema)
  const result = await searchKeywordsWithQuota(userId, input)
  if (result.ok) return json({ data: result.keywords.map(toApiKeyword), ...(result.note ? { note: result.note } : {}) })
  if (result.reason === 'quota')
    return apiError(402, (await quotaRefusal(userId, 'keywordSearches')).message, { redirect_to_profile: true })
  if (result.reason === 'unavailable') return apiError(503, SEARCH_UNAVAILABLE_MESSAGE)
  return apiError(502, SEARCH_ERROR_MESSAGE)
}

export function loader() {
  return apiError(405, 'Method not allowed.')
}
