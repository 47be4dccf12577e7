import { describe, expect, it } from 'vitest'
import { COUNTRY_OPTIONS, findCountry, findLanguage, LANGUAGE_OPTIONS, languageIso } from './markets'

describe('markets', () => {
  it('lists about 245 markets sorted by name, countries and regions', () => {
    expect(COUNTRY_OPTIONS.length).toBeGreaterThanOrEqual(240)
    const labels = COUNTRY_OPTIONS.map((o) => o.label)
    expect([...labels].sort((a, b) => a.localeCompare(b, 'en'))).toEqual(labels)
    expect(findCountry('2840')?.label).toBe('United States')
    expect(findCountry('2344')?.label).toBe('Hong Kong')
  })
  it('lists languages by Google Ads id', () => {
    expect(findLanguage('1000')?.label).toBe('English')
    expect(findLanguage('1001')?.label).toBe('German')
    expect(LANGUAGE_OPTIONS.length).toBe(50)
  })
  it('maps Google language codes to ISO codes', () => {
    expect(languageIso('1000')).toBe('en')
    expect(languageIso('9999')).toBeUndefined()
  })
})
