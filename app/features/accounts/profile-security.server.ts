import { json } from '@remix-run/node'
import { ACCOUNT_MESSAGES, changePasswordSchema, deleteAccountSchema } from './account-schemas'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { deleteAccount, type AccountClosing } from './account-data.server'
import { changePassword, endSessionByPublicId, endSessions } from './account-security.server'
import type { schema } from '#app/platform/db/client.server'
import { findSession, getSessionId, sessionCookie } from './session.server'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'
import { newPasswordRefusal, secondFactorRefusal } from './second-factor-gates.server'

/** The security part of /profile: change password, the session list, sign out (one or everywhere), delete account. */
type UserRow = typeof schema.users.$inferSelect

export const SECURITY_INTENTS = ['change-password', 'end-session', 'end-other-sessions', 'delete-account'] as const
export type SecurityIntent = (typeof SECURITY_INTENTS)[number]
/**
 * What the security forms' action answers on failure: for the change-password and delete-account forms, Conform's reply
 * (errors by field, never a password); for a session's 'Sign out' button (no fields), its message.
 */
export type SecurityActionData =
  | { intent: 'change-password' | 'delete-account'; result: SubmissionResult<string[]> }
  | { intent: 'end-session'; message: string }

const done = (message: string) =>
  toast().redirectWithSuccess('/profile', { message, duration: TOAST_MS }, { status: 303 })

const answer = (data: SecurityActionData, status: number) => json<SecurityActionData>(data, { status })

/** A refusal decided after validation: the form's message, or a field's. */
type Refusal = { formErrors: string[] } | { fieldErrors: Record<string, string[]> }

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
      const submission = parseSubmission(form, changePasswordSchema)
      const refused = (status: number, refusal?: Refusal) =>
        answer(
          { intent, result: submission.reply({ ...refusal, hideFields: ['currentPassword', 'newPassword', 'code'] }) },
          status,
        )
      if (submission.status !== 'success') return refused(400)
      // Issue 34: a common new password is refused; with two-step sign-in on, a current code is asked first.
      const gate =
        newPasswordRefusal('newPassword', submission.value.newPassword) ??
        (await secondFactorRefusal(request, user.id, submission.value.code))
      if (gate) return refused(gate.status, gate.refusal)
      const result = await changePassword(user, sessionId, submission.value)
      if (!result.ok && result.status === 429)
        return refused(429, { formErrors: ['Too many attempts. Please wait a few minutes and try again.'] })
      if (!result.ok) return refused(400, { fieldErrors: { currentPassword: [ACCOUNT_MESSAGES.wrongPassword] } })
      return done(ACCOUNT_MESSAGES.passwordChanged)
    }
    case 'end-session': {
      const ended = await endSessionByPublicId(user.id, text('sessionId') ?? '')
      if (!ended) return answer({ intent, message: 'That session has already ended.' }, 400)
      return done(ACCOUNT_MESSAGES.sessionEnded)
    }
    case 'end-other-sessions': {
      await endSessions(user.id, sessionId)
      return done(ACCOUNT_MESSAGES.signedOutEverywhere)
    }
    case 'delete-account': {
      const submission = parseSubmission(form, deleteAccountSchema)
      const refused = (status: number, refusal?: Refusal) =>
        answer({ intent, result: submission.reply({ ...refusal, hideFields: ['password', 'code'] }) }, status)
      if (submission.status !== 'success') return refused(400)
      const gate = await secondFactorRefusal(request, user.id, submission.value.code) // issue 34
      if (gate) return refused(gate.status, gate.refusal)
      const session = sessionId ? await findSession(sessionId) : null
      const result = await deleteAccount(user, session, submission.value, closing)
      if (!result.ok)
        return refused(
          result.status,
          result.field ? { fieldErrors: { [result.field]: [result.message] } } : { formErrors: [result.message] },
        )
      return toast().redirectWithSuccess(
        '/',
        { message: ACCOUNT_MESSAGES.deleted, duration: TOAST_MS },
        { status: 303, headers: { 'Set-Cookie': await sessionCookie().serialize('', { maxAge: 0 }) } },
      )
    }
  }
}
