import { json, type ActionFunctionArgs } from '@remix-run/node'
import { onboardingSchema } from '#app/features/accounts/account-schemas'
import { firstSearchPath } from '#app/features/accounts/account-routing'
import { completeOnboarding } from '#app/features/accounts/profile.server'
import { apiError, parseJson, requireApiUser } from '#app/features/accounts/api-auth.server'

/**
 * POST /api/onboarding {website, marketSegment, productService, country {code,name}|null, language {code,name}|null}
 * → {message, onboardingComplete: true, redirectTo} (the /keywords URL that runs the first search).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const user = await requireApiUser(request)
  const input = await parseJson(request, onboardingSchema)
  await completeOnboarding(user.id, input)
  return json({ message: 'Onboarding complete.', onboardingComplete: true, redirectTo: firstSearchPath(input) })
}

export const loader = () => apiError(405, 'Method not allowed.')
