import { json } from '@remix-run/node'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'
import { verifyPassword } from '#app/platform/security/password.server'
import { hit } from '#app/platform/security/rate-limit.server'
import type { schema } from '#app/platform/db/client.server'
import {
  ACCOUNT_MESSAGES,
  recoveryCodesSchema,
  SECOND_FACTOR_MESSAGES,
  totpConfirmSchema,
  totpDisableSchema,
} from './account-schemas'
import {
  cancelSecondFactorSetup,
  checkSecondFactorCode,
  confirmSecondFactorSetup,
  regenerateRecoveryCodes,
  removeSecondFactor,
  secondFactorEnabled,
  startSecondFactorSetup,
  type CodeCheck,
} from './second-factor.server'

/** Issue 34: the two-step sign-in part of /profile's action (turn on, confirm, cancel, new recovery codes, turn off). */
type UserRow = typeof schema.users.$inferSelect

export const SECOND_FACTOR_INTENTS = [
  '2fa-start',
  '2fa-confirm',
  '2fa-cancel',
  '2fa-recovery-codes',
  '2fa-disable',
] as const
export type SecondFactorIntent = (typeof SECOND_FACTOR_INTENTS)[number]

export const isSecondFactorIntent = (intent: unknown): intent is SecondFactorIntent =>
  SECOND_FACTOR_INTENTS.includes(intent as SecondFactorIntent)

/**
 * The answers of these forms: on failure Conform's reply (the error next to the code field, never a code or password
 * kept); after confirming or asking for new recovery codes, the codes themselves (shown once, in this answer only).
 */
export type SecondFactorActionData =
  | { intent: '2fa-confirm' | '2fa-recovery-codes' | '2fa-disable' | '2fa-start'; result: SubmissionResult<string[]> }
  | { intent: '2fa-codes'; recoveryCodes: string[]; message: string }

const HIDE = ['code', 'password']
const answer = (data: SecondFactorActionData, status = 200) =>
  json<SecondFactorActionData>(data, { status, headers: { 'Cache-Control': 'no-store' } })
const done = (message: string) =>
  toast().redirectWithSuccess('/profile#two-step', { message, duration: TOAST_MS }, { status: 303 })

/** A refused code as the form shows it: a rate limit above the form, anything else next to the code field. */
function codeRefusal(check: CodeCheck & { ok: false }) {
  return check.status === 429 ? { formErrors: [check.message] } : { fieldErrors: { code: [check.message] } }
}

export async function secondFactorAction(request: Request, user: UserRow, intent: SecondFactorIntent, form: FormData) {
  switch (intent) {
    case '2fa-start': {
      const started = await startSecondFactorSetup(user)
      if (started === 'unverified') {
        const submission = parseSubmission(form, recoveryCodesSchema.partial())
        return answer({ intent, result: submission.reply({ formErrors: [SECOND_FACTOR_MESSAGES.verifyFirst] }) }, 400)
      }
      return toast().redirectWithInfo(
        '/profile#two-step',
        {
          message: started === 'on' ? SECOND_FACTOR_MESSAGES.alreadyOn : SECOND_FACTOR_MESSAGES.setupStarted,
          duration: TOAST_MS,
        },
        { status: 303 },
      )
    }
    case '2fa-cancel': {
      await cancelSecondFactorSetup(user.id)
      return done(SECOND_FACTOR_MESSAGES.cancelled)
    }
    case '2fa-confirm': {
      const submission = parseSubmission(form, totpConfirmSchema)
      if (submission.status !== 'success')
        return answer({ intent, result: submission.reply({ hideFields: HIDE }) }, 400)
      const result = await confirmSecondFactorSetup(request, user.id, submission.value.code)
      if (!result.ok)
        return answer({ intent, result: submission.reply({ ...codeRefusal(result), hideFields: HIDE }) }, result.status)
      return answer({
        intent: '2fa-codes',
        recoveryCodes: result.recoveryCodes,
        message: SECOND_FACTOR_MESSAGES.enabled,
      })
    }
    case '2fa-recovery-codes': {
      const submission = parseSubmission(form, recoveryCodesSchema)
      if (submission.status !== 'success')
        return answer({ intent, result: submission.reply({ hideFields: HIDE }) }, 400)
      const result = await regenerateRecoveryCodes(request, user.id, submission.value.code)
      if (!result.ok)
        return answer({ intent, result: submission.reply({ ...codeRefusal(result), hideFields: HIDE }) }, result.status)
      return answer({
        intent: '2fa-codes',
        recoveryCodes: result.recoveryCodes,
        message: SECOND_FACTOR_MESSAGES.regenerated,
      })
    }
    case '2fa-disable': {
      const submission = parseSubmission(form, totpDisableSchema)
      if (submission.status !== 'success')
        return answer({ intent, result: submission.reply({ hideFields: HIDE }) }, 400)
      if (!(await secondFactorEnabled(user.id))) return done(SECOND_FACTOR_MESSAGES.disabled)
      // The password first (when the account has one), then the code: a wrong password does not use up a code.
      const attempts = await hit(`2fa-disable:${user.id}`, { limit: 10, windowSeconds: 15 * 60 })
      if (!attempts.allowed)
        return answer(
          { intent, result: submission.reply({ formErrors: [SECOND_FACTOR_MESSAGES.tooMany], hideFields: HIDE }) },
          429,
        )
      if (user.passwordHash && !(await verifyPassword(user.passwordHash, submission.value.password ?? '')))
        return answer(
          {
            intent,
            result: submission.reply({
              fieldErrors: { password: [ACCOUNT_MESSAGES.wrongPassword] },
              hideFields: HIDE,
            }),
          },
          400,
        )
      const check = await checkSecondFactorCode(request, user.id, submission.value.code, { context: 'signedIn' })
      if (!check.ok)
        return answer({ intent, result: submission.reply({ ...codeRefusal(check), hideFields: HIDE }) }, check.status)
      await removeSecondFactor(user.id)
      return done(SECOND_FACTOR_MESSAGES.disabled)
    }
  }
}
