import { describe, expect, it } from 'vitest'
import { formatMoney, formatShortDate, monthlyCostCents, profileQuotaNote, quotaMessage } from './billing'
import { LIMITS, PLANS, PREMIUM_FEATURES } from './plans'

describe('billing display', () => {
  it('formats money in dollars', () => {
    expect(formatMoney(4990)).toBe('$49.90')
    expect(formatMoney(0)).toBe('$0.00')
    expect(formatMoney(49990, 'usd')).toBe('$499.90')
  })

  it('shows every plan per month', () => {
    expect(formatMoney(monthlyCostCents(4990, 'month', 1))).toBe('$49.90')
    expect(formatMoney(monthlyCostCents(12990, 'month', 3))).toBe('$43.30')
    expect(formatMoney(monthlyCostCents(49990, 'year', 1))).toBe('$41.66')
    expect(monthlyCostCents(4990, 'month', 0)).toBe(4990)
  })

  it("formats dates as 'MMM D, YYYY' in UTC", () => {
    expect(formatShortDate('2026-03-05T23:30:00.000Z')).toBe('Mar 5, 2026')
    expect(formatShortDate(new Date(Date.UTC(2025, 11, 31)))).toBe('Dec 31, 2025')
    expect(formatShortDate(null)).toBeNull()
    expect(formatShortDate('not a date')).toBeNull()
  })
})

describe('plans', () => {
  it('has the three Premium plans at the spec prices', () => {
    expect(PLANS.map((p) => [p.title, p.price])).toEqual([
      ['Premium Monthly', 49.9],
      ['Premium Every 3 Months', 129.9],
      ['Premium Yearly', 499.9],
    ])
  })

  it('states the limits the server enforces, as a monthly allowance on every plan', () => {
    expect(PREMIUM_FEATURES).toEqual([
      `${LIMITS.premium.keywordSearches} keyword analyses a month`,
      `${LIMITS.premium.blogPosts} AI-generated blog posts a month`,
      'Auto Pilot mode',
      'Priority support',
    ])
    expect(PREMIUM_FEATURES[0]).toBe('500 keyword analyses a month')
    expect(PREMIUM_FEATURES[1]).toBe('100 AI-generated blog posts a month')
    expect(PREMIUM_FEATURES.join(' ')).not.toMatch(/unlimited|a year|every 3 months|per billing period/i)
  })
})

describe('profileQuotaNote', () => {
  it('never tells a user on the profile to go to the profile; the refusal elsewhere keeps the spec copy', () => {
    const trial = { status: 'trial' as const, usageResetsAt: null }
    expect(quotaMessage('blogPosts', trial)).toContain('Please go to your profile')
    for (const kind of ['blogPosts', 'keywordSearches'] as const) {
      const note = profileQuotaNote(kind, trial)
      expect(note).not.toMatch(/profile/i)
      expect(note).toContain(`${LIMITS.trial[kind]}`)
    }
    const premium = { status: 'active' as const, usageResetsAt: '2026-12-29T00:00:00Z' }
    expect(profileQuotaNote('blogPosts', premium)).toBe(quotaMessage('blogPosts', premium))
  })
})
