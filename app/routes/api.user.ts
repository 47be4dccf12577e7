import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { apiUser } from '#app/server/account.server'
import { apiError, requireApiUser } from '#app/server/api.server'

/** GET /api/user → the signed-in user's fields (profile, subscription, usage, Auto Pilot, onboarding). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request)
  return json(await apiUser(user), { headers: { 'Cache-Control': 'no-store' } })
}

export const action = () => apiError(405, 'Method not allowed.')
