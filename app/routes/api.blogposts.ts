import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/server/api.server'
import { listPosts } from '#app/server/posts.server'

/** GET /api/blogposts → {data: [{_id, post_id, title, content, createdAt, status}]}, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  const posts = await listPosts(user.id)
  return json({
    data: posts.map((p) => ({
      _id: p.id,
      post_id: p.id,
      title: p.title || p.keyword,
      content: p.content,
      createdAt: p.createdAt.toISOString(),
      status: p.status,
      seo_score: p.seoScore,
      seo_checklist: p.seoChecklist,
      claims: p.claims,
      json_ld: p.jsonLd,
      research_status: p.researchStatus,
      ...(p.status === 'failed' ? { failure_reason: p.failureReason } : {}),
    })),
  })
}
