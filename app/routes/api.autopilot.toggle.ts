import { ACCOUNT_MESSAGES } from '#app/features/accounts/account-schemas'
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { AUTOPILOT_MESSAGES } from '#app/features/autopilot/autopilot.server'
import { setAutopilotEnabled } from '#app/features/autopilot/settings/settings.server'
import { autopilotToggleSchema } from '#app/features/autopilot/settings/autopilot'
import { apiError, parseJson, requireApiUserId } from '#app/features/accounts/api-auth.server'

/**
 * POST /api/autopilot/toggle {enabled} → {autoPilotEnabled, message}; a bad body: 400 {message, errors: {enabled}}.
 * A plan without Auto Pilot: 402, an unverified address: 409 (never 403: clients sign out on any 403). The schedule
 * could not be changed (Redis away a moment): 503 with Retry-After.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request)
  const { enabled } = await parseJson(request, autopilotToggleSchema)
  const result = await setAutopilotEnabled(userId, enabled)
  if (result.ok) {
    return json({
      autoPilotEnabled: result.enabled,
      message: result.enabled ? AUTOPILOT_MESSAGES.enabled : AUTOPILOT_MESSAGES.disabled,
    })
  }
  if (result.reason === 'unverified') return apiError(409, ACCOUNT_MESSAGES.unverifiedAutopilot, { verify_email: true })
  if (result.reason === 'plan') return apiError(402, AUTOPILOT_MESSAGES.planRequired, { redirect_to_profile: true })
  const unavailable = apiError(503, AUTOPILOT_MESSAGES.toggleFailed)
  unavailable.headers.set('Retry-After', '5')
  return unavailable
}

export function loader() {
  return apiError(405, 'Method not allowed.')
}
