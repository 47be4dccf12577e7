import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { apiError, requireApiUser } from '#app/features/accounts/api-auth.server'
import { deletePost } from '#app/features/content/library.server'
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

/**
 * DELETE /api/blogpost/:id → {message}; 404 for an unknown id or another user's post (nothing deleted). Its
 * webhook deliveries stay as history; the quota unit it took is not given back (docs/decisions/0210).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'DELETE') return apiError(405, 'Method not allowed.')
  const user = await requireApiUser(request)
  if (!(await deletePost(user.id, params.id ?? ''))) return apiError(404, POST_MESSAGES.notFound)
  return json({ message: 'Blog post deleted.', _id: params.id })
}
