import { json, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { measuredKeywordData } from '#app/platform/capabilities.server'
import { TRIAL_NOTE } from '#app/features/marketing/landing-copy'
import { Icon, type IconName } from '#app/features/marketing/components/icons'
import { seoMeta } from '#app/features/marketing/seo'
import { publicPage } from '#app/platform/http/cache'

/** Cacheable by a CDN for anonymous visitors (issue 17). */
export const handle = publicPage

/** Decision 0353: the promo promises measured search volume only where this server has it (not estimates). */
export const loader = () => json({ measuredVolumes: measuredKeywordData() })

export const meta: MetaFunction = ({ matches }) =>
  seoMeta({
    title: 'Free SEO Tools for Founders: Keywords, Titles, Outlines, Strategy',
    description:
      'Four free AI SEO tools, no sign-up: keyword research, blog title generator with SEO score, blog outline generator and a personalised SEO strategy.',
    path: '/free-tools',
    matches,
  })

const TOOLS: Array<{ to: string; icon: IconName; title: string; text: string; cta: string }> = [
  {
    to: '/free-seo-strategy',
    icon: 'chart',
    title: 'SEO Strategy Generator',
    text: 'Describe your business and market and get a 90-day SEO plan: keyword themes, content pillars, quick wins and KPIs.',
    cta: 'Build my strategy',
  },
  {
    to: '/free-blog-outline',
    icon: 'list',
    title: 'Blog Outline Generator',
    text: 'Turn a topic into a post structure: an introduction, 3-5 main sections with key points, and a conclusion.',
    cta: 'Create an outline',
  },
  {
    to: '/free-blog-title',
    icon: 'pen',
    title: 'Blog Title Generator',
    text: 'Get click-worthy titles built around your keyword, each with its character count and SEO score.',
    cta: 'Generate titles',
  },
  {
    to: '/free-keyword-research',
    icon: 'search',
    title: 'Keyword Research Tool',
    text: 'Enter a topic and discover long-tail keywords a young website can realistically rank for.',
    cta: 'Find keywords',
  },
]

export default function FreeTools() {
  const { measuredVolumes } = useLoaderData<typeof loader>()
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-14 sm:py-20">
        <div className="mx-auto max-w-3xl text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">100% free, no sign-up</p>
          <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">Free SEO Tools</h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-600">
            Plan, research and outline your content with the same AI that powers Rankwell. Pick a tool and get results
            in seconds.
          </p>
        </div>
      </section>
      <section aria-label="Tools" className="px-4 pb-16">
        <ul className="mx-auto grid max-w-5xl gap-6 md:grid-cols-2">
          {TOOLS.map((tool) => (
            <li
              key={tool.to}
              className="card group relative flex flex-col transition hover:border-brand-300 hover:shadow-md"
            >
              <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                <Icon name={tool.icon} />
              </span>
              <h2 className="mt-4 text-xl font-semibold text-slate-900">
                <Link to={tool.to} className="after:absolute after:inset-0 after:rounded-2xl focus:outline-none">
                  {tool.title}
                </Link>
              </h2>
              <p className="mt-2 flex-1 text-slate-600">{tool.text}</p>
              <p
                className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-brand-700"
                aria-hidden="true"
              >
                {tool.cta} <span className="transition group-hover:translate-x-0.5">→</span>
              </p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="tools-cta" className="px-4 pb-20">
        <div className="mx-auto max-w-4xl rounded-3xl bg-slate-900 px-6 py-10 text-center text-white sm:px-12">
          <h2 id="tools-cta" className="text-2xl font-bold sm:text-3xl">
            Want the whole workflow done for you?
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-slate-300">
            {measuredVolumes
              ? 'Rankwell finds keywords with real search volume and difficulty, writes complete SEO posts and publishes them on Auto Pilot.'
              : 'Rankwell finds keywords a young website can rank for, writes complete SEO posts and publishes them on Auto Pilot.'}
          </p>
          <Link to="/signup" className="btn mt-6 bg-white px-5 py-3 text-base text-slate-900 hover:bg-brand-50">
            Try Rankwell Free
          </Link>
          <p className="mt-3 text-sm text-slate-300">{TRIAL_NOTE}</p>
        </div>
      </section>
    </>
  )
}
