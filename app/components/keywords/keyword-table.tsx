import { Link } from '@remix-run/react'
import { CreatePostButton, usePageKey } from '#app/components/create-post-button'
import {
  COMPETITION_TOOLTIP,
  difficultyBand,
  DIFFICULTY_TOOLTIP,
  ESTIMATE_TOOLTIP,
  formatSearchDate,
  formatVolume,
  KEYWORDS_PAGE_SIZE,
  VOLUME_TOOLTIP,
  type KeywordSource,
} from '#app/lib/keywords'
import { InfoTip } from './info-tip'

export type KeywordRow = {
  id: string
  keyword: string
  avgMonthlySearches: number | null
  difficultyScore: number | null
  createdAt: string
  source: KeywordSource
  market: string
}

const th = 'px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-600'
const td = 'px-4 py-3 align-middle'
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

/** The saved keywords: Search Date, Keyword, Volume, Difficulty and a 'Create Post' action per row. */
export function KeywordTable({
  rows,
  total,
  shown,
  loading,
}: {
  rows: KeywordRow[]
  total: number
  shown: number
  loading: boolean
}) {
  const pageKey = usePageKey()
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
          <p className="text-sm text-slate-600">{`${thousands.format(total)} saved`}</p>
        ) : null}
      </div>
      <div className="overflow-x-auto">
        <table
          className={`min-w-full divide-y divide-slate-200 text-sm ${loading ? 'opacity-60' : ''}`}
          aria-busy={loading || undefined}
        >
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={th}>
                Search Date
              </th>
              <th scope="col" className={th}>
                Keyword
              </th>
              <th scope="col" className={th}>
                <span className="inline-flex items-center gap-1">
                  Volume <InfoTip label="About Volume" text={VOLUME_TOOLTIP} />
                </span>
              </th>
              <th scope="col" className={th}>
                <span className="inline-flex items-center gap-1">
                  Difficulty <InfoTip label="About Difficulty" text={DIFFICULTY_TOOLTIP} />
                </span>
              </th>
              <th scope="col" className={th}>
                Action
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={5} className="px-4 py-10 text-center text-slate-600">
                  {loading
                    ? 'Loading keywords...'
                    : 'No keywords yet. Search for a keyword or topic to see ideas with their volume and difficulty.'}
                </td>
              </tr>
            ) : (
              rows.map((k) => (
                <tr key={k.id} data-keyword={k.keyword}>
                  <td className={`${td} whitespace-nowrap text-slate-600`}>{formatSearchDate(k.createdAt)}</td>
                  <td className={td}>
                    <span className="font-medium text-slate-900">{k.keyword}</span>
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
                  </td>
                  <td className={`${td} whitespace-nowrap tabular-nums`}>{formatVolume(k.avgMonthlySearches)}</td>
                  <td className={td}>
                    <Difficulty score={k.difficultyScore} source={k.source} />
                  </td>
                  <td className={td}>
                    <CreatePostButton keywordId={k.id} pageKey={pageKey} />
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {total > rows.length ? (
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3">
          <p className="text-sm text-slate-600">{`Showing ${thousands.format(rows.length)} of ${thousands.format(total)} keywords`}</p>
          <Link
            to={`/keywords?show=${shown + KEYWORDS_PAGE_SIZE}`}
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
