import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { apiError, parseJson, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { apiErrors } from '#app/platform/forms/submission'
import { hit } from '#app/platform/security/rate-limit.server'
import { addPrompt, listPrompts } from '#app/features/visibility/prompts.server'
import { PROMPT_MESSAGES, promptSchema } from '#app/features/visibility/settings'

/**
 * GET /api/ai-prompts → {data: [{id, text, status, createdAt}], suggested: [...], limit}: the active prompts (sent
 * to the assistants daily) and the suggestions not yet accepted.
 * POST /api/ai-prompts {prompt} → 201 {prompt, message}; 400 {message, errors: {prompt: [...]}} (too short or long, a
 * key/secret or e-mail address), 402 over the plan's active prompts, 409 already tracked, 429 too many adds.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  const prompts = await listPrompts(userId)
  return json(
    { data: prompts.active, suggested: prompts.suggested, limit: prompts.limit },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed.')
  const userId = await requireApiUserId(request)
  const body = await parseJson(
    request,
    z.record(z.unknown(), { invalid_type_error: 'The body must be a JSON object.' }),
  )
  const parsed = promptSchema.safeParse(body)
  if (!parsed.success) {
    const { message, errors } = apiErrors(parsed.error)
    return apiError(400, message, { errors })
  }
  // Counted once the prompt is valid (the same bucket as the page's form).
  const limit = await hit(`ai-prompt:${userId}`, { limit: 10, windowSeconds: 60, failOpen: true })
  if (!limit.allowed) return apiError(429, `Too many prompts added. Try again in ${limit.retryAfterSeconds} seconds.`)
  const added = await addPrompt(userId, parsed.data)
  if (!added.ok) return apiError(added.status, added.message, { errors: { prompt: [added.message] } })
  return json({ prompt: added.prompt, message: PROMPT_MESSAGES.added }, { status: 201 })
}
