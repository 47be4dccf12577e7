import { json } from '@remix-run/node'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'
import { sendMail } from '#app/platform/mail/mail.server'
import { logJson } from '#app/platform/observability/log.server'
import { hit } from '#app/platform/security/rate-limit.server'
import type { schema } from '#app/platform/db/client.server'
import { requestIpPrefix } from './account-security.server'
import { API_KEY_MESSAGES, API_SCOPE_LABELS, createApiKeySchema, revokeApiKeySchema, type ApiScope } from './api-keys'
import { createApiKey, revokeApiKey } from './api-keys.server'
import { secondFactorRefusal } from './second-factor-gates.server'

/**
 * Issue 38: the 'API keys' part of /profile's action (create, revoke). Keys are managed only here, by a signed-in
 * browser session: no key can make or revoke keys. Both are security events: a JSON log line (never the key) and an
 * e-mail to the owner. With two-step sign-in on, creating a key asks for a current code, as changing the password does.
 */
type UserRow = typeof schema.users.$inferSelect

export const API_KEY_INTENTS = ['api-key-create', 'api-key-revoke'] as const
export type ApiKeyIntent = (typeof API_KEY_INTENTS)[number]
export const isApiKeyIntent = (intent: unknown): intent is ApiKeyIntent =>
  API_KEY_INTENTS.includes(intent as ApiKeyIntent)

/**
 * The answers: the create form's Conform reply on failure; the new key itself once (in this answer only, never
 * kept: `no-store`); a revoke that found nothing to revoke.
 */
export type ApiKeyActionData =
  | { intent: 'api-key-create'; result: SubmissionResult<string[]> }
  | { intent: 'api-key-created'; key: string; name: string; message: string }
  | { intent: 'api-key-revoke'; message: string }

const answer = (data: ApiKeyActionData, status = 200) =>
  json<ApiKeyActionData>(data, { status, headers: { 'Cache-Control': 'no-store' } })

/** Creations per account and hour (each sends an e-mail). */
const CREATE_LIMIT = { limit: 20, windowSeconds: 60 * 60 }

export async function apiKeyAction(request: Request, user: UserRow, intent: ApiKeyIntent, form: FormData) {
  if (intent === 'api-key-revoke') {
    const parsed = revokeApiKeySchema.safeParse({ keyId: form.get('keyId') ?? undefined })
    const revoked = parsed.success ? await revokeApiKey(user.id, parsed.data.keyId) : null
    if (!revoked) return answer({ intent, message: API_KEY_MESSAGES.alreadyRevoked }, 400)
    await securityEvent(request, user, 'revoked', { id: revoked.id, name: revoked.name, prefix: revoked.prefix })
    return toast().redirectWithSuccess(
      '/profile#api-keys',
      { message: API_KEY_MESSAGES.revoked, duration: TOAST_MS },
      { status: 303 },
    )
  }
  const submission = parseSubmission(form, createApiKeySchema)
  const refused = (status: number, refusal?: { formErrors: string[] } | { fieldErrors: Record<string, string[]> }) =>
    answer({ intent, result: submission.reply({ ...refusal, hideFields: ['code'] }) }, status)
  if (submission.status !== 'success') return refused(400)
  const gate = await secondFactorRefusal(request, user.id, submission.value.code)
  if (gate) return refused(gate.status, gate.refusal)
  const limited = await hit(`api-key-create:${user.id}`, CREATE_LIMIT)
  if (!limited.allowed)
    return refused(429, { formErrors: ['Too many attempts. Please wait a few minutes and try again.'] })
  const created = await createApiKey(user.id, submission.value)
  if (!created.ok) return refused(400, { formErrors: [API_KEY_MESSAGES.tooMany] })
  await securityEvent(request, user, 'created', {
    id: created.id,
    name: submission.value.name,
    prefix: created.prefix,
    scopes: submission.value.scopes,
  })
  return answer({
    intent: 'api-key-created',
    key: created.key,
    name: submission.value.name,
    message: API_KEY_MESSAGES.created,
  })
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/**
 * A key created or revoked: one JSON log line (ids and scopes, never the key or its name) and an e-mail to the
 * owner, so that a key made by someone else with the account is noticed. A failed e-mail is logged, never shown.
 */
async function securityEvent(
  request: Request,
  user: UserRow,
  what: 'created' | 'revoked',
  key: { id: string; name: string; prefix: string; scopes?: readonly ApiScope[] },
) {
  const network = requestIpPrefix(request)
  logJson({ msg: 'security', event: `api_key.${what}`, userId: user.id, keyId: key.id, scopes: key.scopes })
  const scopes = key.scopes?.map((s) => API_SCOPE_LABELS[s].label.toLowerCase()).join(', ')
  const paragraphs = [
    `Hi ${user.name || 'there'},`,
    what === 'created'
      ? `A personal API key named “${key.name}” (${key.prefix}…, scopes: ${scopes}) was created on your Rankwell account${network ? ` from the network ${network}` : ''}.`
      : `The personal API key named “${key.name}” (${key.prefix}…) was revoked on your Rankwell account: it no longer works.`,
    what === 'created'
      ? 'If this was not you, revoke the key on your profile at once and change your password.'
      : 'If this was not you, check the API keys and sessions on your profile and change your password.',
  ]
  try {
    await sendMail({
      to: user.email,
      subject: what === 'created' ? 'A new API key was created for your Rankwell account' : 'An API key was revoked',
      text: [...paragraphs, '— Rankwell'].join('\n\n'),
      html: [...paragraphs, '— Rankwell'].map((p) => `<p>${escapeHtml(p)}</p>`).join('\n'),
    })
  } catch (error) {
    console.error('[accounts] API key e-mail failed', error instanceof Error ? error.message : error)
  }
}
