import { json, type ActionFunctionArgs } from '@remix-run/node'
import { AUTOPILOT_MESSAGES } from '#app/features/autopilot/autopilot.server'
import { webhookUrlForm } from '#app/features/autopilot/settings/autopilot'
import { saveWebhookUrl } from '#app/features/autopilot/settings/settings.server'
import { classifyOutage } from '#app/platform/http/outage.server'
import { apiError, parseJson, requireApiUserId } from '#app/features/accounts/api-auth.server'

/**
 * POST /api/autopilot/integrations/webhook {webhookUrl} → {webhookUrl, message} (stored with https:// when the
 * scheme was left out). Empty or malformed: 400 {message, errors: {webhookUrl}} with the spec's messages (the
 * /autopilot form's schema, `webhookUrlForm`). Saving a URL re-enables an endpoint that was disabled after failures.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request)
  const { webhookUrl } = await parseJson(request, webhookUrlForm)
  try {
    await saveWebhookUrl(userId, webhookUrl)
    return json({ webhookUrl, message: AUTOPILOT_MESSAGES.webhookSaved })
  } catch (error) {
    // Postgres or Redis unreachable: the outage answer (503 with Retry-After, outage.server.ts), not a 500.
    if (classifyOutage(error)) throw error
    console.error('[autopilot] could not save the webhook URL', error)
    return apiError(500, AUTOPILOT_MESSAGES.webhookFailed)
  }
}

export function loader() {
  return apiError(405, 'Method not allowed.')
}
