import { describe, expect, it } from 'vitest'
import { formatMoney } from './billing'
import { PLANS, planValue } from './plans'

describe('plan value (decision 0354)', () => {
  it('works out the monthly equivalent and the saving of each plan from its price', () => {
    const shown = PLANS.map((plan) => {
      const v = planValue(plan)
      return [plan.id, formatMoney(v.perMonthCents), formatMoney(v.savedCents), `${v.savedPercent}%`]
    })
    expect(shown).toEqual([
      ['monthly', '$49.90', '$0.00', '0%'],
      // $129.90 / 3 = $43.30; 3 × $49.90 = $149.70, $19.80 less = 13.2%
      ['quarterly', '$43.30', '$19.80', '13%'],
      // $499.90 / 12 = $41.658 → $41.66; 12 × $49.90 = $598.80, $98.90 less = 16.5%
      ['yearly', '$41.66', '$98.90', '17%'],
    ])
    expect(formatMoney(planValue(PLANS[2]!).monthlyTotalCents)).toBe('$598.80')
  })

  it('follows the prices: another price gives another saving, never a negative one', () => {
    const monthly = { price: 10, months: 1 }
    expect(planValue({ price: 27, months: 3 }, monthly)).toMatchObject({
      perMonthCents: 900,
      savedCents: 300,
      savedPercent: 10,
    })
    expect(planValue({ price: 100, months: 12 }, monthly)).toMatchObject({ perMonthCents: 833, savedPercent: 17 })
    expect(planValue({ price: 35, months: 3 }, monthly)).toMatchObject({ savedCents: 0, savedPercent: 0 })
    expect(planValue({ price: 9.99, months: 0 }, monthly)).toMatchObject({ months: 1, perMonthCents: 999 })
  })
})
