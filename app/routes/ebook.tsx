import type { LinksFunction, MetaFunction } from '@remix-run/node'
import { Link, useRouteLoaderData } from '@remix-run/react'
import { GuideBody } from '#app/features/marketing/components/guide'
import { PrintButton } from '#app/features/marketing/components/print-button'
import printStyles from '#app/features/marketing/components/print.css?url'
import { seoMeta } from '#app/features/marketing/seo'
import { readingMinutes, SEO_GUIDE } from '#app/features/marketing/seo-guide'
import type { RootData } from '#app/root'

/** The ebook itself: our SEO guide as a printable page (print or "Save as PDF" from the browser). Linked from the ebook e-mail. */
export const links: LinksFunction = () => [{ rel: 'stylesheet', href: printStyles }]

export const meta: MetaFunction = ({ matches }) =>
  seoMeta({
    title: `${SEO_GUIDE.title} (Ebook)`,
    description: SEO_GUIDE.subtitle,
    path: '/ebook',
    matches,
    noindex: true,
    type: 'article',
  })

export default function Ebook() {
  const appUrl = (useRouteLoaderData<RootData>('root')?.env.APP_URL ?? '').replace(/\/+$/, '')
  return (
    <article className="mx-auto max-w-3xl bg-white px-5 py-10 sm:px-10 print:max-w-none print:px-0 print:py-0">
      <header className="ebook-cover flex flex-col justify-between rounded-3xl bg-gradient-to-br from-brand-600 to-brand-900 p-8 text-white sm:p-12 print:rounded-none">
        <div>
          <p className="text-sm font-semibold uppercase tracking-widest text-brand-100">Rankwell · Free SEO Ebook</p>
          <h1 className="mt-8 text-4xl font-extrabold leading-tight sm:text-5xl">{SEO_GUIDE.title}</h1>
          <p className="mt-5 max-w-xl text-lg text-brand-50">{SEO_GUIDE.subtitle}</p>
        </div>
        <div className="mt-12 flex flex-wrap items-center justify-between gap-4">
          <p className="text-sm text-brand-100">
            {SEO_GUIDE.chapters.length} chapters · about {readingMinutes(SEO_GUIDE)} minutes to read
          </p>
          <PrintButton />
        </div>
      </header>

      <section aria-labelledby="ebook-contents-title" className="ebook-contents mt-12">
        <h2 id="ebook-contents-title" className="text-2xl font-bold text-slate-900">
          Contents
        </h2>
        <ol className="mt-4 space-y-2">
          {SEO_GUIDE.chapters.map((c, i) => (
            <li key={c.id} className="flex gap-3">
              <span className="w-6 flex-none font-semibold text-brand-700">{i + 1}</span>
              <a href={`#${c.id}`} className="text-slate-800 hover:underline">
                <span className="font-semibold">{c.title}</span>
                <span className="block text-sm text-slate-600">{c.summary}</span>
              </a>
            </li>
          ))}
        </ol>
        <h2 className="mt-12 text-2xl font-bold text-slate-900">Before you start</h2>
        {SEO_GUIDE.intro.map((p) => (
          <p key={p} className="mt-4 leading-relaxed text-slate-700">
            {p}
          </p>
        ))}
      </section>

      <div className="mt-14">
        <GuideBody />
      </div>

      <section className="guide-chapter mt-16 rounded-2xl border border-slate-200 bg-slate-50 p-8 text-center">
        <h2 className="text-2xl font-bold text-slate-900">Put it into practice</h2>
        <p className="mx-auto mt-3 max-w-xl text-slate-700">
          Rankwell finds the keywords you can win (with volume and difficulty for your country and language), writes the
          posts with AI and publishes them on Auto Pilot. Start with a free 7-day trial, no credit card required.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3 print:hidden">
          <Link to="/signup" className="btn-primary">
            Start your free trial
          </Link>
          <Link to="/free-tools" className="btn-secondary">
            Try the free SEO tools
          </Link>
        </div>
        <p className="mt-4 hidden text-sm text-slate-700 print:block">Start your free trial at {appUrl}/signup</p>
      </section>
    </article>
  )
}
