import { describe, expect, it } from 'vitest'
import { ACCOUNT_MESSAGES, NOTHING_RECLAIMED, parseReclaimed, reclaimedItems, takeoverMessage } from './account-schemas'

describe('the takeover message (issue 34)', () => {
  it('is the plain reset message when the account had been verified', () => {
    expect(takeoverMessage('reset', null)).toBe(ACCOUNT_MESSAGES.passwordReset)
  })

  it('lists what went, counted, in words', () => {
    const all = {
      secondFactor: true,
      businessDetails: true,
      contentSettings: true,
      destinations: 2,
      webhook: true,
      autopilot: true,
      publications: 1,
    }
    expect(reclaimedItems(all)).toEqual([
      'the authenticator app set up for sign-in',
      'the business details (website, product, customers)',
      'the content settings (call-to-action, voice)',
      '2 publishing destinations',
      'the Auto Pilot webhook',
      'the Auto Pilot settings (Auto Pilot is off)',
      '1 pending publication',
    ])
    expect(
      takeoverMessage('google', { ...NOTHING_RECLAIMED, contentSettings: true, destinations: 2, webhook: true }),
    ).toBe(
      `${ACCOUNT_MESSAGES.accountSecured} The settings left by whoever created it were removed: the content settings ` +
        '(call-to-action, voice), 2 publishing destinations and the Auto Pilot webhook. Posts and keywords were ' +
        'kept: check them before you publish.',
    )
  })

  it('says only that the account is now the owner’s when nothing was left', () => {
    expect(takeoverMessage('google', NOTHING_RECLAIMED)).toBe(ACCOUNT_MESSAGES.accountSecured)
    expect(takeoverMessage('reset', NOTHING_RECLAIMED)).toBe(
      `${ACCOUNT_MESSAGES.passwordReset} Nobody had verified this account, so it is now yours alone: every session was signed out.`,
    )
  })

  it('reads back only a well-formed summary', () => {
    expect(parseReclaimed({ ...NOTHING_RECLAIMED, destinations: 3 })).toEqual({ ...NOTHING_RECLAIMED, destinations: 3 })
    expect(parseReclaimed({ destinations: '3' })).toBeNull()
    expect(parseReclaimed(undefined)).toBeNull()
  })
})
