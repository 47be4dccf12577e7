import type { ReactNode } from 'react'
import { ScrollRegion } from '#app/ui/scroll-region'

/**
 * A table of rows with a header row; `empty` (when given) stands alone in the body instead of the rows.
 * `gap` is the right padding of every column but the last.
 *
 * Below the `sm` breakpoint the rows stack: each row becomes a two-column grid of its cells, each cell labelled by
 * its `data-label` (the column's name) and a cell with `data-wide` taking the full width, so that no column (and no
 * action button) needs a sideways swipe. The header row stays for screen readers only.
 */
export function DataTable({
  label,
  columns,
  gap,
  empty,
  className,
  testId,
  children,
}: {
  /** The name of the table's scrollable region (what a screen reader announces when it gets the focus). */
  label: string
  columns: ReactNode[]
  gap: 'pr-3' | 'pr-4'
  empty: ReactNode
  className: string
  testId?: string
  children: ReactNode
}) {
  return (
    <ScrollRegion label={label} className={`${className} sm:overflow-x-auto`}>
      <table className="w-full text-left text-sm max-sm:block" data-testid={testId}>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600 max-sm:sr-only">
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col" className={i < columns.length - 1 ? `py-2 ${gap}` : 'py-2'}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={STACKED}>
          {empty ? (
            <tr>
              <td colSpan={columns.length} className="py-6 text-center text-slate-600" data-wide>
                {empty}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </ScrollRegion>
  )
}

const STACKED = [
  'max-sm:block',
  'max-sm:[&>tr]:grid max-sm:[&>tr]:grid-cols-2 max-sm:[&>tr]:gap-x-4 max-sm:[&>tr]:gap-y-2 max-sm:[&>tr]:py-3',
  'max-sm:[&>tr>td]:block max-sm:[&>tr>td]:whitespace-normal max-sm:[&>tr>td]:min-w-0 max-sm:[&>tr>td]:max-w-none max-sm:[&>tr>td]:p-0',
  'max-sm:[&>tr>td[data-wide]]:col-span-2 max-sm:[&>tr>td:empty]:hidden',
  'max-sm:[&>tr>td]:before:block max-sm:[&>tr>td]:before:text-xs max-sm:[&>tr>td]:before:font-semibold',
  'max-sm:[&>tr>td]:before:uppercase max-sm:[&>tr>td]:before:tracking-wide max-sm:[&>tr>td]:before:text-slate-500',
  'max-sm:[&>tr>td]:before:content-[attr(data-label)]',
].join(' ')
