import type { LoaderFunctionArgs } from '@remix-run/node'
import { API_DEFAULT_LIMIT, parseParams, postListSchema } from '#app/lib/library'
import { apiError, requireApiUser } from '#app/server/api.server'
import { apiPostsPage, BadCursorError } from '#app/server/library.server'

/**
 * GET /api/blogposts → {data: [{_id, post_id, title, content, createdAt, status, source, language, seo_score,
 * failure_reason (failed posts)}], total, nextCursor}, newest
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
    page = await apiPostsPage(user.id, parsed.data, parsed.data.limit ?? API_DEFAULT_LIMIT)
  } catch (error) {
    if (error instanceof BadCursorError)
      return apiError(400, 'Invalid query parameters.', { errors: { cursor: error.message } })
    throw error
  }
  // The items are JSON made by Postgres (see apiPostsPage); the answer wraps them without parsing them again.
  const body = `{"data":${page.data},"total":${page.total},"nextCursor":${JSON.stringify(page.nextCursor)}}`
  return new Response(body, {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, no-store' },
  })
}
