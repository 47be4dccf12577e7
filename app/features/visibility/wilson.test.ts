import { describe, expect, it } from 'vitest'
import { change, describeRate, wilson } from './wilson'

describe('wilson', () => {
  it('matches the textbook interval: 4 of 9 is 18.9%–73.3%', () => {
    const r = wilson(4, 9)
    expect(r.rate).toBeCloseTo(0.4444, 4)
    expect(r.low).toBeCloseTo(0.1888, 3)
    expect(r.high).toBeCloseTo(0.7333, 3)
    expect(describeRate(r, 'mentioned')).toBe('mentioned in 4 of 9 answers (19%–73%)')
  })

  it('keeps the ends inside [0, 1] and around the rate', () => {
    const none = wilson(0, 3)
    expect(none.low).toBe(0)
    expect(none.high).toBeCloseTo(0.5615, 3)
    const all = wilson(3, 3)
    expect(all.high).toBe(1)
    expect(all.low).toBeCloseTo(0.4385, 3)
  })

  it('counts nothing as unknown, and refuses what is not a count', () => {
    expect(wilson(0, 0)).toEqual({ hits: 0, total: 0, rate: null, low: null, high: null })
    expect(describeRate(wilson(0, 0), 'cited')).toBe('cited: no answers yet')
    expect(() => wilson(4, 3)).toThrow(RangeError)
    expect(() => wilson(-1, 3)).toThrow(RangeError)
    expect(() => wilson(1.5, 3)).toThrow(RangeError)
  })

  it('calls a change only when the intervals do not overlap', () => {
    expect(change(wilson(1, 9), wilson(3, 9))).toBe('none')
    expect(change(wilson(2, 60), wilson(40, 60))).toBe('up')
    expect(change(wilson(40, 60), wilson(2, 60))).toBe('down')
    expect(change(wilson(0, 0), wilson(3, 9))).toBe('unknown')
  })
})
