import type { LoaderFunctionArgs } from '@remix-run/node'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { parseParams } from '#app/platform/lists/list-params'
import { wholeJson } from '#app/platform/http/remix-handler.server'
import { aiVisibilityOverview, toApiSubject } from '#app/features/visibility/read.server'
import { aiVisibilityQuerySchema } from '#app/features/visibility/visibility'

/**
 * GET /api/ai-visibility[?weeks=1-52 (default 12)][&kind=keyword|prompt] → {weeks, keywords: [...], prompts: [...],
 * usage}: per tracked keyword (Google AI Overviews, AI Mode) and per active prompt (ChatGPT, Perplexity, Gemini,
 * Claude), each engine's latest week as rates with their 95% interval (`{hits, total, rate, low, high}`; rate, low
 * and high null when nothing was counted: a gap, never 0), the change from the week before ('up'/'down' only when the
 * intervals do not overlap), the weekly history, the cited pages and the competitors. 400 {message, errors} on bad
 * parameters.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  const parsed = parseParams(aiVisibilityQuerySchema, new URL(request.url).searchParams)
  if (!parsed.ok) return apiError(400, 'Invalid query parameters.', { errors: parsed.errors })
  const overview = await aiVisibilityOverview(userId, { weeks: parsed.data.weeks, page: 'all' })
  const kind = parsed.data.kind
  return wholeJson(
    {
      weeks: overview.weeks,
      keywords: kind === 'prompt' ? [] : overview.keywords.map(toApiSubject),
      prompts: kind === 'keyword' ? [] : overview.prompts.map(toApiSubject),
      checksRun: overview.anyChecks,
      usage: overview.usage,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}
