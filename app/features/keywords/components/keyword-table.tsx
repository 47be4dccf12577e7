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
import { SerpLink } from './serp-link'

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
  rowActions,
}: {
  rows: KeywordRow[]
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
  return (
    <section aria-labelledby="saved-keywords-heading" className="card p-0">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
        <h2 id="saved-keywords-heading" className="text-base font-semibold text-slate-900">
          Your keywords
        </h2>
        {loading ? (
          <p role="status" className="text-sm text-slate-600">
            Loading keywords...
          </p>
        ) : total > 0 ? (
          <p className="text-sm text-slate-600" data-testid="keyword-total">
            {list.filtered ? `${formatTotal(total, totalCapped)} matching` : `${formatTotal(total, totalCapped)} saved`}
          </p>
        ) : null}
      </div>
      <ScrollRegion label="Saved keywords table" className="sm:overflow-x-auto">
        <table
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
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 max-sm:block">
            {rows.length === 0 ? (
              <tr className="max-sm:block">
                <td colSpan={5} className="px-4 py-10 text-center text-slate-600 max-sm:block">
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
                    <SerpLink id={k.id} keyword={k.keyword} />
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
