import { describe, expect, it } from 'vitest'
import { autopilotSlots, calendarRange, dayKey, neighbours, parseDay } from './calendar'

describe('calendar dates', () => {
  it('covers a month with whole weeks starting on Monday', () => {
    const { weeks, from, to } = calendarRange('month', new Date('2026-11-24T00:00:00Z'))
    expect(dayKey(from)).toBe('2026-10-26')
    expect(dayKey(to)).toBe('2026-12-07')
    expect(weeks).toHaveLength(6)
    expect(weeks.every((w) => w.length === 7 && w[0]!.getUTCDay() === 1)).toBe(true)
  })

  it('shows one week for the week view, and pages by weeks and months', () => {
    const anchor = new Date('2026-11-26T00:00:00Z')
    const { weeks } = calendarRange('week', anchor)
    expect(weeks.map((w) => w.map(dayKey))).toEqual([
      ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'],
    ])
    expect(dayKey(neighbours('week', anchor).next)).toBe('2026-12-03')
    expect(dayKey(neighbours('month', anchor).prev)).toBe('2026-10-01')
  })

  it('parses only real days', () => {
    const fallback = new Date('2026-01-02T10:00:00Z')
    expect(dayKey(parseDay('2026-02-28', fallback))).toBe('2026-02-28')
    expect(dayKey(parseDay('2026-02-30', fallback))).toBe('2026-01-02')
    expect(dayKey(parseDay('<script>', fallback))).toBe('2026-01-02')
  })

  it('lists Auto Pilot slots from the last run on its cadence, never in the past', () => {
    const now = new Date('2026-11-24T12:00:00Z')
    const from = new Date('2026-11-23T00:00:00Z')
    const to = new Date('2026-11-30T00:00:00Z')
    const weekly = autopilotSlots({ lastRunAt: new Date('2026-11-20T08:00:00Z'), cadenceDays: 7, now, from, to })
    expect(weekly.map((d) => d.toISOString())).toEqual(['2026-11-27T08:00:00.000Z'])
    const overdue = autopilotSlots({ lastRunAt: new Date('2026-11-01T08:00:00Z'), cadenceDays: 2, now, from, to })
    expect(overdue[0]!.toISOString()).toBe(now.toISOString())
    expect(overdue).toHaveLength(3)
  })
})
