import type { MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'

export const meta: MetaFunction = () => [
  { title: 'Rankwell: keyword research and AI blog posts for founders' },
  {
    name: 'description',
    content: 'Find keywords you can rank for, write SEO blog posts with AI, and let Auto Pilot publish them. 7-day free trial, no credit card required.',
  },
]

export default function Index() {
  return (
    <section className="mx-auto max-w-6xl px-4 py-20 text-center">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">SEO on Auto Pilot for founders</p>
      <h1 className="mx-auto mt-4 max-w-3xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
        Grow organic traffic without becoming an SEO expert
      </h1>
      <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">
        Rankwell finds the keywords you can actually rank for, writes publish-ready blog posts with AI, and publishes them to
        your site. Save 80% of the time you spend on content.
      </p>
      <div className="mt-10 flex flex-wrap justify-center gap-3">
        <Link to="/signup" className="btn-primary px-6 py-3 text-base">Start your free trial</Link>
        <Link to="/free-tools" className="btn-secondary px-6 py-3 text-base">Try the free tools</Link>
      </div>
      <p className="mt-4 text-sm text-slate-600">Free 7-day trial • No credit card required</p>
    </section>
  )
}
