import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { parseIdList } from '#app/platform/security/ids'
import { postListSchema, POSTS_PAGE_SIZE } from '#app/features/content/library'
import { parseParams } from '#app/platform/lists/list-params'
import { pagePosts, postCardsById, toCard } from '#app/features/content/library.server'
import { BadCursorError } from '#app/platform/lists/keyset.server'
import { requireUser } from '#app/features/accounts/session.server'
import { withPostProgress } from '#app/features/publishing/post-progress.server'

/**
 * The library's data for the page's scripts (JavaScript only): `?ids=a,b` answers the cards of those posts (the
 * polling while they are written); otherwise the next page of cards for the list's search, filters and `cursor`
 * ('Load more').
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const params = new URL(request.url).searchParams
  const headers = { 'Cache-Control': 'no-store' }
  const ids = params.get('ids')
  if (ids !== null) {
    const list = parseIdList(ids)
    if (!list.ok) return json({ message: list.message, errors: { ids: list.message } }, { status: 400, headers })
    const cards = await withPostProgress(user.id, await postCardsById(user.id, list.ids))
    return json({ cards, nextCursor: null, total: null }, { headers })
  }
  const parsed = parseParams(postListSchema, params)
  if (!parsed.ok) return json({ message: 'Invalid query parameters.', errors: parsed.errors }, { status: 400, headers })
  try {
    const page = await pagePosts(user.id, parsed.data, { limit: POSTS_PAGE_SIZE })
    const cards = await withPostProgress(user.id, page.rows.map(toCard))
    return json({ cards, nextCursor: page.nextCursor, total: page.total }, { headers })
  } catch (error) {
    if (error instanceof BadCursorError)
      return json({ message: 'Invalid query parameters.', errors: { cursor: error.message } }, { status: 400, headers })
    throw error
  }
}
