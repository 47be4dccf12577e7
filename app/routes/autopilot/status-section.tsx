import { Link } from '@remix-run/react'
import { DataTable } from '#app/features/autopilot/components/data-table'
import type { AutopilotStatusRow } from '#app/features/autopilot/settings/autopilot'
import { difficultyBand } from '#app/features/keywords/difficulty'
import { formatVolume } from '#app/features/keywords/keywords'

/** 'Auto Pilot Status': the keywords Auto Pilot chose, newest first, each with its post once written. */
export function StatusSection({ status }: { status: Array<AutopilotStatusRow & { postStatus: string | null }> }) {
  return (
    <section className="card mt-6" aria-labelledby="status-heading">
      <div className="flex items-center justify-between gap-4">
        <h2 id="status-heading" className="text-lg font-semibold text-slate-900">
          Auto Pilot Status
        </h2>
        <Link to="/autopilot" className="text-sm font-semibold text-brand-700 hover:underline" preventScrollReset>
          Refresh
        </Link>
      </div>
      <DataTable
        label="Auto Pilot status table"
        className="mt-4"
        gap="pr-4"
        columns={['Keyword', 'Searches/Month', 'Difficulty', 'Blog Post']}
        empty={status.length === 0 ? 'No keywords yet. Auto Pilot picks one at its next run.' : null}
      >
        {status.map((row, i) => {
          const band = difficultyBand(row.difficultyScore)
          return (
            <tr key={`${row.keyword}-${i}`} className="border-b border-slate-100" data-testid="status-row">
              <td className="py-3 pr-4 font-medium text-slate-900" data-label="Keyword" data-wide>
                {row.keyword}
              </td>
              <td className="py-3 pr-4 tabular-nums" data-label="Searches/Month">
                {formatVolume(row.avgMonthlySearches)}
              </td>
              <td className="py-3 pr-4" data-label="Difficulty">
                <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${band.className}`}>
                  {row.difficultyScore ?? ''} {band.label}
                </span>
              </td>
              <td className="py-3" data-label="Blog Post" data-wide>
                {row.blogPost._id ? (
                  <Link to={`/blogpost/${row.blogPost._id}`} className="font-semibold text-brand-700 hover:underline">
                    View Post
                  </Link>
                ) : row.postStatus === 'failed' ? (
                  <span className="text-red-700">Failed</span>
                ) : (
                  <span className="text-slate-600">Pending</span>
                )}
              </td>
            </tr>
          )
        })}
      </DataTable>
    </section>
  )
}
