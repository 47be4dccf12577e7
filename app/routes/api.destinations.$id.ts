import { isUuid } from '#app/platform/security/ids'
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { apiError, parseJson, requireApiUserId } from '#app/features/accounts/api-auth.server'
import {
  deleteDestination,
  getDestination,
  saveDestination,
  testDestination,
  toView,
} from '#app/features/publishing/destinations.server'
import { destinationForm } from '#app/features/publishing/publishing'
import { hit } from '#app/platform/security/rate-limit.server'

/**
 * GET /api/destinations/:id → {destination}; PUT {…fields} (a blank secret keeps the stored one) → {destination},
 * 400 {message, errors} for bad fields or a failing connection; DELETE → 204; POST /api/destinations/:id?test →
 * {ok, message} ('Test connection').
 */
export async function loader({ request, params }: ActionFunctionArgs) {
  const userId = await requireApiUserId(request)
  const d = isUuid(params.id ?? '') ? await getDestination(userId, params.id!) : null
  return d ? json({ destination: toView(d) }) : apiError(404, 'Destination not found.')
}

export async function action({ request, params }: ActionFunctionArgs) {
  const userId = await requireApiUserId(request)
  const id = params.id ?? ''
  if (!isUuid(id)) return apiError(404, 'Destination not found.')
  if (request.method === 'DELETE')
    return (await deleteDestination(userId, id))
      ? new Response(null, { status: 204 })
      : apiError(404, 'Destination not found.')
  const limit = await hit(`destination-test:${userId}`, { limit: 20, windowSeconds: 60, failOpen: true })
  if (!limit.allowed)
    return apiError(429, `Too many connection tests. Try again in ${limit.retryAfterSeconds} seconds.`)
  if (request.method === 'POST' && new URL(request.url).searchParams.has('test')) {
    const result = await testDestination(userId, id)
    return result ? json(result, { status: result.ok ? 200 : 400 }) : apiError(404, 'Destination not found.')
  }
  if (request.method !== 'PUT') return apiError(405, 'Method not allowed.')
  const result = await saveDestination(userId, await parseJson(request, destinationForm), id)
  if (!result.ok)
    return result.status === 404
      ? apiError(404, result.message)
      : apiError(400, result.message, { errors: result.field ? { [result.field]: [result.message] } : {} })
  return json({ destination: toView(result.destination), message: result.message })
}
