import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { DEFAULT_ORDER, type KeywordSort, type SortOrder } from '#app/features/keywords/keyword-library'
import { formatTotal, withParams } from '#app/platform/lists/list-params'
import { difficultyBand } from '#app/features/keywords/difficulty'
import {
  COMPETITION_TOOLTIP,
  DIFFICULTY_TOOLTIP,
  ESTIMATE_TOOLTIP,
  formatSearchDate,
  formatVolume,
  KEYWORDS_PAGE_SIZE,
  VOLUME_TOOLTIP,
  type KeywordSource,
} from '#app/features/keywords/keywords'
import { InfoTip } from './info-tip'
import { ScrollRegion } from '#app/ui/scroll-region'
import { PostProgressBadge, type PostProgress } from '#app/ui/post-progress'
import { serpLink, useSerpDialog } from './serp-link'
import {
  KEYWORD_COLUMN_LABELS,
  SPARKLINE,
  metricCells,
  type KeywordColumn,
  type MetricCells,
  type ShownMetrics,
} from '#app/features/keywords/keyword-metrics'

export type KeywordRow = {
  id: string
  keyword: string
  avgMonthlySearches: number | null
  difficultyScore: number | null
  createdAt: string
  source: KeywordSource
  market: string
  /** Starred for rank tracking (issue 16). */
  tracked: boolean
  /** Issue 35: where the keyword's newest post stands; null when the keyword has no post. */
  post: PostProgress | null
  /** Issue 36: the raw fields of the shown optional columns (pickMetrics); cells are computed here (metricCells). */
  metrics: ShownMetrics
}

/** What each optional column's header tooltip says. */
const COLUMN_TOOLTIPS: Record<KeywordColumn, string> = {
  intent:
    'Why people search it: Informational (researching), Commercial (comparing options), Transactional (ready to buy), Navigational (looking for a site). Hover or focus a value for its source; “Estimate” marks the AI model’s.',
  cpc: 'Cost per click: what advertisers pay for a click on this keyword, a sign of its commercial value. Hover a value for its source.',
  competition: 'How many advertisers compete for this keyword (Low, Medium, High). Hover a value for its source.',
  trend: 'Monthly searches over the last 12 months. Hover a line for its summary and source.',
  features: 'What Google shows besides the ten links: AI Overview, People also ask, Video, Local pack.',
  position: 'Where your domain ranks for it (from Your domain), or a competitor that ranks where you do not.',
}

const NA = <span className="text-slate-500">N/A</span>

/**
 * One optional cell: plain markup, no component or hook per row (issue 39: the page renders up to 1,000 rows). Each
 * value says its meaning and source in its title (hover); the model's values carry a visible 'Estimate'.
 */
function optionalCell(column: KeywordColumn, c: MetricCells) {
  const label = KEYWORD_COLUMN_LABELS[column]
  let body
  if (column === 'intent') {
    const v = c.intent
    body = v ? (
      <span title={v.title} className="whitespace-nowrap" data-intent>
        {v.label}
        {v.estimate ? (
          <span className="ml-1 rounded bg-violet-100 px-1 text-[11px] font-semibold text-violet-800" data-estimate>
            Estimate
          </span>
        ) : null}
      </span>
    ) : (
      NA
    )
  } else if (column === 'cpc') {
    body = c.cpc ? <span title={c.cpc.title}>{c.cpc.text}</span> : NA
  } else if (column === 'competition') {
    body = c.competition ? <span title={c.competition.title}>{c.competition.text}</span> : NA
  } else if (column === 'trend') {
    const v = c.trend
    body = v ? (
      <svg
        role="img"
        aria-label={v.summary}
        width={SPARKLINE.width}
        height={SPARKLINE.height}
        viewBox={`0 0 ${SPARKLINE.width} ${SPARKLINE.height}`}
        className="text-sky-700"
        data-sparkline
      >
        <title>{v.title}</title>
        <polyline points={v.points} fill="none" stroke="currentColor" strokeWidth="1.5" />
      </svg>
    ) : (
      NA
    )
  } else if (column === 'features') {
    const v = c.features
    body = v ? (
      v.labels.length ? (
        <span title={v.title} className="inline-flex flex-wrap gap-1">
          {v.labels.map((f) => (
            <span key={f} className="metric-badge">
              {f}
            </span>
          ))}
        </span>
      ) : (
        <span title={v.title} className="text-slate-500">
          None
        </span>
      )
    ) : (
      NA
    )
  } else {
    body = c.position ? <span title={c.position.title}>{c.position.text}</span> : NA
  }
  return (
    <td key={column} className={`${td} metric-td`} data-label={label} data-column={column}>
      {body}
    </td>
  )
}

/** The shown optional cells of a row, computed once per row. */
function optionalCells(columns: readonly KeywordColumn[], metrics: ShownMetrics) {
  if (columns.length === 0) return null
  const cells = metricCells(metrics, columns)
  return columns.map((column) => optionalCell(column, cells))
}

// Below the `sm` breakpoint the table is restyled as stacked rows (one card per keyword, every cell labelled by its
// data-label), so that Difficulty and Create Post are on screen without a sideways swipe; the header row turns into a
// wrapped row of sort links. Same markup at every width: one table, one set of controls. The classes are in
// app/tailwind.css (issue 21: the same utilities on every cell of 50 rows were a third of the page).
const th = 'stacked-th'
const td = 'stacked-td'
const thousands = new Intl.NumberFormat('en-US')

function Difficulty({ score, source }: { score: number | null; source: KeywordSource }) {
  const band = difficultyBand(score)
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span
        className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${band.className}`}
        data-difficulty={band.tone}
      >
        {band.label}
      </span>
      {score !== null ? <span className="tabular-nums text-slate-600">{score}</span> : null}
      {source === 'google_ads' ? (
        <InfoTip text={COMPETITION_TOOLTIP}>
          <span className="rounded bg-sky-100 px-1.5 py-0.5 text-[11px] font-semibold text-sky-800">
            Ads competition
          </span>
        </InfoTip>
      ) : null}
    </span>
  )
}

/** The form the row checkboxes and the bulk buttons belong to (the rows hold their own 'Create Post' forms). */
export const BULK_FORM_ID = 'keyword-bulk'

/** A column header that sorts by its column: the first click in its natural direction, the next one reversed. */
function SortHeader({
  column,
  label,
  list,
  children,
}: {
  column: KeywordSort
  label: string
  list: KeywordList
  children?: ReactNode
}) {
  const active = list.sort === column
  const order: SortOrder = active ? (list.order === 'asc' ? 'desc' : 'asc') : DEFAULT_ORDER[column]
  const href = withParams('/keywords', new URLSearchParams(list.search), {
    sort: column === 'date' && order === 'desc' ? null : column,
    order: column === 'date' && order === 'desc' ? null : order,
    show: null,
  })
  return (
    <th scope="col" className={th} aria-sort={active ? (list.order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <span className="inline-flex items-center gap-1">
        <Link to={href} preventScrollReset replace className="hover:text-slate-900" title={`Sort by ${label}`}>
          {label}
          {active ? <span aria-hidden="true">{list.order === 'asc' ? ' ▲' : ' ▼'}</span> : null}
        </Link>
        {children}
      </span>
    </th>
  )
}

/** The list's state from the URL: the query string (filters and sort) and the sort in effect. */
export type KeywordList = { search: string; sort: KeywordSort; order: SortOrder; filtered: boolean }

/**
 * The saved keywords: Search Date, Keyword, Volume, Difficulty and an action per row ('Create Post', or for a keyword
 * that has a post, a link to it: issue 35); under the keyword, where its newest post stands (writing, ready for
 * review, scheduled, published where...). The column headers sort; in the Action column a checkbox selects the row
 * for the bulk actions, the star ('Track') tracks the keyword's ranking on /rankings, and 'Delete' deletes it.
 */
export function KeywordTable({
  rows,
  total,
  totalCapped,
  shown,
  loading,
  list,
  columns,
  controls,
  rowActions,
}: {
  rows: KeywordRow[]
  /**
   * Issue 36: the optional columns shown, after the spec's five (on a phone's stacked card, before the actions).
   */
  columns: readonly KeywordColumn[]
  /** Beside the heading: the Columns control. */
  controls?: ReactNode
  total: number
  /** The count stopped at its cap: there are more than `total`. */
  totalCapped: boolean
  shown: number
  loading: boolean
  list: KeywordList
  /**
   * The actions of other capabilities on a row, shown between its checkbox and 'Delete' (the page gives 'Create Post'
   * or the links to the keyword's post, and the tracking star); `returnTo` is where a form posted without JavaScript
   * comes back to.
   */
  rowActions: (row: KeywordRow, context: { returnTo: string }) => ReactNode
}) {
  // Where a star posted without JavaScript comes back to: the list as the user has it (search, filters, sort and
  // how many rows are shown), without one-off parameters such as a dialog or a prefilled search.
  const returnTo = withParams('/keywords', new URLSearchParams(list.search), {
    show: shown > KEYWORDS_PAGE_SIZE ? String(shown) : null,
  })
  // One results dialog, fetcher and click handler for the whole table; the rows' links are plain markup.
  const { onClick: onSerpClick, dialog: serpDialog } = useSerpDialog()
  return (
    <section aria-labelledby="saved-keywords-heading" className="card p-0">
      {serpDialog}
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
        <h2 id="saved-keywords-heading" className="text-base font-semibold text-slate-900">
          Your keywords
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          {loading ? (
            <p role="status" className="text-sm text-slate-600">
              Loading keywords...
            </p>
          ) : total > 0 ? (
            <p className="text-sm text-slate-600" data-testid="keyword-total">
              {list.filtered
                ? `${formatTotal(total, totalCapped)} matching`
                : `${formatTotal(total, totalCapped)} saved`}
            </p>
          ) : null}
          {controls}
        </div>
      </div>
      <ScrollRegion label="Saved keywords table" className="sm:overflow-x-auto">
        <table
          onClick={onSerpClick}
          className={`min-w-full divide-y divide-slate-200 text-sm max-sm:block ${loading ? 'opacity-60' : ''}`}
          aria-busy={loading || undefined}
        >
          <thead className="bg-slate-50 max-sm:block">
            <tr className="max-sm:flex max-sm:flex-wrap max-sm:gap-x-2 max-sm:px-2 max-sm:py-1">
              <SortHeader column="date" label="Search Date" list={list} />
              <SortHeader column="keyword" label="Keyword" list={list} />
              <SortHeader column="volume" label="Volume" list={list}>
                <InfoTip label="About Volume" text={VOLUME_TOOLTIP} />
              </SortHeader>
              <SortHeader column="difficulty" label="Difficulty" list={list}>
                <InfoTip label="About Difficulty" text={DIFFICULTY_TOOLTIP} />
              </SortHeader>
              <th scope="col" className={`${th} max-sm:sr-only`}>
                Action
              </th>
              {columns.map((column) => (
                <th key={column} scope="col" className={th} data-column={column}>
                  <span className="inline-flex items-center gap-1">
                    {KEYWORD_COLUMN_LABELS[column]}
                    <InfoTip label={`About ${KEYWORD_COLUMN_LABELS[column]}`} text={COLUMN_TOOLTIPS[column]} />
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 max-sm:block">
            {rows.length === 0 ? (
              <tr className="max-sm:block">
                <td colSpan={5 + columns.length} className="px-4 py-10 text-center text-slate-600 max-sm:block">
                  {loading
                    ? 'Loading keywords...'
                    : list.filtered
                      ? 'No saved keywords match your search.'
                      : 'No keywords yet. Search for a keyword or topic to see ideas with their volume and difficulty.'}
                </td>
              </tr>
            ) : (
              rows.map((k) => (
                <tr key={k.id} data-keyword={k.keyword} className="stacked-tr">
                  <td className={`${td} whitespace-nowrap text-slate-600 max-sm:order-4`} data-label="Search Date">
                    {formatSearchDate(k.createdAt)}
                  </td>
                  <td className={`${td} max-sm:order-1 max-sm:col-span-2 max-sm:before:hidden`} data-label="Keyword">
                    <span id={`keyword-${k.id}`} className="font-medium text-slate-900">
                      {k.keyword}
                    </span>
                    {k.source === 'ai_estimate' ? (
                      <InfoTip text={ESTIMATE_TOOLTIP} className="ml-2">
                        <span
                          className="rounded bg-violet-100 px-1.5 py-0.5 text-[11px] font-semibold text-violet-800"
                          data-estimate
                        >
                          Estimate
                        </span>
                      </InfoTip>
                    ) : null}
                    {k.market ? <span className="block text-xs text-slate-500">{k.market}</span> : null}
                    {serpLink(k.id, k.keyword)}
                    {k.post ? (
                      <span className="mt-1 block">
                        <PostProgressBadge progress={k.post} />
                      </span>
                    ) : null}
                  </td>
                  <td className={`${td} whitespace-nowrap tabular-nums max-sm:order-2`} data-label="Volume">
                    {formatVolume(k.avgMonthlySearches)}
                  </td>
                  <td className={`${td} max-sm:order-3`} data-label="Difficulty">
                    <Difficulty score={k.difficultyScore} source={k.source} />
                  </td>
                  <td className={`${td} max-sm:order-5 max-sm:col-span-2 max-sm:before:hidden`} data-label="Action">
                    <div className="inline-flex flex-wrap items-center gap-3">
                      <input
                        type="checkbox"
                        name="keywordId"
                        value={k.id}
                        form={BULK_FORM_ID}
                        aria-label={`Select ${k.keyword}`}
                        className="h-4 w-4 rounded border-slate-300"
                      />
                      {rowActions(k, { returnTo })}
                      <button
                        type="submit"
                        form={BULK_FORM_ID}
                        name="intent"
                        value={`delete:${k.id}`}
                        className="text-xs font-semibold text-red-700 hover:text-red-800"
                        title={`Delete “${k.keyword}”`}
                      >
                        Delete
                      </button>
                    </div>
                  </td>
                  {optionalCells(columns, k.metrics)}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </ScrollRegion>
      {total > rows.length || totalCapped ? (
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3">
          <p className="text-sm text-slate-600">{`Showing ${thousands.format(rows.length)} of ${formatTotal(total, totalCapped)} keywords`}</p>
          <Link
            to={withParams('/keywords', new URLSearchParams(list.search), { show: String(shown + KEYWORDS_PAGE_SIZE) })}
            preventScrollReset
            replace
            className="btn-secondary"
          >
            Show more
          </Link>
        </div>
      ) : null}
    </section>
  )
}
