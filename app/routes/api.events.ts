import { json, type ActionFunctionArgs } from '@remix-run/node'
import { recordEvents } from '#app/server/analytics.server'
import { methodNotAllowed, readJsonBody } from '#app/server/public-api.server'

/**
 * POST /api/events: page views and web-vitals metrics from our own analytics (navigator.sendBeacon, so the body
 * may arrive as text/plain). Answers 204, 400 for a bad event, 429 when one client sends too many.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST')
    return json({ message: 'Method not allowed.' }, { status: 405, headers: { Allow: 'POST' } })
  try {
    const body = await readJsonBody(request)
    if (!body) return json({ message: 'The request body must be a JSON object.' }, { status: 400 })
    const outcome = await recordEvents(body, request)
    if (outcome.status === 204) return new Response(null, { status: 204 })
    return json(
      { message: outcome.message },
      {
        status: outcome.status,
        headers: outcome.retryAfterSeconds ? { 'Retry-After': String(outcome.retryAfterSeconds) } : {},
      },
    )
  } catch (error) {
    console.error('[analytics] could not store events', error)
    return json({ message: 'Events could not be stored right now.' }, { status: 503 })
  }
}

export const loader = methodNotAllowed
