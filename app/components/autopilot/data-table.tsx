import type { ReactNode } from 'react'

/**
 * A table of rows with a header row; `empty` (when given) stands alone in the body instead of the rows.
 * `gap` is the right padding of every column but the last.
 */
export function DataTable({
  columns,
  gap,
  empty,
  className,
  testId,
  children,
}: {
  columns: ReactNode[]
  gap: 'pr-3' | 'pr-4'
  empty: ReactNode
  className: string
  testId?: string
  children: ReactNode
}) {
  return (
    <div className={`${className} overflow-x-auto`}>
      <table className="w-full text-left text-sm" data-testid={testId}>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600">
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col" className={i < columns.length - 1 ? `py-2 ${gap}` : 'py-2'}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {empty ? (
            <tr>
              <td colSpan={columns.length} className="py-6 text-center text-slate-600">
                {empty}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  )
}
