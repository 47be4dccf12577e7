import { describe, expect, it } from 'vitest'
import { difficultyBand } from './difficulty'
import {
  compareKeywords,
  formatSearchDate,
  formatVolume,
  keywordCacheKey,
  keywordSearchSchema,
  KEYWORDS_PAGE_SIZE,
  normalizeQuery,
  SEARCH_VALIDATION_MESSAGE,
  searchProblem,
  shownCount,
  sortKeywords,
} from './keywords'

describe('formatVolume', () => {
  it('shows N/A when the volume is unknown', () => {
    expect(formatVolume(null)).toBe('N/A')
    expect(formatVolume(undefined)).toBe('N/A')
    expect(formatVolume(Number.NaN)).toBe('N/A')
  })

  it('shows < 10 under ten searches, zero included', () => {
    expect(formatVolume(0)).toBe('< 10')
    expect(formatVolume(9)).toBe('< 10')
  })

  it('shows the number with thousands separators from ten up', () => {
    expect(formatVolume(10)).toBe('10')
    expect(formatVolume(999)).toBe('999')
    expect(formatVolume(1000)).toBe('1,000')
    expect(formatVolume(1234567)).toBe('1,234,567')
  })
})

describe('difficultyBand', () => {
  it('is N/A (no colour) when not set', () => {
    expect(difficultyBand(null)).toMatchObject({ label: 'N/A', tone: 'none' })
    expect(difficultyBand(null).className).toContain('slate')
    expect(difficultyBand(undefined)).toMatchObject({ label: 'N/A', tone: 'none' })
  })

  it.each([
    [0, 'Easy', 'green'],
    [29, 'Easy', 'green'],
    [30, 'Medium', 'yellow'],
    [59, 'Medium', 'yellow'],
    [60, 'Hard', 'orange'],
    [79, 'Hard', 'orange'],
    [80, 'Very Hard', 'red'],
    [100, 'Very Hard', 'red'],
  ] as const)('%i is %s (%s)', (score, label, tone) => {
    const band = difficultyBand(score)
    expect(band.label).toBe(label)
    expect(band.tone).toBe(tone)
    expect(band.className).toContain(tone)
  })
})

describe('formatSearchDate', () => {
  it('formats as MMM D, YYYY', () => {
    expect(formatSearchDate(new Date(Date.UTC(2026, 0, 5, 12)))).toBe('Jan 5, 2026')
    expect(formatSearchDate('2025-12-31T23:59:00.000Z')).toBe('Dec 31, 2025')
    expect(formatSearchDate(Date.UTC(2024, 8, 15))).toBe('Sep 15, 2024')
  })

  it('gives an empty string for an invalid date', () => {
    expect(formatSearchDate('not a date')).toBe('')
  })
})

describe('keyword order', () => {
  const row = (keyword: string, createdAt: string, avgMonthlySearches: number | null) => ({
    keyword,
    createdAt,
    avgMonthlySearches,
  })

  it('puts the newest search first, then the higher volume, unknown volume last', () => {
    const rows = [
      row('old big', '2026-01-01T00:00:00Z', 90000),
      row('new unknown', '2026-02-01T00:00:00Z', null),
      row('new small', '2026-02-01T00:00:00Z', 20),
      row('new big', '2026-02-01T00:00:00Z', 5000),
    ]
    expect(sortKeywords(rows).map((r) => r.keyword)).toEqual(['new big', 'new small', 'new unknown', 'old big'])
  })

  it('accepts Date objects and does not change the input', () => {
    const rows = [row('a', '2026-01-01T00:00:00Z', 1), row('b', '2026-01-02T00:00:00Z', 1)]
    const dated = rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }))
    expect(sortKeywords(dated).map((r) => r.keyword)).toEqual(['b', 'a'])
    expect(rows[0]!.keyword).toBe('a')
    expect(compareKeywords(dated[0]!, dated[0]!)).toBe(0)
  })
})

describe('normalizeQuery and the cache key', () => {
  it('trims, lower-cases, collapses spaces and drops symbols providers refuse', () => {
    expect(normalizeQuery('  SaaS   Marketing ')).toBe('saas marketing')
    expect(normalizeQuery('seo {tools} | 🚀 tips')).toBe('seo tools 🚀 tips')
    expect(normalizeQuery('<script>alert("x, y, z")</script>')).toBe('')
    expect(normalizeQuery('<b>Best</b> CRM<br/> <style>p{}</style>tools <script>x')).toBe('best crm tools')
    expect(normalizeQuery('  מילות מפתח 🔑  ')).toBe('מילות מפתח 🔑')
    expect(normalizeQuery('كلمات رئيسية')).toBe('كلمات رئيسية')
    expect(normalizeQuery('a < b and c > d')).toBe('a b and c d')
  })

  it('maps equivalent queries to one key per provider and market', () => {
    const a = keywordCacheKey('dataforseo', { query: 'SaaS Marketing', countryCode: '2840', languageCode: '1000' })
    const b = keywordCacheKey('dataforseo', { query: ' saas  marketing', countryCode: '2840', languageCode: '1000' })
    expect(a).toBe(b)
    expect(
      keywordCacheKey('google_ads', { query: 'saas marketing', countryCode: '2840', languageCode: '1000' }),
    ).not.toBe(a)
    expect(
      keywordCacheKey('dataforseo', { query: 'saas marketing', countryCode: '2826', languageCode: '1000' }),
    ).not.toBe(a)
    expect(
      keywordCacheKey('dataforseo', { query: 'saas marketing', countryCode: '2840', languageCode: '1001' }),
    ).not.toBe(a)
  })
})

describe('keywordSearchSchema', () => {
  it('accepts a query with known country and language ids and fills in their names', () => {
    const parsed = keywordSearchSchema.parse({ query: ' SaaS Marketing ', countryCode: '2840', languageCode: '1000' })
    expect(parsed).toEqual({
      query: 'saas marketing',
      countryCode: '2840',
      languageCode: '1000',
      countryName: 'United States',
      languageName: 'English',
    })
  })

  it.each([
    { query: '', countryCode: '2840', languageCode: '1000' },
    { query: '   ', countryCode: '2840', languageCode: '1000' },
    { query: '🚀', countryCode: '2840', languageCode: '1000' },
    { query: 'seo', countryCode: '', languageCode: '1000' },
    { query: 'seo', countryCode: '2840', languageCode: '' },
    { query: 'seo', countryCode: '99999', languageCode: '1000' },
    { query: 'seo', countryCode: '2840', languageCode: 'xx' },
    { countryCode: '2840', languageCode: '1000' },
    { query: 42, countryCode: '2840', languageCode: '1000' },
  ])('refuses %j with the spec message', (input) => {
    const parsed = keywordSearchSchema.safeParse(input)
    expect(parsed.success).toBe(false)
    if (!parsed.success) expect(searchProblem(parsed.error)).toBe(SEARCH_VALIDATION_MESSAGE)
  })

  it('refuses a query longer than providers accept', () => {
    const parsed = keywordSearchSchema.safeParse({ query: 'a'.repeat(81), countryCode: '2840', languageCode: '1000' })
    expect(parsed.success).toBe(false)
    if (!parsed.success) expect(searchProblem(parsed.error)).toMatch(/at most 80 characters/)
  })
})

describe('shownCount', () => {
  it('shows one page by default and whole pages when asked for more', () => {
    expect(shownCount(null)).toBe(KEYWORDS_PAGE_SIZE)
    expect(shownCount('abc')).toBe(KEYWORDS_PAGE_SIZE)
    expect(shownCount('-5')).toBe(KEYWORDS_PAGE_SIZE)
    expect(shownCount(String(KEYWORDS_PAGE_SIZE * 2))).toBe(KEYWORDS_PAGE_SIZE * 2)
    expect(shownCount(String(KEYWORDS_PAGE_SIZE * 2 + 1))).toBe(KEYWORDS_PAGE_SIZE * 3)
    expect(shownCount('1e9')).toBe(20_000)
  })
})
