import { describe, expect, it } from 'vitest'
import { parseSubmission } from '#app/platform/forms/submission'
import { signInCodeSchema, totpConfirmSchema } from './account-schemas'
import { commonPasswordCount, isCommonPassword } from './common-passwords.server'
import { newPasswordRefusal } from './second-factor-gates.server'

describe('common passwords (issue 34)', () => {
  it('bundles at least 10,000 of them', () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(10_000)
  })
  it('refuses well-known ones, whatever their case', () => {
    for (const p of ['password', 'Password1', 'qwertyuiop', '12345678', 'iloveyou', 'TRUSTNO1', 'sunshine'])
      expect(isCommonPassword(p), p).toBe(true)
  })
  it('accepts a strong password', () => {
    expect(isCommonPassword('violet-harbour-92-tangent')).toBe(false)
    expect(isCommonPassword('correct-horse-battery')).toBe(false)
  })
  it('answers with the message next to the field it names', () => {
    expect(newPasswordRefusal('newPassword', 'password123')).toEqual({
      status: 400,
      refusal: { fieldErrors: { newPassword: ['This password is too common. Choose one that is harder to guess.'] } },
      message: 'This password is too common. Choose one that is harder to guess.',
    })
    expect(newPasswordRefusal('password', 'violet-harbour-92-tangent')).toBeNull()
  })
})

describe('second-factor code fields', () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData()
    for (const [k, v] of Object.entries(fields)) data.set(k, v)
    return data
  }
  it('turning on takes the 6 digits the app shows (spaces ignored), nothing else', () => {
    const ok = parseSubmission(form({ code: '123 456' }), totpConfirmSchema)
    expect(ok.status === 'success' && ok.value).toEqual({ code: '123456' })
    const bad = parseSubmission(form({ code: 'abcdef' }), totpConfirmSchema)
    expect(bad.status).toBe('error')
    expect(bad.reply().error?.code).toEqual(['Enter the 6 digits your authenticator app shows.'])
  })
  it('the sign-in step takes a recovery code too, and asks for a code when empty', () => {
    const ok = parseSubmission(form({ code: 'abcde-fghjk' }), signInCodeSchema)
    expect(ok.status).toBe('success')
    const empty = parseSubmission(form({ code: '' }), signInCodeSchema)
    expect(empty.reply().error?.code?.[0]).toMatch(/Enter the 6-digit code/)
  })
})
