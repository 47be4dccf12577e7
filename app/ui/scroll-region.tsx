import type { ReactNode } from 'react'

/**
 * A region that may scroll sideways (a wide table): focusable (tabIndex 0) so that keyboard users can scroll it with
 * the arrow keys, and named (a <section> named by `label`: a region landmark) so that a screen reader says what got the focus.
 * `className` gives the overflow (e.g. 'overflow-x-auto', or 'sm:overflow-x-auto' when narrower screens stack the
 * table instead).
 */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  label: string
  className: string
  children: ReactNode
}) {
  return (
    <section aria-label={label} tabIndex={0} className={className}>
      {children}
    </section>
  )
}
