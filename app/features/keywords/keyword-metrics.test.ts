import { describe, expect, it } from 'vitest'
import {
  cleanMonthly,
  competitionLabel,
  competitionLevelOf,
  DEFAULT_KEYWORD_COLUMNS,
  formatCpc,
  INTENT_EXPLANATIONS,
  INTENT_LABELS,
  KEYWORD_COLUMNS,
  keywordColumnsSchema,
  metricCells,
  pickMetrics,
  positionText,
  serpFeaturesOf,
  shownColumns,
  sparklinePoints,
  trendSummary,
  type MonthlySearches,
} from './keyword-metrics'

const months = (values: number[]): MonthlySearches =>
  values.map((searches, i) => ({ year: 2025 + Math.floor(i / 12), month: (i % 12) + 1, searches }))

describe('intent labels', () => {
  it('names each intent and explains it in founder words', () => {
    expect(INTENT_LABELS).toEqual({
      informational: 'Informational',
      commercial: 'Commercial',
      transactional: 'Transactional',
      navigational: 'Navigational',
    })
    expect(INTENT_EXPLANATIONS.informational).toMatch(/researching/)
    expect(INTENT_EXPLANATIONS.commercial).toMatch(/comparing options/)
    expect(INTENT_EXPLANATIONS.transactional).toMatch(/ready to buy/)
    expect(INTENT_EXPLANATIONS.navigational).toMatch(/looking for a particular site/)
  })
})

describe('formatCpc', () => {
  it('formats dollars with two decimals', () => {
    expect(formatCpc(1.2)).toBe('$1.20')
    expect(formatCpc(0.056, 'USD')).toBe('$0.06')
    expect(formatCpc(1234.5, 'usd')).toBe('$1,234.50')
  })
  it('uses the currency given, and survives a code that is not one', () => {
    expect(formatCpc(2, 'EUR')).toBe('€2.00')
    expect(formatCpc(2, 'XX1')).toBe('2.00 XX1')
    expect(formatCpc(2, null)).toBe('2.00')
  })
  it('says N/A when unknown', () => {
    expect(formatCpc(null)).toBe('N/A')
    expect(formatCpc(undefined)).toBe('N/A')
    expect(formatCpc(Number.NaN)).toBe('N/A')
  })
})

describe('competition', () => {
  it('reads provider levels and labels them', () => {
    expect(competitionLevelOf('HIGH')).toBe('high')
    expect(competitionLevelOf('UNKNOWN')).toBeNull()
    expect(competitionLabel('medium')).toBe('Medium')
    expect(competitionLabel(null, 0.1)).toBe('Low')
    expect(competitionLabel(null, 0.9)).toBe('High')
    expect(competitionLabel(null, null)).toBe('N/A')
  })
})

describe('trend', () => {
  it('summarises the first month against the last', () => {
    expect(trendSummary(months([100, 90, 110, 100, 100, 100, 100, 100, 100, 100, 100, 123]))).toBe(
      'up 23% over 12 months',
    )
    expect(trendSummary(months([200, 180]))).toBe('down 10% over 2 months')
    expect(trendSummary(months([100, 150, 103]))).toBe('steady over 3 months')
    expect(trendSummary(months([0, 10]))).toBe('up from none over 2 months')
    expect(trendSummary(months([5]))).toBeNull()
    expect(trendSummary(null)).toBeNull()
  })

  it('draws sparkline points inside the box, highest value at the top', () => {
    const points = sparklinePoints(months([10, 30, 20]), 72, 20)
    expect(points).toBe('1,19 36,1 71,10')
    expect(sparklinePoints(months([5, 5]), 72, 20)).toBe('1,10 71,10')
    expect(sparklinePoints(months([5]))).toBe('')
  })

  it('cleans stored months: drops bad entries, sorts oldest first, keeps 12', () => {
    const raw = [
      { year: 2025, month: 3, searches: 30 },
      { year: 2025, month: 1, searches: 10 },
      { year: 2025, month: 13, searches: 1 },
      { year: 2025, month: 2, searches: '20' },
      null,
      ...months(Array.from({ length: 14 }, (_, i) => i)).map((m) => ({ ...m, year: m.year + 1 })),
    ]
    const clean = cleanMonthly(raw)
    expect(clean).toHaveLength(12)
    expect(clean[0]).toEqual({ year: 2026, month: 3, searches: 2 })
    expect(cleanMonthly('nope')).toEqual([])
  })
})

describe('SERP features and position', () => {
  it('keeps the four features we show, in order', () => {
    expect(serpFeaturesOf(['organic', 'video', 'people_also_ask', 'ai_overview', 'video'])).toEqual([
      'ai_overview',
      'people_also_ask',
      'video',
    ])
    expect(serpFeaturesOf(null)).toEqual([])
  })
  it('says where you or a competitor rank', () => {
    expect(positionText({ rankedPosition: 7, competitorDomain: null, competitorPosition: null })).toBe('You rank #7')
    expect(positionText({ rankedPosition: null, competitorDomain: 'competitor.com', competitorPosition: 3 })).toBe(
      'competitor.com ranks #3',
    )
    expect(positionText({ rankedPosition: null, competitorDomain: null, competitorPosition: null })).toBeNull()
  })
})

describe('columns', () => {
  it('reads the stored choice in table order, defaults when none', () => {
    expect(shownColumns(null)).toEqual(DEFAULT_KEYWORD_COLUMNS)
    expect(shownColumns(['trend', 'bogus', 'intent'])).toEqual(['intent', 'trend'])
    expect(shownColumns([])).toEqual([])
  })
  it('parses the form: one, several or none checked; unknown ids refused', () => {
    expect(keywordColumnsSchema.parse({ columns: 'cpc' })).toEqual({ columns: ['cpc'] })
    expect(keywordColumnsSchema.parse({ columns: ['cpc', 'trend'] })).toEqual({ columns: ['cpc', 'trend'] })
    expect(keywordColumnsSchema.parse({})).toEqual({ columns: [] })
    expect(keywordColumnsSchema.safeParse({ columns: ['evil'] }).success).toBe(false)
  })
})

describe('metricCells', () => {
  const row = {
    source: 'google_ads' as const,
    intent: 'commercial' as const,
    intentSource: 'ai_estimate' as const,
    cpc: 1.2,
    cpcCurrency: null,
    competition: 0.5,
    competitionLevel: 'medium' as const,
    monthlySearches: months([100, 123]),
    serpFeatures: ['video' as const],
    rankedPosition: null,
    rankedUrl: null,
    competitorDomain: 'rival.com',
    competitorPosition: 3,
    competitorUrl: 'https://rival.com/x',
  }
  it('computes only the shown columns, with sources and the estimate mark', () => {
    expect(Object.keys(metricCells(row, ['cpc']))).toEqual(['cpc'])
    const cells = metricCells(row, KEYWORD_COLUMNS)
    expect(cells.intent).toMatchObject({ label: 'Commercial', estimate: true })
    expect(cells.intent!.title).toBe('Source: Estimate by AI')
    expect(cells.cpc).toMatchObject({ text: '1.20' })
    expect(cells.cpc!.title).toMatch(/Google Ads/)
    expect(cells.competition!.text).toBe('Medium')
    expect(cells.trend!.summary).toBe('Searches up 23% over 2 months')
    expect(cells.features!.labels).toEqual(['Video'])
    expect(cells.position!.text).toBe('rival.com ranks #3')
  })
  it('sends the shown columns’ raw fields only, and computes the same cells from them', () => {
    const shown = pickMetrics(row, ['cpc', 'trend'])
    expect(shown).toEqual({
      source: row.source,
      cpc: 1.2,
      cpcCurrency: null,
      monthlySearches: [100, 123],
    })
    expect(metricCells(shown, ['cpc', 'trend'])).toEqual(metricCells(row, ['cpc', 'trend']))
    expect(pickMetrics(row, [])).toEqual({ source: row.source })
  })
  it('says unknown as null', () => {
    const cells = metricCells(
      {
        ...row,
        intent: null,
        cpc: null,
        competition: null,
        competitionLevel: null,
        monthlySearches: null,
        serpFeatures: null,
        competitorDomain: null,
        competitorPosition: null,
      },
      KEYWORD_COLUMNS,
    )
    expect(Object.values(cells).every((v) => v === null)).toBe(true)
  })
})
