import { describe, expect, it } from 'vitest'
import { hourlyShare, retryAt } from './daily-units'

describe('daily units', () => {
  it('spreads the open units over the hours left, the last hour taking the rest', () => {
    expect(hourlyShare(640, new Date('2031-03-04T00:20:00Z'))).toBe(27)
    expect(hourlyShare(100, new Date('2031-03-04T12:20:00Z'))).toBe(9)
    expect(hourlyShare(37, new Date('2031-03-04T23:59:00Z'))).toBe(37)
    expect(hourlyShare(0, new Date('2031-03-04T05:00:00Z'))).toBe(0)
  })

  it('tries a failed unit again after 30 minutes, then 1 hour, then 2', () => {
    const now = new Date('2031-03-04T10:00:00Z')
    expect([1, 2, 3].map((n) => retryAt(now, n).toISOString())).toEqual([
      '2031-03-04T10:30:00.000Z',
      '2031-03-04T11:00:00.000Z',
      '2031-03-04T12:00:00.000Z',
    ])
  })
})
