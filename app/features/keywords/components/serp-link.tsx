import { Link } from '@remix-run/react'

/**
 * Issue 36: a keyword row's link to its results page (Google's top 10 with each domain's strength), at
 * /keywords/:id/serp. A plain link, so it works without JavaScript.
 */
export function SerpLink({ id, keyword }: { id: string; keyword: string }) {
  return (
    <Link
      to={`/keywords/${id}/serp`}
      className="mt-1 inline-block text-xs font-medium text-brand-700 underline-offset-2 hover:underline"
      aria-label={`Top 10 results for ${keyword}`}
      data-serp-link
    >
      Top 10 results
    </Link>
  )
}
