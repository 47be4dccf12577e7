import { json, type ActionFunctionArgs } from '@remix-run/node'
import { apiError, parseJson, requireApiUser } from '#app/features/accounts/api-auth.server'
import { overlapMessage } from '#app/features/content/cannibalisation.server'
import { quotaRefusal } from '#app/features/billing/quota.server'
import { createPostSchema, type PostStatus } from '#app/features/content/posts'
import { createPost, POST_MESSAGES } from '#app/features/content/posts.server'

/**
 * POST /api/creator {keywordId}: starts writing a post from a saved keyword (202).
 * Send the same `Idempotency-Key` header (or `requestKey`) to retry a request safely: it never makes a second post,
 * and answers 200 with the post's real `status`. A post whose first request failed only because the queue was
 * unreachable (503) is started by the retry.
 * A keyword very close to an existing post or page of the user: 409 {message, existing} (send `force: true` to
 * write it anyway); 409 while a post for this keyword is still being written. Over quota: 402 with `redirect_to_profile: true` (not 403, which clients treat as a dead session).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const user = await requireApiUser(request)
  const body = await parseJson(request, createPostSchema)
  const requestKey =
    body.requestKey ?? request.headers.get('Idempotency-Key')?.trim().slice(0, 200) ?? crypto.randomUUID()
  const result = await createPost({
    userId: user.id,
    keywordId: body.keywordId,
    requestKey: `api:${requestKey}`,
    source: 'manual',
    force: body.force,
  })
  // A repeated request reports the post's real state (queued, generating, completed or failed).
  if (result.ok)
    return json(
      {
        message: creatorMessage(result.status, result.failureReason),
        _id: result.postId,
        post_id: result.postId,
        status: result.status,
        created: result.created,
        ...(result.status === 'failed' ? { failure_reason: result.failureReason } : {}),
      },
      { status: result.created ? 202 : 200 },
    )
  if (result.reason === 'overlap')
    return apiError(409, overlapMessage(result.overlap), {
      existing: {
        post_id: result.overlap.postId,
        title: result.overlap.title,
        url: result.overlap.url,
        similarity: result.overlap.similarity,
      },
      hint: 'Send force: true to write a new post anyway.',
    })
  if (result.reason === 'quota')
    return apiError(402, (await quotaRefusal(user.id, 'blogPosts')).message, { redirect_to_profile: true })
  if (result.reason === 'not_found') return apiError(404, POST_MESSAGES.keywordNotFound)
  if (result.reason === 'in_progress') return apiError(409, POST_MESSAGES.inProgress)
  // The queue was unreachable (Redis away): a retry with the same Idempotency-Key starts the post.
  const unavailable = apiError(503, POST_MESSAGES.failed)
  unavailable.headers.set('Retry-After', '5')
  return unavailable
}

function creatorMessage(status: PostStatus, failureReason: string | null) {
  if (status === 'completed') return POST_MESSAGES.alreadyWritten
  if (status === 'failed') return failureReason ?? POST_MESSAGES.failed
  return POST_MESSAGES.created
}

export function loader() {
  return apiError(405, 'Method not allowed')
}
