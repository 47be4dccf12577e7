/**
 * What /rankings/ai sends to the browser (pure; issue 37, decision 0371): only what the page shows. The API keeps
 * the full figures (`toApiSubject`); the page gets, per engine, the latest week's full rates, the change of the
 * measure it charts, a compact trend (that measure per week: rate, low, high in whole percent; null for a week without
 * answers) and a few cited pages and competitors with a count of the rest.
 */
import type { AiEngine } from './visibility'
import type { Change, Rate } from './wilson'
import type { EngineView, SubjectView, WeekFigures } from './read.server'

/** Cited pages and competitors listed per engine on the page; the rest are counted ('and 4 more'). */
export const PAGE_LIST_SIZE = 3

/**
 * One week of the charted rate: [rate, low, high] in whole percent, rounded as the page's words round them (so the
 * chart's description says what the text says), or null without answers (a gap).
 */
export type TrendPoint = [number, number, number] | null

export type PageEngine = {
  engine: AiEngine
  label: string
  latest: WeekFigures
  /** The charted measure's change from the week before (cited for keywords, mentioned for prompts). */
  change: Change
  /** One point per week of the overview's `weeks`, oldest first. */
  trend: TrendPoint[]
  citedPages: Array<{ url: string; count: number }>
  morePages: number
  competitors: Array<{ domain: string; count: number }>
  moreCompetitors: number
}

export type PageSubject = { kind: 'keyword' | 'prompt'; id: string; label: string; engines: PageEngine[] }

const percent = (v: number) => Math.round(v * 100)

function point(rate: Rate): TrendPoint {
  if (rate.total === 0 || rate.rate === null || rate.low === null || rate.high === null) return null
  return [percent(rate.rate), percent(rate.low), percent(rate.high)]
}

/** The measure a subject's trend charts: whether the site is cited (keywords) or the brand named (prompts). */
export const chartedMeasure = (kind: 'keyword' | 'prompt') => (kind === 'keyword' ? 'cited' : 'mentioned')

function pageEngine(kind: 'keyword' | 'prompt', view: EngineView): PageEngine {
  const measure = chartedMeasure(kind)
  return {
    engine: view.engine,
    label: view.label,
    latest: view.latest,
    change: view.change[measure],
    trend: view.history.map((w) => point(w[measure])),
    citedPages: view.citedPages.slice(0, PAGE_LIST_SIZE),
    morePages: Math.max(0, view.citedPageCount - PAGE_LIST_SIZE),
    competitors: view.competitors.slice(0, PAGE_LIST_SIZE),
    moreCompetitors: Math.max(0, view.competitorCount - PAGE_LIST_SIZE),
  }
}

export function toPageSubject(subject: SubjectView): PageSubject {
  return {
    kind: subject.kind,
    id: subject.id,
    label: subject.label,
    engines: subject.engines.map((e) => pageEngine(subject.kind, e)),
  }
}
