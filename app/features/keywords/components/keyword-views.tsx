import { NavLink } from '@remix-run/react'

/**
 * Issue 36: the views of keyword research, above each of them: the saved ideas (/keywords), the ideas grouped by
 * topic (/keywords/clusters) and where the user's domain already stands, with a competitor's gap (/keywords/domain).
 */
const VIEWS = [
  { to: '/keywords', label: 'Ideas', end: true },
  { to: '/keywords/clusters', label: 'Clusters', end: false },
  { to: '/keywords/domain', label: 'Your domain', end: false },
] as const

export function KeywordViews() {
  return (
    <nav aria-label="Keyword research views" className="mb-4 flex flex-wrap gap-2 border-b border-slate-200">
      {VIEWS.map((v) => (
        <NavLink
          key={v.to}
          to={v.to}
          end={v.end}
          prefetch="intent"
          className={({ isActive }) =>
            `-mb-px border-b-2 px-3 py-2 text-sm font-medium ${
              isActive
                ? 'border-brand-600 text-brand-800'
                : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'
            }`
          }
        >
          {v.label}
        </NavLink>
      ))}
    </nav>
  )
}
