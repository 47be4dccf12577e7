import { z } from 'zod'
import type { KeywordSource } from './keywords'
import { SERP_FEATURE_IDS, type SerpFeatureId } from './serp'

/**
 * Issue 36, "more per keyword": search intent, cost per click, competition, the 12-month trend, the SERP features and
 * where a domain ranks, as the Keywords screen and the API show them; and the optional columns the user shows or
 * hides. Pure and isomorphic (no I/O). Decision 0361.
 */

export const KEYWORD_INTENTS = ['informational', 'commercial', 'transactional', 'navigational'] as const
export type KeywordIntent = (typeof KEYWORD_INTENTS)[number]

/** The intent's name on screen. */
export const INTENT_LABELS: Record<KeywordIntent, string> = {
  informational: 'Informational',
  commercial: 'Commercial',
  transactional: 'Transactional',
  navigational: 'Navigational',
}

/** What the intent means, in one line for a founder. */
export const INTENT_EXPLANATIONS: Record<KeywordIntent, string> = {
  informational: 'People are researching: they want to learn or get an answer.',
  commercial: 'People are comparing options before they choose what to buy.',
  transactional: 'People are ready to buy or sign up.',
  navigational: 'People are looking for a particular site or brand.',
}

export function isKeywordIntent(v: unknown): v is KeywordIntent {
  return typeof v === 'string' && (KEYWORD_INTENTS as readonly string[]).includes(v)
}

/** The SERP features a row records: the same ids the results page reads from Google's answer (serp.ts). */
export const SERP_FEATURES = SERP_FEATURE_IDS
export type SerpFeature = SerpFeatureId
export const SERP_FEATURE_LABELS: Record<SerpFeature, string> = {
  ai_overview: 'AI Overview',
  people_also_ask: 'People also ask',
  video: 'Video',
  local_pack: 'Local pack',
}

export function isSerpFeature(v: unknown): v is SerpFeature {
  return typeof v === 'string' && (SERP_FEATURES as readonly string[]).includes(v)
}

/** The SERP features among a provider's item types (e.g. DataForSEO's serp_item_types), in our order, once each. */
export function serpFeaturesOf(types: readonly unknown[] | null | undefined): SerpFeature[] {
  if (!types) return []
  const present = new Set(types.filter(isSerpFeature))
  return SERP_FEATURES.filter((f) => present.has(f))
}

export type MonthlySearches = Array<{ year: number; month: number; searches: number }>
export type CompetitionLevel = 'low' | 'medium' | 'high'

/** Who gave a figure, as its tooltip says. */
export const SOURCE_LABELS: Record<KeywordSource, string> = {
  dataforseo: 'DataForSEO',
  google_ads: 'Google Ads',
  ai_estimate: 'Estimate by AI',
}

export function sourceNote(source: KeywordSource | null | undefined): string {
  return source ? `Source: ${SOURCE_LABELS[source]}` : 'Source: not known'
}

// ---------------------------------------------------------------------------
// Cost per click and competition
// ---------------------------------------------------------------------------

const currencyFormats = new Map<string, Intl.NumberFormat>()

/**
 * '$1.20' (the currency's own symbol, two decimals; US dollars when no currency is given); '1.20' when the currency is
 * null (not known: Google Ads answers in the account's currency); 'N/A' when the cost is unknown.
 */
export function formatCpc(cpc: number | null | undefined, currency: string | null = 'USD'): string {
  if (cpc === null || cpc === undefined || !Number.isFinite(cpc)) return 'N/A'
  if (currency === null || currency === '') return cpc.toFixed(2)
  const code = currency.toUpperCase()
  let format = currencyFormats.get(code)
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: code,
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      })
    } catch {
      // Not an ISO 4217 code: show the number with the code after it.
      return `${cpc.toFixed(2)} ${code}`
    }
    currencyFormats.set(code, format)
  }
  return format.format(cpc)
}

/** A level from DataForSEO's or Google Ads' words ('LOW', 'MEDIUM', 'HIGH'); null for anything else. */
export function competitionLevelOf(v: unknown): CompetitionLevel | null {
  if (typeof v !== 'string') return null
  const level = v.trim().toLowerCase()
  return level === 'low' || level === 'medium' || level === 'high' ? level : null
}

/** 'Low', 'Medium', 'High' (from the level, or the 0-1 index when only it is known); 'N/A' when unknown. */
export function competitionLabel(level: CompetitionLevel | null | undefined, competition?: number | null): string {
  const l =
    level ??
    (competition === null || competition === undefined || !Number.isFinite(competition)
      ? null
      : competition < 0.34
        ? 'low'
        : competition < 0.67
          ? 'medium'
          : 'high')
  return l ? `${l[0]!.toUpperCase()}${l.slice(1)}` : 'N/A'
}

// ---------------------------------------------------------------------------
// The 12-month trend
// ---------------------------------------------------------------------------

/** Well-formed months only, oldest first, the last 12 at most. */
export function cleanMonthly(v: unknown): MonthlySearches {
  if (!Array.isArray(v)) return []
  const out: MonthlySearches = []
  for (const m of v) {
    if (!m || typeof m !== 'object') continue
    const { year, month, searches } = m as Record<string, unknown>
    if (typeof year !== 'number' || typeof month !== 'number' || typeof searches !== 'number') continue
    if (!Number.isInteger(year) || month < 1 || month > 12 || !Number.isFinite(searches) || searches < 0) continue
    out.push({ year, month, searches: Math.round(searches) })
  }
  out.sort((a, b) => a.year - b.year || a.month - b.month)
  return out.slice(-12)
}

/** The monthly counts alone, oldest first (what the trend and the sparkline are drawn from). */
function searchesOf(monthly: MonthlySearches | readonly number[] | null | undefined): number[] {
  if (!monthly) return []
  return monthly.map((m) => (typeof m === 'number' ? m : m.searches))
}

/**
 * The trend in words: 'up 23% over 12 months', 'down 8% over 12 months', 'steady over 12 months' (within 5%), from
 * the first month to the last; null with fewer than two months.
 */
export function trendSummary(monthly: MonthlySearches | readonly number[] | null | undefined): string | null {
  const values = searchesOf(monthly)
  if (values.length < 2) return null
  const first = values[0]!
  const last = values[values.length - 1]!
  const span = `${values.length} months`
  if (first === 0) return last === 0 ? `steady over ${span}` : `up from none over ${span}`
  const change = Math.round(((last - first) / first) * 100)
  if (Math.abs(change) < 5) return `steady over ${span}`
  return `${change > 0 ? 'up' : 'down'} ${Math.abs(change)}% over ${span}`
}

export const SPARKLINE = { width: 72, height: 20 } as const

/** The polyline points of a sparkline ('x,y x,y …', y down, 1px inset); '' with fewer than two months. */
export function sparklinePoints(
  monthly: MonthlySearches | readonly number[] | null | undefined,
  width: number = SPARKLINE.width,
  height: number = SPARKLINE.height,
): string {
  const values = searchesOf(monthly)
  if (values.length < 2) return ''
  const min = Math.min(...values)
  const max = Math.max(...values)
  const inset = 1
  const w = width - 2 * inset
  const h = height - 2 * inset
  const step = w / (values.length - 1)
  return values
    .map((v, i) => {
      const y = max === min ? h / 2 : h - ((v - min) / (max - min)) * h
      return `${Math.round((inset + i * step) * 10) / 10},${Math.round((inset + y) * 10) / 10}`
    })
    .join(' ')
}

// ---------------------------------------------------------------------------
// Position (issue 36's domain and gap lookups)
// ---------------------------------------------------------------------------

/** 'You rank #7', or for a gap 'competitor.com ranks #3'; null when neither is known. */
export function positionText(row: {
  rankedPosition: number | null
  competitorDomain: string | null
  competitorPosition: number | null
}): string | null {
  if (row.rankedPosition !== null) return `You rank #${row.rankedPosition}`
  if (row.competitorDomain && row.competitorPosition !== null)
    return `${row.competitorDomain} ranks #${row.competitorPosition}`
  return null
}

// ---------------------------------------------------------------------------
// Optional columns of the keyword table
// ---------------------------------------------------------------------------

export const KEYWORD_COLUMNS = ['intent', 'cpc', 'competition', 'trend', 'features', 'position'] as const
export type KeywordColumn = (typeof KEYWORD_COLUMNS)[number]
export const KEYWORD_COLUMN_LABELS: Record<KeywordColumn, string> = {
  intent: 'Intent',
  cpc: 'CPC',
  competition: 'Competition',
  trend: 'Trend',
  features: 'SERP features',
  position: 'Position',
}
/** Shown until the user chooses (users.keyword_columns is null). */
export const DEFAULT_KEYWORD_COLUMNS: readonly KeywordColumn[] = ['intent', 'cpc', 'trend']

export function isKeywordColumn(v: unknown): v is KeywordColumn {
  return typeof v === 'string' && (KEYWORD_COLUMNS as readonly string[]).includes(v)
}

/** The columns a user shows, from users.keyword_columns: known ids in the table's order; null means the defaults. */
export function shownColumns(stored: readonly string[] | null | undefined): KeywordColumn[] {
  if (!stored) return [...DEFAULT_KEYWORD_COLUMNS]
  const set = new Set(stored)
  return KEYWORD_COLUMNS.filter((c) => set.has(c))
}

/**
 * The Columns form: `columns` checked (none checked is a valid choice: only the spec's five columns). Unknown ids are
 * refused.
 */
export const keywordColumnsSchema = z.object({
  columns: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]),
    z.array(z.enum(KEYWORD_COLUMNS, { message: `One of: ${KEYWORD_COLUMNS.join(', ')}.` })).max(KEYWORD_COLUMNS.length),
  ),
})

// ---------------------------------------------------------------------------
// The table's cells, computed once on the server for the columns shown
// ---------------------------------------------------------------------------

export type MetricRow = {
  source: KeywordSource
  intent: KeywordIntent | null
  intentSource: KeywordSource | null
  cpc: number | null
  cpcCurrency: string | null
  competition: number | null
  competitionLevel: CompetitionLevel | null
  monthlySearches: MonthlySearches | null
  serpFeatures: SerpFeature[] | null
  rankedPosition: number | null
  rankedUrl: string | null
  competitorDomain: string | null
  competitorPosition: number | null
  competitorUrl: string | null
}

/**
 * What each optional cell shows, for the shown columns only (a hidden column costs neither bytes nor markup): text,
 * its tooltip (what it means and its source) and whether the model estimated it. null: not known.
 */
export type MetricCells = {
  intent?: { label: string; title: string; estimate: boolean } | null
  cpc?: { text: string; title: string } | null
  competition?: { text: string; title: string } | null
  trend?: { points: string; summary: string; title: string } | null
  features?: { labels: string[]; title: string } | null
  position?: { text: string; url: string | null; title: string } | null
}

const NO_METRICS: Omit<ShownMetrics, 'source'> & Omit<MetricRow, 'source' | 'monthlySearches'> = {
  intent: null,
  intentSource: null,
  cpc: null,
  cpcCurrency: null,
  competition: null,
  competitionLevel: null,
  monthlySearches: null,
  serpFeatures: null,
  rankedPosition: null,
  rankedUrl: null,
  competitorDomain: null,
  competitorPosition: null,
  competitorUrl: null,
}

/** The fields each optional column reads. */
const COLUMN_FIELDS: Record<KeywordColumn, ReadonlyArray<keyof MetricRow>> = {
  intent: ['intent', 'intentSource'],
  cpc: ['cpc', 'cpcCurrency'],
  competition: ['competition', 'competitionLevel'],
  trend: ['monthlySearches'],
  features: ['serpFeatures'],
  position: ['rankedPosition', 'rankedUrl', 'competitorDomain', 'competitorPosition', 'competitorUrl'],
}

/**
 * What a row sends to the page: its source and the raw fields of the shown columns only (the page computes cells);
 * the trend as its monthly counts alone.
 */
export type ShownMetrics = Partial<Omit<MetricRow, 'monthlySearches'>> &
  Pick<MetricRow, 'source'> & { monthlySearches?: number[] | MonthlySearches | null }

export function pickMetrics(row: MetricRow, columns: readonly KeywordColumn[]): ShownMetrics {
  const out: Record<string, unknown> = { source: row.source }
  for (const column of columns) for (const field of COLUMN_FIELDS[column]) out[field] = row[field]
  if ('monthlySearches' in out) out.monthlySearches = row.monthlySearches ? searchesOf(row.monthlySearches) : null
  return out as ShownMetrics
}

/**
 * The cells of the shown columns, computed where the page renders (from `pickMetrics`' raw fields, so the loader data
 * carries numbers, not sentences). Each title names the value's source; the column's header says what it means.
 */
export function metricCells(shown: ShownMetrics | MetricRow, columns: readonly KeywordColumn[]): MetricCells {
  const row = { ...NO_METRICS, ...shown }
  const cells: MetricCells = {}
  const source = sourceNote(row.source)
  for (const column of columns) {
    if (column === 'intent') {
      const from = row.intentSource ?? row.source
      cells.intent = row.intent
        ? { label: INTENT_LABELS[row.intent], title: sourceNote(from), estimate: from === 'ai_estimate' }
        : null
    } else if (column === 'cpc') {
      cells.cpc =
        row.cpc === null
          ? null
          : {
              text: formatCpc(row.cpc, row.cpcCurrency),
              title: row.cpcCurrency ? source : `In the Google Ads account's currency. ${source}`,
            }
    } else if (column === 'competition') {
      const text = competitionLabel(row.competitionLevel, row.competition)
      cells.competition =
        text === 'N/A'
          ? null
          : {
              text,
              title: `${row.competition === null ? '' : `${Math.round(row.competition * 100)}/100. `}${source}`,
            }
    } else if (column === 'trend') {
      const summary = trendSummary(row.monthlySearches)
      cells.trend = summary
        ? { points: sparklinePoints(row.monthlySearches), summary: `Searches ${summary}`, title: source }
        : null
    } else if (column === 'features') {
      cells.features = row.serpFeatures
        ? { labels: row.serpFeatures.map((f) => SERP_FEATURE_LABELS[f]), title: source }
        : null
    } else if (column === 'position') {
      const text = positionText(row)
      const url = row.rankedPosition !== null ? row.rankedUrl : row.competitorUrl
      cells.position = text ? { text, url, title: url ?? 'Source: DataForSEO (a domain lookup)' } : null
    }
  }
  return cells
}
