import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { CONTENT_SETTINGS_MESSAGES, contentSettingsSchema } from '#app/features/content/content-settings'
import { apiErrors } from '#app/platform/forms/submission'
import { apiError, parseJson, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { getContentSettings, saveContentSettings } from '#app/features/content/content-settings.server'
import { hit } from '#app/platform/security/rate-limit.server'

/**
 * GET /api/settings/content → {settings}: the business context and voice every post uses.
 * PUT /api/settings/content {productService, marketSegment, website, valueProposition, ctaText, ctaUrl, tone,
 * toneNotes, avoid, writingSample, writingSampleUrl, unverifiedClaims, imageSource} → {settings, message}; 400 {message, errors}
 * (nothing saved). unverifiedClaims: 'rewrite' (default) | 'remove' | 'mark', what happens to a figure that cannot be
 * verified on the page it cites; left out, the saved choice stays. imageSource: 'generated' (default) | 'stock' (only
 * when the server has a stock photo library; else 400) | 'none', where post images come from; left out, it stays.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  const settings = await getContentSettings(userId)
  if (!settings) return apiError(403, 'User not found.')
  return json({ settings })
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request)
  const body = await parseJson(
    request,
    z.record(z.unknown(), { invalid_type_error: 'The body must be a JSON object.' }),
  )
  const limit = await hit(`content-settings:${userId}`, { limit: 20, windowSeconds: 60, failOpen: true })
  if (!limit.allowed) return apiError(429, `Too many saves. Try again in ${limit.retryAfterSeconds} seconds.`)
  const parsed = contentSettingsSchema.safeParse(body)
  if (!parsed.success) {
    const { message, errors } = apiErrors(parsed.error)
    return apiError(400, message, { errors })
  }
  const result = await saveContentSettings(userId, parsed.data)
  if (!result.ok)
    return apiError(result.status, result.message, {
      errors: result.field ? { [result.field]: [result.message] } : {},
    })
  return json({ settings: result.settings, message: CONTENT_SETTINGS_MESSAGES.saved })
}
