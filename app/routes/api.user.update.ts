import { json, type ActionFunctionArgs } from '@remix-run/node'
import { PROFILE_MESSAGES, profileSchema } from '#app/features/accounts/account-schemas'
import { updateProfile } from '#app/features/accounts/profile.server'
import { apiUser } from '#app/features/billing/api-user.server'
import { apiError, parseJson, requireApiUser } from '#app/features/accounts/api-auth.server'

/** PUT /api/user/update {name, marketSegment, productService[, website, country, language]} → the updated user. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return apiError(405, 'Method not allowed.')
  const user = await requireApiUser(request)
  const input = await parseJson(request, profileSchema)
  const updated = await updateProfile(user.id, input)
  if (!updated) return apiError(403, 'User not found.')
  return json({ ...(await apiUser(updated)), message: PROFILE_MESSAGES.updated })
}

export const loader = () => apiError(405, 'Method not allowed.')
