import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUserId } from '#app/server/api.server'
import { listSavedKeywords, toApiKeyword } from '#app/server/keywords.server'

/** GET /api/saved-keywords → {data: [...]}: the keywords searched by hand (not Auto Pilot's), newest first then higher volume. */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  const { rows } = await listSavedKeywords(userId)
  return json({ data: rows.map(toApiKeyword) }, { headers: { 'Cache-Control': 'private, no-store' } })
}
