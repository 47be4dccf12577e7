import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { AUTOPILOT_MESSAGES, getStatusList } from '#app/features/autopilot/autopilot.server'
import { classifyOutage } from '#app/platform/http/outage.server'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'

/**
 * GET /api/autopilot/status-list → {data: [{keyword, avgMonthlySearches, difficultyScore, blogPost: {_id} | {}}]}:
 * the keywords Auto Pilot chose, newest first. Empty while Auto Pilot is off.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  try {
    const data = await getStatusList(userId)
    return json({ data }, { headers: { 'Cache-Control': 'private, no-store' } })
  } catch (error) {
    // Postgres or Redis unreachable: the outage answer (503 with Retry-After, outage.server.ts), not a 500.
    if (classifyOutage(error)) throw error
    console.error('[autopilot] status list failed', error)
    return apiError(500, AUTOPILOT_MESSAGES.statusFailed)
  }
}
