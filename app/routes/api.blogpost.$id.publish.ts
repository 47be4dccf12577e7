import { isUuid } from '#app/platform/security/ids'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { publishActionSchema } from '#app/features/publishing/publishing'
import { apiError, parseJson, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { listPublications, requestPublish, requestUnpublish } from '#app/features/publishing/publications.server'
import { approvePost, rejectPost } from '#app/features/publishing/review.server'

/**
 * GET /api/blogpost/:id/publish → {data: [publication]} (status, remote URL, last error per destination).
 * POST {action: 'publish', targets: [destinationId | 'webhook'], publishAt?, confirmRecreate?} → 202
 * {scheduled, publicationIds}; {action: 'unpublish', target} → 202; {action: 'approve', publishAt?} and
 * {action: 'reject'} for a draft waiting for review → 200 {message}. Every POST needs a personal API key's 'publish'
 * scope (decision 0380): publishing and approving stay with the person who allowed it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  if (!isUuid(params.id ?? '')) return apiError(404, 'No blog post found.')
  return json({ data: await listPublications(userId, [params.id!]) })
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request, { scope: 'publish' })
  const postId = params.id ?? ''
  if (!isUuid(postId)) return apiError(404, 'No blog post found.')
  const input = await parseJson(request, publishActionSchema)
  switch (input.action) {
    case 'publish': {
      const result = await requestPublish(userId, postId, input.targets, {
        publishAt: input.publishAt,
        confirmRecreate: input.confirmRecreate,
      })
      if (!result.ok) return apiError(result.status, result.message)
      return json({ scheduled: result.scheduled, publicationIds: result.publicationIds }, { status: 202 })
    }
    case 'unpublish': {
      const result = await requestUnpublish(userId, postId, input.target)
      return result.ok ? json({ ok: true }, { status: 202 }) : apiError(result.status, result.message)
    }
    case 'approve':
    case 'reject': {
      const result =
        input.action === 'approve'
          ? await approvePost(userId, postId, input.publishAt)
          : await rejectPost(userId, postId)
      return result.ok ? json({ message: result.message }) : apiError(result.status, result.message)
    }
  }
}
