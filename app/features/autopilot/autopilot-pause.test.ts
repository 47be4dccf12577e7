import { describe, expect, it } from 'vitest'
import { LIMITS } from '#app/features/billing/plans'
import { PAUSE_MESSAGES, pauseOf, type PauseInput } from './autopilot-pause'

const trial: PauseInput = {
  status: 'trial',
  trialExpired: false,
  blogPostCount: 0,
  limits: LIMITS.trial,
  usageResetsAt: null,
}
const premium: PauseInput = {
  ...trial,
  status: 'active',
  limits: LIMITS.premium,
  usageResetsAt: '2026-12-29T10:00:00Z',
}

describe('pauseOf', () => {
  it('is null while the plan has posts left (a past-due subscription still writes while Stripe retries)', () => {
    expect(pauseOf(trial)).toBeNull()
    expect(pauseOf(premium)).toBeNull()
    expect(pauseOf({ ...premium, status: 'past_due' })).toBeNull()
  })

  it('says the trial has ended, with the upgrade, and never resumes on its own', () => {
    expect(pauseOf({ ...trial, trialExpired: true, blogPostCount: 5 })).toMatchObject({
      reason: 'trial-ended',
      message: PAUSE_MESSAGES.trialEnded,
      action: { href: '/pricing' },
      resumesAt: null,
    })
  })

  it("says the trial's posts are used, or this month's with the day Auto Pilot writes again", () => {
    expect(pauseOf({ ...trial, blogPostCount: LIMITS.trial.blogPosts })).toMatchObject({
      reason: 'quota',
      message: PAUSE_MESSAGES.trialQuota,
      action: { href: '/pricing' },
    })
    const used = pauseOf({ ...premium, blogPostCount: LIMITS.premium.blogPosts })
    expect(used).toMatchObject({ reason: 'quota', message: PAUSE_MESSAGES.quota, action: null })
    expect(used?.detail).toContain('Auto Pilot writes again on Dec 29, 2026')
    expect(used?.resumesAt).toBe(premium.usageResetsAt)
  })

  it('tells an ended subscription apart from a failed payment', () => {
    expect(pauseOf({ ...trial, status: 'canceled', endedReason: 'payment_failed' })?.reason).toBe('past-due')
    expect(pauseOf({ ...trial, status: 'canceled', endedReason: null })?.reason).toBe('ended')
  })
})
