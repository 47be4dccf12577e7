import { json } from '@remix-run/node'
import { ACCOUNT_MESSAGES, changePasswordSchema, deleteAccountSchema } from './account-schemas'
import { describeErrors, type FieldErrors } from '#app/platform/forms/field-errors'
import { deleteAccount, type AccountClosing } from './account-data.server'
import { changePassword, endSessionByPublicId, endSessions } from './account-security.server'
import type { schema } from '#app/platform/db/client.server'
import { findSession, getSessionId, sessionCookie } from './session.server'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'

/** The security part of /profile: change password, the session list, sign out (one or everywhere), delete account. */
type UserRow = typeof schema.users.$inferSelect

export const SECURITY_INTENTS = ['change-password', 'end-session', 'end-other-sessions', 'delete-account'] as const
export type SecurityIntent = (typeof SECURITY_INTENTS)[number]
export type SecurityActionData = { intent: SecurityIntent; message: string; errors: FieldErrors }

const done = (message: string) =>
  toast().redirectWithSuccess('/profile', { message, duration: TOAST_MS }, { status: 303 })

const failed = (intent: SecurityIntent, message: string, status: number, errors: FieldErrors = {}) =>
  json<SecurityActionData>({ intent, message, errors }, { status })

export async function securityAction(
  request: Request,
  user: UserRow,
  intent: SecurityIntent,
  form: FormData,
  closing: AccountClosing,
) {
  const sessionId = await getSessionId(request)
  const text = (name: string) => {
    const v = form.get(name)
    return typeof v === 'string' ? v : undefined
  }
  switch (intent) {
    case 'change-password': {
      const parsed = changePasswordSchema.safeParse({
        currentPassword: text('currentPassword'),
        newPassword: text('newPassword'),
      })
      if (!parsed.success) {
        const { message, errors } = describeErrors(parsed.error)
        return failed(intent, message, 400, errors)
      }
      const result = await changePassword(user, sessionId, parsed.data)
      if (!result.ok && result.status === 429)
        return failed(intent, 'Too many attempts. Please wait a few minutes and try again.', 429)
      if (!result.ok)
        return failed(intent, ACCOUNT_MESSAGES.wrongPassword, 400, {
          currentPassword: [ACCOUNT_MESSAGES.wrongPassword],
        })
      return done(ACCOUNT_MESSAGES.passwordChanged)
    }
    case 'end-session': {
      const ended = await endSessionByPublicId(user.id, text('sessionId') ?? '')
      if (!ended) return failed(intent, 'That session has already ended.', 400)
      return done(ACCOUNT_MESSAGES.sessionEnded)
    }
    case 'end-other-sessions': {
      await endSessions(user.id, sessionId)
      return done(ACCOUNT_MESSAGES.signedOutEverywhere)
    }
    case 'delete-account': {
      const parsed = deleteAccountSchema.safeParse({ password: text('password'), confirm: text('confirm') })
      if (!parsed.success) {
        const { message, errors } = describeErrors(parsed.error)
        return failed(intent, message, 400, errors)
      }
      const result = await deleteAccount(user, sessionId ? await findSession(sessionId) : null, parsed.data, closing)
      if (!result.ok)
        return failed(intent, result.message, result.status, result.field ? { [result.field]: [result.message] } : {})
      return toast().redirectWithSuccess(
        '/',
        { message: ACCOUNT_MESSAGES.deleted, duration: TOAST_MS },
        { status: 303, headers: { 'Set-Cookie': await sessionCookie().serialize('', { maxAge: 0 }) } },
      )
    }
  }
}
