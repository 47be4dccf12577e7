import { SECOND_FACTOR_MESSAGES } from './account-schemas'
import type { AuthResult } from './auth.server'
import { apiError } from './api-auth.server'
import { isCommonPassword } from './common-passwords.server'
import { secondFactorGate } from './second-factor.server'

/**
 * Issue 34: the checks a form's action makes after its schema has passed, as Conform refusals (`submission.reply`):
 * a common new password (next to its field), and a missing or wrong code of the second factor (next to the code
 * field; a rate limit above the form).
 */
export type GateRefusal = {
  status: 400 | 401 | 429
  refusal: { fieldErrors: Record<string, string[]> } | { formErrors: string[] }
  message: string
}

/** A common password chosen in the field `field`; null when it is not one of them. */
export function newPasswordRefusal(field: string, password: string): GateRefusal | null {
  if (!isCommonPassword(password)) return null
  const message = SECOND_FACTOR_MESSAGES.commonPassword
  return { status: 400, refusal: { fieldErrors: { [field]: [message] } }, message }
}

/** The sign-up's refusal of a common password (`authPageAction`'s result), or null. */
export function commonPasswordResult(password: string): (AuthResult & { ok: false }) | null {
  const refused = newPasswordRefusal('password', password)
  return refused ? { ok: false, status: 400, message: refused.message, field: 'password' } : null
}

/** The JSON API's refusal of a common password: 400 `{message, errors: {<field>: [message]}}`, or null. */
export function commonPasswordApiError(field: string, password: string) {
  const refused = newPasswordRefusal(field, password)
  return refused ? apiError(400, refused.message, { errors: { [field]: [refused.message] } }) : null
}

/** The code asked before a sensitive change when the account has two-step sign-in; null when it may go ahead. */
export async function secondFactorRefusal(
  request: Request,
  userId: string,
  code: string | undefined,
): Promise<GateRefusal | null> {
  const check = await secondFactorGate(request, userId, code)
  if (check.ok) return null
  const refusal = check.status === 429 ? { formErrors: [check.message] } : { fieldErrors: { code: [check.message] } }
  return { status: check.status, refusal, message: check.message }
}
