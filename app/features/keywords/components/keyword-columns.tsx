import { useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import { KEYWORD_COLUMN_LABELS, KEYWORD_COLUMNS, type KeywordColumn } from '#app/features/keywords/keyword-metrics'
import { clientFailureOf } from '#app/ui/client-failure'
import { useHydrated } from '#app/ui/use-hydrated'
import { showToast } from '#app/ui/toaster'

export const COLUMNS_INTENT = 'columns'
export const COLUMNS_SAVE_FAILED = 'Your columns could not be saved. Please try again.'

/**
 * The "Columns" control of /keywords (issue 36): which optional columns the table shows. Without JavaScript a plain
 * form (checkboxes and Save) posted to the page's action, which stores the choice and redirects back. With JavaScript
 * the same form through a fetcher: a checkbox applies at once (the table follows `pendingColumns` while the request
 * runs) and the choice is saved in the background.
 */
export function KeywordColumnsControl({
  columns,
  redirectTo,
  fetcher,
}: {
  columns: readonly KeywordColumn[]
  redirectTo: string
  fetcher: ReturnType<typeof useColumnsFetcher>
}) {
  const hydrated = useHydrated()
  const failure = clientFailureOf(fetcher.data)
  useEffect(() => {
    if (failure) showToast({ type: 'error', message: COLUMNS_SAVE_FAILED })
  }, [failure])
  return (
    <details className="group relative" data-testid="keyword-columns">
      <summary className="btn-secondary cursor-pointer list-none text-sm">Columns</summary>
      <fetcher.Form
        method="post"
        action="/keywords"
        className="absolute right-0 z-30 mt-2 w-64 rounded-lg border border-slate-200 bg-white p-3 shadow-lg"
        onChange={(event) => {
          if (hydrated) fetcher.submit(event.currentTarget, { method: 'post', action: '/keywords' })
        }}
      >
        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-slate-900">Show columns</legend>
          <input type="hidden" name="intent" value={COLUMNS_INTENT} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          {hydrated ? <input type="hidden" name="respond" value="json" /> : null}
          {KEYWORD_COLUMNS.map((column) => (
            <label key={column} className="flex items-center gap-2 py-1 text-sm text-slate-700">
              <input
                type="checkbox"
                name="columns"
                value={column}
                defaultChecked={columns.includes(column)}
                className="h-4 w-4 rounded border-slate-300"
              />
              {KEYWORD_COLUMN_LABELS[column]}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn-primary mt-2 w-full text-sm">
          Save
        </button>
      </fetcher.Form>
    </details>
  )
}

export function useColumnsFetcher() {
  return useFetcher<{ ok: boolean }>({ key: 'keyword-columns' })
}

/**
 * The columns the table shows: the saved ones, less those being hidden right now (at once, while the choice is saved);
 * a column being shown appears with the page's fresh data (the loader reads only the shown columns' values).
 */
export function visibleColumns(
  saved: readonly KeywordColumn[],
  fetcher: ReturnType<typeof useColumnsFetcher>,
): readonly KeywordColumn[] {
  const form = fetcher.formData
  if (!form || form.get('intent') !== COLUMNS_INTENT) return saved
  const chosen = new Set(form.getAll('columns').map(String))
  return saved.filter((c) => chosen.has(c))
}
