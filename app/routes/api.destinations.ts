import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { listDestinations, saveDestination, toView } from '#app/features/publishing/destinations.server'
import { destinationForm } from '#app/features/publishing/publishing'
import { apiErrors } from '#app/platform/forms/submission'
import { readJson } from '#app/platform/http/body.server'
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
  const body = await readJson(request)
  const limit = await hit(`destination-test:${userId}`, { limit: 20, windowSeconds: 60, failOpen: true })
  if (!limit.allowed)
    return apiError(429, `Too many connection tests. Try again in ${limit.retryAfterSeconds} seconds.`)
  const parsed = destinationForm.safeParse(body)
  if (!parsed.success) return json(apiErrors(parsed.error), { status: 400 })
  const result = await saveDestination(userId, parsed.data)
  if (!result.ok)
    return apiError(result.status, result.message, {
      errors: result.field ? { [result.field]: [result.message] } : {},
    })
  return json({ destination: toView(result.destination), message: result.message }, { status: 201 })
}
