import { json, type ActionFunctionArgs } from '@remix-run/node'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { deleteKeywords } from '#app/features/keywords/keyword-library.server'

/** DELETE /api/saved-keywords/:id → {message}; 404 for an unknown id or another user's keyword (nothing deleted). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'DELETE') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request)
  const deleted = await deleteKeywords(userId, [params.id ?? ''])
  if (deleted.length === 0) return apiError(404, 'Keyword not found.')
  return json({ message: 'Keyword deleted.', _id: deleted[0] })
}
