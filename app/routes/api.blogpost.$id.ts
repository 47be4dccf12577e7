import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { apiError, parseJson, requireApiUser } from '#app/features/accounts/api-auth.server'
import {
  copyChoiceSchema as choice,
  deletePostSchema as deleteBody,
  DELETION_MESSAGES,
  type CopyChoice,
  type LiveCopy,
} from '#app/features/publishing/deletion'
import { deletePostWithCopies, liveCopiesOf } from '#app/features/publishing/deletion.server'
import { getPost, POST_MESSAGES } from '#app/features/content/posts.server'

/** GET /api/blogpost/:id → {title, content, created_at, seo_score, seo_checklist, claims, json_ld, brief}; 404 for an unknown id or another user's post. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  const post = await getPost(user.id, params.id ?? '')
  if (!post) return apiError(404, POST_MESSAGES.notFound)
  return json({
    _id: post.id,
    post_id: post.id,
    title: post.title || post.keyword,
    content: post.contentMarkdown,
    created_at: post.createdAt.toISOString(),
    status: post.status,
    seo_score: post.seoScore,
    seo_checklist: post.seoChecklist,
    claims: post.claims,
    json_ld: post.jsonLd,
    research_status: post.researchStatus,
    brief: post.brief,
    ...(post.status === 'failed' ? { failure_reason: post.failureReason } : {}),
  })
}

const copyJson = (c: LiveCopy) => ({
  destination_id: c.destinationId,
  destination: c.destinationName,
  kind: c.kind,
  status: c.status,
  url: c.remoteUrl,
})

/**
 * DELETE /api/blogpost/:id → {message}; 404 for an unknown id or another user's post (nothing deleted). Its
 * webhook deliveries stay as history; the quota unit it took is not given back (docs/decisions/0210).
 *
 * A post that is live on a destination (published, or failed with a copy there, or being published) needs a choice
 * for each live copy: a JSON body `{"copies": {"<destination id>": "unpublish" | "delete" | "leave"}}`, or
 * `?copies=unpublish|delete|leave` for all of them. Without one, nothing is deleted: 400 {message, copies: [{
 * destination_id, destination, kind, status, url}]}. 'unpublish' reverts the copy to a draft there, 'delete'
 * deletes it there, 'leave' leaves it as it is. When a copy is to come down the answer is 202 {message, _id,
 * copies}: the post disappears at once (404 from then on) and is deleted for good once the copies are down; a copy
 * that cannot be taken down keeps it in 'Being deleted' on the library, where the user tries again or leaves it.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'DELETE') return apiError(405, 'Method not allowed.')
  const user = await requireApiUser(request)
  const postId = params.id ?? ''
  const input = await parseJson(request, deleteBody)
  const all = new URL(request.url).searchParams.get('copies')
  if (all !== null && !choice.safeParse(all).success)
    return apiError(400, 'Choose unpublish, delete or leave.', {
      errors: { copies: 'Choose unpublish, delete or leave.' },
    })
  let choices: Record<string, CopyChoice> = input.copies ?? {}
  if (all !== null) {
    const copies = await liveCopiesOf(user.id, postId)
    choices = Object.fromEntries(copies.map((c) => [c.destinationId, choices[c.destinationId] ?? (all as CopyChoice)]))
  }
  const result = await deletePostWithCopies(user.id, postId, choices)
  if (!result.ok && result.reason === 'not_found') return apiError(404, POST_MESSAGES.notFound)
  if (!result.ok)
    return apiError(400, DELETION_MESSAGES.chooseCopies, {
      errors: { copies: DELETION_MESSAGES.chooseCopies },
      copies: result.copies.map(copyJson),
    })
  if (result.deleted) return json({ message: DELETION_MESSAGES.deleted, _id: postId })
  return json(
    { message: DELETION_MESSAGES.deleting, _id: postId, copies: result.copies.map(copyJson) },
    { status: 202 },
  )
}
