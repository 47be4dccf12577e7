import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { isUuid } from '#app/platform/security/ids'
import { addLinkSchema, POST_MESSAGES } from '#app/features/content/posts'
import { apiError, parseJson, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { addLinkFrom, linkSuggestions } from '#app/features/content/link-suggestions.server'

/**
 * GET /api/blogpost/:id/links → {ready, target?, data: [suggestion]}: the user's older related posts that could link
 * to this published post, with the change each link makes. POST {fromPostId} → 200 {message, alreadyLinked}: adds
 * the link to that older post (saved as a new version); 409 while this post has no live URL.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  if (!isUuid(params.id ?? '')) return apiError(404, POST_MESSAGES.notFound)
  const found = await linkSuggestions(userId, params.id!)
  if (!found) return apiError(404, POST_MESSAGES.notFound)
  return found.ready
    ? json({ ready: true, target: found.target, data: found.suggestions })
    : json({ ready: false, reason: found.reason, data: [] })
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request)
  if (!isUuid(params.id ?? '')) return apiError(404, POST_MESSAGES.notFound)
  const input = await parseJson(request, addLinkSchema)
  const result = await addLinkFrom(userId, params.id!, input.fromPostId)
  if (!result.ok) return apiError(result.status, result.message)
  return json({ message: result.message, alreadyLinked: result.alreadyLinked, fromPostId: result.from.id })
}
