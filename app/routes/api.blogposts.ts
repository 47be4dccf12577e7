import type { LoaderFunctionArgs } from '@remix-run/node'
import { postListSchema } from '#app/features/content/library'
import { API_DEFAULT_LIMIT, parseParams } from '#app/platform/lists/list-params'
import { apiError, requireApiUser } from '#app/features/accounts/api-auth.server'
import { wholeResponse } from '#app/platform/http/remix-handler.server'
import { pagePostsJson } from '#app/features/content/library.server'
import { BadCursorError } from '#app/platform/lists/keyset.server'

/**
 * GET /api/blogposts → {data: [{_id, post_id, title, content, createdAt, status}], total, nextCursor}, newest
 * first. Pages by cursor (`?limit=` 1-500, default 500; `?cursor=` from the previous answer's nextCursor) and
 * filters like the library: `q` (title or keyword), `status` (writing, ready, failed), `source` (manual,
 * autopilot), `language`, `review`
 * (waiting, approved, rejected). Bad parameters: 400 {message, errors: {field: message}}.
 */
const COMMA = Buffer.from(',')

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  const parsed = parseParams(postListSchema, new URL(request.url).searchParams)
  if (!parsed.ok) return apiError(400, 'Invalid query parameters.', { errors: parsed.errors })
  let page
  try {
    page = await pagePostsJson(user.id, parsed.data, parsed.data.limit ?? API_DEFAULT_LIMIT)
  } catch (error) {
    if (error instanceof BadCursorError)
      return apiError(400, 'Invalid query parameters.', { errors: { cursor: error.message } })
    throw error
  }
  // Up to 500 posts (~3 MB): Postgres's JSON of each post joined into the answer, sent in one write.
  const parts: Uint8Array[] = [Buffer.from('{"data":[')]
  page.items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA)
    parts.push(item)
  })
  parts.push(Buffer.from(`],"total":${page.total},"nextCursor":${JSON.stringify(page.nextCursor)}}`))
  return wholeResponse(Buffer.concat(parts), {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, no-store' },
  })
}
