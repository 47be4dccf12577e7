import { Link } from '@remix-run/react'

export type BusinessDetailsData = {
  website: string
  marketSegment: string
  productService: string
  country: string
  language: string
}

/** The business details Auto Pilot writes from (edited in the profile). */
export function BusinessDetails({ business }: { business: BusinessDetailsData }) {
  return (
    <section className="card" aria-labelledby="business-heading">
      <div className="flex items-start justify-between gap-4">
        <h2 id="business-heading" className="text-lg font-semibold text-slate-900">
          Business Details
        </h2>
        <Link to="/profile" className="text-sm font-semibold text-brand-700 hover:underline">
          Edit in profile
        </Link>
      </div>
      <dl className="mt-4 grid gap-3 text-sm">
        {(
          [
            ['Website', business.website],
            ['Ideal Customer', business.marketSegment],
            ['Product/Service', business.productService],
            ['Country', business.country],
            ['Language', business.language],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="grid gap-0.5 sm:grid-cols-3 sm:gap-2">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd className="min-w-0 text-slate-900 [overflow-wrap:anywhere] sm:col-span-2">
              {value || <span className="text-slate-500">Not set</span>}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
