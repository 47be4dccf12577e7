import type { LoaderFunctionArgs } from '@remix-run/node'
import { API_DEFAULT_LIMIT, parseParams, postListSchema } from '#app/lib/library'
import { apiError, requireApiUser } from '#app/server/api.server'
import { wholeJson } from '#app/server/http/remix-handler.server'
import { BadCursorError, pagePosts } from '#app/server/library.server'

/**
 * GET /api/blogposts → {data: [{_id, post_id, title, content, createdAt, status}], total, nextCursor}, newest
 * first. Pages by cursor (`?limit=` 1-500, default 500; `?cursor=` from the previous answer's nextCursor) and
 * filters like the library: `q` (title or keyword), `status` (writing, ready, failed), `source` (manual,
 * autopilot), `language`, `review`
 * (waiting, approved, rejected). Bad parameters: 400 {message, errors: {field: message}}.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  const parsed = parseParams(postListSchema, new URL(request.url).searchParams)
  if (!parsed.ok) return apiError(400, 'Invalid query parameters.', { errors: parsed.errors })
  let page
  try {
    page = await pagePosts(user.id, parsed.data, { limit: parsed.data.limit ?? API_DEFAULT_LIMIT, content: true })
  } catch (error) {
    if (error instanceof BadCursorError)
      return apiError(400, 'Invalid query parameters.', { errors: { cursor: error.message } })
    throw error
  }
  // Up to 500 rows (~3 MB of posts): encoded once and sent in one write.
  return wholeJson(
    {
      data: page.rows.map((p) => ({
        _id: p.id,
        post_id: p.id,
        title: p.title || p.keyword,
        content: p.text,
        createdAt: p.createdAt.toISOString(),
        status: p.status,
        source: p.source,
        language: p.language,
        seo_score: p.seoScore,
        ...(p.status === 'failed' ? { failure_reason: p.failureReason } : {}),
      })),
      total: page.total,
      nextCursor: page.nextCursor,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}
