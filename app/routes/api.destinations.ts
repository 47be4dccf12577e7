import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { apiError, parseJson, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { listDestinations, saveDestination, toView } from '#app/features/publishing/destinations.server'
import { hit } from '#app/platform/security/rate-limit.server'

/**
 * GET /api/destinations → {data: [destination]} (never the credentials).
 * POST /api/destinations {kind, …fields} → 201 {destination, message} once 'Test connection' passed;
 * 400 {message, errors} for bad fields or a failing connection (nothing saved).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  return json({ data: (await listDestinations(userId)).map(toView) })
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request)
  const body = await parseJson(request, z.record(z.unknown()))
  const limit = await hit(`destination-test:${userId}`, { limit: 20, windowSeconds: 60, failOpen: true })
  if (!limit.allowed)
    return apiError(429, `Too many connection tests. Try again in ${limit.retryAfterSeconds} seconds.`)
  const result = await saveDestination(userId, body)
  if (!result.ok)
    return apiError(400, result.message ?? Object.values(result.fieldErrors)[0] ?? 'Invalid input.', {
      errors: Object.fromEntries(Object.entries(result.fieldErrors).map(([k, v]) => [k, [v]])),
    })
  return json({ destination: toView(result.destination), message: result.message }, { status: 201 })
}
