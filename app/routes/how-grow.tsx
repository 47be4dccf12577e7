import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { GuideBody, GuideContents } from '#app/features/marketing/components/guide'
import { Icon } from '#app/features/marketing/components/icons'
import { seoMeta } from '#app/features/marketing/seo'
import { SEO_GUIDE } from '#app/features/marketing/seo-guide'
import { requireUser } from '#app/features/accounts/session.server'

export const meta: MetaFunction = ({ matches }) =>
  seoMeta({
    title: 'Learn SEO: The Founder’s Guide',
    description: SEO_GUIDE.subtitle,
    path: '/how-grow',
    matches,
    noindex: true,
  })

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request)
  return json(null, { headers: { 'Cache-Control': 'private, no-store' } })
}

export default function HowGrow() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <header className="rounded-3xl bg-gradient-to-br from-brand-600 to-brand-900 px-6 py-10 text-white sm:px-10">
        <p className="text-sm font-semibold uppercase tracking-widest text-brand-100">Learn SEO</p>
        <h1 className="mt-3 text-3xl font-extrabold tracking-tight sm:text-4xl">{SEO_GUIDE.title}</h1>
        <p className="mt-4 max-w-2xl text-lg text-brand-50">{SEO_GUIDE.subtitle}</p>
      </header>

      <div className="mt-10 grid gap-10 lg:grid-cols-[16rem_1fr]">
        <div className="lg:sticky lg:top-20 lg:self-start">
          <GuideContents />
        </div>
        <div className="min-w-0 rounded-3xl border border-slate-200 bg-white px-5 py-8 sm:px-10">
          {SEO_GUIDE.intro.map((p) => (
            <p key={p} className="mb-4 text-lg leading-relaxed text-slate-700">
              {p}
            </p>
          ))}
          <div className="mt-10">
            <GuideBody />
          </div>

          <section
            aria-labelledby="launch-title"
            className="mt-16 rounded-2xl bg-slate-900 px-6 py-8 text-center text-white"
          >
            <h2 id="launch-title" className="text-2xl font-bold">
              Ready to put it into practice?
            </h2>
            <p className="mx-auto mt-3 max-w-xl text-slate-300">
              Search a topic close to your product, keep the Easy keywords, and turn the best one into your first post
              today.
            </p>
            <Link to="/keywords" className="btn mt-6 bg-white px-5 py-3 text-base text-slate-900 hover:bg-brand-50">
              <Icon name="rocket" className="h-5 w-5" /> Launch Your Strategy
            </Link>
          </section>
        </div>
      </div>
    </div>
  )
}
