import { Link } from '@remix-run/react'
import { BIG_SITE_STRENGTH, type SerpResultKind } from '../serp-summary'
import { SERP_FEATURE_NAMES, SERP_VIEW_MESSAGES, type SerpPagePayload, type SerpViewRow } from '../serp-view'

/**
 * Issue 36: a keyword's top 10 as the results page (/keywords/:id/serp) and its dialog on /keywords show it: who
 * ranks in plain words and what that means, the SERP features, then one row per result (rank, title, address,
 * domain, strength, words, age). On phones the table is stacked rows, as the keyword table is. Google's titles and
 * addresses are data: rendered as text, links only to http(s) addresses, never followed for ranking (nofollow) and
 * opened without access to this page (noopener noreferrer).
 */
const KIND_LABELS: Record<SerpResultKind, string> = {
  big: 'Big site',
  forum: 'Forum',
  video: 'Video',
  small: 'Smaller site',
  unknown: 'Strength unknown',
}
const KIND_STYLES: Record<SerpResultKind, string> = {
  big: 'bg-rose-100 text-rose-800',
  forum: 'bg-emerald-100 text-emerald-800',
  video: 'bg-sky-100 text-sky-800',
  small: 'bg-emerald-50 text-emerald-800',
  unknown: 'bg-slate-100 text-slate-700',
}
const thousands = new Intl.NumberFormat('en-US')
const td = 'stacked-td'
const th = 'stacked-th'

/** The address as shown: without the scheme and "www.", shortened. */
function shownUrl(url: string) {
  const bare = url.replace(/^https?:\/\/(www\.)?/, '').replace(/\/$/, '')
  return bare.length > 70 ? `${bare.slice(0, 67)}…` : bare
}

function Unknown({ what }: { what: string }) {
  return (
    <span className="text-slate-500">
      <span aria-hidden="true">—</span>
      <span className="sr-only">{what}</span>
    </span>
  )
}

function Row({ row }: { row: SerpViewRow }) {
  return (
    <tr className="stacked-tr" data-serp-row={row.rank}>
      <td className={`${td} font-semibold tabular-nums text-slate-900 max-sm:order-1`} data-label="Rank">
        {row.rank}
      </td>
      <td className={`${td} max-sm:order-2 max-sm:col-span-2`} data-label="Result">
        <span className="block font-medium text-slate-900" data-serp-title>
          {row.title}
        </span>
        <a
          href={row.url}
          target="_blank"
          rel="nofollow noopener noreferrer"
          className="break-all text-xs text-brand-700 underline-offset-2 hover:underline"
        >
          {shownUrl(row.url)}
        </a>
      </td>
      <td className={`${td} break-all text-slate-700 max-sm:order-3`} data-label="Domain">
        {row.domain}
      </td>
      <td className={`${td} whitespace-nowrap max-sm:order-4`} data-label="Strength">
        {row.strength === null ? (
          <Unknown what="unavailable" />
        ) : (
          <span className="tabular-nums text-slate-900">{thousands.format(row.strength)}</span>
        )}
        <span className={`ml-2 rounded px-1.5 py-0.5 text-[11px] font-semibold ${KIND_STYLES[row.kind]}`}>
          {KIND_LABELS[row.kind]}
        </span>
      </td>
      <td className={`${td} whitespace-nowrap tabular-nums max-sm:order-5`} data-label="Words">
        {row.words === null ? <Unknown what="not known" /> : thousands.format(row.words)}
      </td>
      <td className={`${td} whitespace-nowrap text-slate-700 max-sm:order-6`} data-label="Age">
        {row.age ?? <Unknown what="not known" />}
      </td>
    </tr>
  )
}

export function SerpResults({ payload }: { payload: SerpPagePayload }) {
  const { view } = payload
  if (!view)
    return (
      <div role="alert" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-slate-800" data-serp-message>
        <p>{payload.message}</p>
        {payload.upgrade ? (
          <p className="mt-3">
            <Link to="/profile" className="btn-primary">
              Upgrade Now
            </Link>
          </p>
        ) : null}
      </div>
    )
  const features = view.features.map((f) => f.label)
  const missing = Object.entries(SERP_FEATURE_NAMES)
    .filter(([id]) => !view.features.some((f) => f.id === id))
    .map(([, label]) => label)
  return (
    <div className="space-y-4" data-serp-view>
      <div className="space-y-2">
        {view.rows.length ? (
          <p className="text-slate-900" data-serp-summary>
            <span className="font-semibold">Who ranks:</span> {view.summary.text}.
          </p>
        ) : null}
        <p className="text-slate-700" data-serp-hint>
          {view.summary.hint}
        </p>
        <p className="text-sm text-slate-600" data-serp-features>
          {features.length
            ? `Also on this results page: ${features.join(', ')}.`
            : `No ${missing.join(', ')} on this results page.`}
        </p>
        {view.strengthAvailable ? null : (
          <p className="text-sm text-amber-800" data-serp-strength-unavailable>
            {SERP_VIEW_MESSAGES.strengthUnavailable}
          </p>
        )}
      </div>
      {view.rows.length ? (
        <table className="min-w-full divide-y divide-slate-200 text-sm max-sm:block">
          <caption className="sr-only">{`Google’s top ${view.rows.length} for ${view.keyword.keyword}`}</caption>
          <thead className="bg-slate-50 max-sm:sr-only">
            <tr>
              <th scope="col" className={th}>
                Rank
              </th>
              <th scope="col" className={th}>
                Result
              </th>
              <th scope="col" className={th}>
                Domain
              </th>
              <th scope="col" className={th}>
                Strength
              </th>
              <th scope="col" className={th}>
                Words
              </th>
              <th scope="col" className={th}>
                Age
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 max-sm:block">
            {view.rows.map((row) => (
              <Row key={`${row.rank}-${row.url}`} row={row} />
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="text-xs text-slate-500">
        {`Strength runs from 0 to 1,000, from the links other sites give a domain; ${thousands.format(BIG_SITE_STRENGTH)} and above counts as a big site. Words are shown for the pages read when a post was researched for this keyword. Opening a keyword’s top 10 counts as one keyword search, once a day.`}
      </p>
    </div>
  )
}
