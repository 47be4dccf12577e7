import { Link } from '@remix-run/react'

/** The way back above a page's heading: '← Blog Posts', '← Back to the post'. */
export function BackLink({ to, children }: { to: string; children: string }) {
  return (
    <p className="text-sm">
      <Link to={to} className="text-brand-700 hover:text-brand-800">
        ← {children}
      </Link>
    </p>
  )
}
