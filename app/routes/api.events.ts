import type { ActionFunctionArgs } from '@remix-run/node'
import { recordEvents } from '#app/features/marketing/analytics.server'
import { failureJson, methodNotAllowed, publicJsonPost } from '#app/platform/http/json-api.server'

/**
 * POST /api/events: page views and web-vitals metrics from our own analytics (navigator.sendBeacon, so the body
 * may arrive as text/plain). Answers 204, 400 for a bad event, 429 when one client sends too many.
 */
export async function action({ request }: ActionFunctionArgs) {
  return publicJsonPost(
    request,
    {
      logLabel: '[analytics] could not store events',
      unavailable: { message: 'Events could not be stored right now.' },
    },
    async (body) => {
      const outcome = await recordEvents(body, request)
      if (outcome.status === 204) return new Response(null, { status: 204 })
      return failureJson(outcome)
    },
  )
}

export const loader = methodNotAllowed
