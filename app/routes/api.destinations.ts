import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { apiError, parseJson, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { listDestinations, saveDestination, toView } from '#app/features/publishing/destinations.server'
import { destinationForm } from '#app/features/publishing/publishing'
import { hit } from '#app/platform/security/rate-limit.server'

/**
 * GET /api/destinations → {data: [destination]} (never the credentials).
 * POST /api/destinations {kind, …fields} → 201 {destination, message} once 'Test connection' passed;
 * 400 {message, errors} for bad fields (the settings form's messages, by its field names) or a failing connection
 * (nothing saved).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  return json({ data: (await listDestinations(userId)).map(toView) })
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request)
  const input = await parseJson(request, destinationForm)
  const limit = await hit(`destination-test:${userId}`, { limit: 20, windowSeconds: 60, failOpen: true })
  if (!limit.allowed)
    return apiError(429, `Too many connection tests. Try again in ${limit.retryAfterSeconds} seconds.`)
  const result = await saveDestination(userId, input)
  if (!result.ok)
    return apiError(result.status, result.message, {
      errors: result.field ? { [result.field]: [result.message] } : {},
    })
  return json({ destination: toView(result.destination), message: result.message }, { status: 201 })
}
