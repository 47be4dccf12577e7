import { describe, expect, it } from 'vitest'
import { aiVisibilityLimits, aiVisibilityQuerySchema, isoWeek, normalizeSubject } from './visibility'

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

describe('aiVisibilityQuerySchema', () => {
  it('takes weeks as a query string or a number, and reads its own output again', () => {
    const once = aiVisibilityQuerySchema.parse({ weeks: '4', kind: 'prompt' })
    expect(once).toEqual({ weeks: 4, kind: 'prompt' })
    expect(aiVisibilityQuerySchema.parse(once)).toEqual(once)
    expect(aiVisibilityQuerySchema.parse({})).toEqual({ weeks: 12 })
    for (const weeks of ['0', '53', '4.5', 'x', 4.5, 99, true]) {
      expect(aiVisibilityQuerySchema.safeParse({ weeks }).success, String(weeks)).toBe(false)
    }
  })
})
