import { describe, expect, it } from 'vitest'
import { aiVisibilityLimits, isoWeek, normalizeSubject } from './visibility'

describe('visibility rules', () => {
  it('weeks start on Monday', () => {
    expect(isoWeek('2026-11-30')).toBe('2026-11-30')
    expect(isoWeek('2026-11-29')).toBe('2026-11-23')
    expect(isoWeek('2026-01-01')).toBe('2025-12-29')
    expect(() => isoWeek('tomorrow')).toThrow(RangeError)
  })

  it('normalises subjects and picks the plan', () => {
    expect(normalizeSubject('  Best   CRM\tfor Startups ')).toBe('best crm for startups')
    expect(aiVisibilityLimits('active').prompts).toBe(20)
    expect(aiVisibilityLimits('canceled').prompts).toBe(3)
    expect(aiVisibilityLimits(null).prompts).toBe(3)
  })
})
