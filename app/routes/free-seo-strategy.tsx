import type { ActionFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { TRIAL_NOTE } from '#app/features/marketing/landing-copy'
import type { ClientActionFunctionArgs } from '@remix-run/react'
import { FreeToolPage } from '#app/features/marketing/components/free-tool'
import { guardServerAction, revalidateUnlessFailed } from '#app/ui/client-failure'
import { Icon } from '#app/features/marketing/components/icons'
import { seoMeta } from '#app/features/marketing/seo'
import type { SeoStrategy } from '#app/features/marketing/seo-tools'
import { toolPageAction } from '#app/features/marketing/free-tools.server'
import { publicPage } from '#app/platform/http/cache'

/** Cacheable by a CDN for anonymous visitors (issue 17). */
export const handle = publicPage

export const meta: MetaFunction = ({ matches }) =>
  seoMeta({
    title: 'Free SEO Strategy Generator: Your 90-Day Plan',
    description:
      'Describe your business and market and get a personalised 90-day SEO strategy: keyword themes, content pillars, quick wins, a roadmap and KPIs. Free.',
    path: '/free-seo-strategy',
    matches,
  })

export const action = ({ request }: ActionFunctionArgs) => toolPageAction('strategy', request)
/** With JavaScript, a request that fails in the browser shows the tool's error in the red box (issue 12). */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

/** A card with a heading, left out when its list is empty. */
function Part({ title, items, children }: { title: string; items: unknown[]; children: ReactNode }) {
  if (!items.length) return null
  return (
    <section className="card">
      <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
      {children}
    </section>
  )
}

/** A part whose items (themes, pillars) are bordered tiles in a grid, each under its own title. */
function TileGrid<T>({
  title,
  items,
  columns,
  tileTitle,
  tile,
}: {
  title: string
  items: T[]
  columns: string
  tileTitle: (item: T) => string
  tile: (item: T) => ReactNode
}) {
  return (
    <Part title={title} items={items}>
      <div className={`mt-4 grid gap-4 ${columns}`}>
        {items.map((item, i) => (
          <div key={`${i}-${tileTitle(item)}`} className="rounded-xl border border-slate-200 p-4">
            <h4 className="font-semibold text-slate-900">{tileTitle(item)}</h4>
            {tile(item)}
          </div>
        ))}
      </div>
    </Part>
  )
}

function Checklist({ title, items }: { title: string; items: string[] }) {
  return (
    <Part title={title} items={items}>
      <ul className="mt-3 space-y-2">
        {items.map((item) => (
          <li key={item} className="flex items-start gap-2 text-slate-700">
            <Icon name="check" className="mt-0.5 h-5 w-5 flex-none text-green-700" />
            <span>{item}</span>
          </li>
        ))}
      </ul>
    </Part>
  )
}

function StrategyView({ strategy }: { strategy: SeoStrategy }) {
  return (
    <div className="space-y-6" data-testid="tool-result">
      <section className="card">
        <h2 className="text-2xl font-bold text-slate-900">Your SEO Strategy</h2>
        <p className="mt-3 text-lg text-slate-700">{strategy.summary}</p>
        {strategy.target_audience ? (
          <>
            <h3 className="mt-5 text-sm font-semibold uppercase tracking-wide text-brand-700">Target audience</h3>
            <p className="mt-1 text-slate-700">{strategy.target_audience}</p>
          </>
        ) : null}
      </section>

      <TileGrid
        title="Keyword themes"
        items={strategy.keyword_themes}
        columns="md:grid-cols-2"
        tileTitle={(theme) => theme.theme}
        tile={(theme) => (
          <>
            <p className="mt-1 text-xs font-medium uppercase tracking-wide text-slate-600">
              Intent: {theme.search_intent}
            </p>
            <ul className="mt-3 flex flex-wrap gap-2">
              {theme.keywords.map((k) => (
                <li key={k} className="rounded-full bg-brand-50 px-3 py-1 text-sm text-brand-800">
                  {k}
                </li>
              ))}
            </ul>
          </>
        )}
      />

      <TileGrid
        title="Content pillars"
        items={strategy.content_pillars}
        columns="md:grid-cols-3"
        tileTitle={(pillar) => pillar.title}
        tile={(pillar) => (
          <>
            <p className="mt-1 text-sm text-slate-600">{pillar.description}</p>
            <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-700">
              {pillar.post_ideas.map((idea) => (
                <li key={idea}>{idea}</li>
              ))}
            </ul>
          </>
        )}
      />

      <div className="grid gap-6 md:grid-cols-2">
        <Checklist title="Quick wins" items={strategy.quick_wins} />
        <Checklist title="On-page checklist" items={strategy.on_page_checklist} />
        <Checklist title="Link building" items={strategy.link_building} />
        <Checklist title="KPIs to track" items={strategy.kpis} />
      </div>

      <Part title="Roadmap" items={strategy.roadmap}>
        <ol className="mt-4 space-y-4 border-l-2 border-brand-200 pl-5">
          {strategy.roadmap.map((step, i) => (
            <li key={`${i}-${step.period}`}>
              <h4 className="font-semibold text-slate-900">
                {step.period}: <span className="font-normal text-slate-700">{step.focus}</span>
              </h4>
              <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
                {step.actions.map((a) => (
                  <li key={a}>{a}</li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      </Part>
    </div>
  )
}

export default function FreeSeoStrategy() {
  return (
    <FreeToolPage
      tool="strategy"
      title="Free SEO Strategy Generator"
      intro="Tell us what you sell and who you sell to. Get a personalised 90-day SEO plan: keyword themes, content pillars, quick wins and the numbers to track."
      formLabel="SEO strategy generator"
      fields={[
        { label: 'Business Type', name: 'business', placeholder: 'e.g. online bakery, B2B invoicing software' },
        { label: 'Market Segment', name: 'segment', placeholder: 'e.g. health-conscious families in Austin' },
      ]}
      pendingText="Generating Your Strategy..."
      submitText="Generate My SEO Strategy"
      renderResult={(result) => <StrategyView strategy={result.seo_strategy} />}
      afterResults={
        <section aria-labelledby="strategy-cta" className="px-4 py-10">
          <div className="mx-auto flex max-w-4xl flex-col items-center gap-4 rounded-2xl bg-slate-900 px-6 py-8 text-center text-white">
            <h2 id="strategy-cta" className="text-2xl font-bold">
              Put your strategy on Auto Pilot
            </h2>
            <p className="max-w-2xl text-slate-300">
              Rankwell researches the keywords, writes the posts and publishes them for you, so your strategy actually
              gets done.
            </p>
            <Link to="/signup" className="btn bg-white px-5 py-3 text-base text-slate-900 hover:bg-brand-50">
              Start Your Free Trial
            </Link>
            <p className="text-sm text-slate-300">{TRIAL_NOTE}</p>
          </div>
        </section>
      }
      features={{
        heading: 'A strategy made for your business',
        features: [
          {
            icon: 'target',
            title: 'Personalised',
            text: 'Built around your business type and market segment, not a generic checklist.',
          },
          {
            icon: 'search',
            title: 'Keyword Themes',
            text: 'The topics your customers search for, grouped by intent with example keywords.',
          },
          {
            icon: 'layers',
            title: 'Content Pillars',
            text: 'Pillar topics with post ideas, so you always know what to write next.',
          },
          {
            icon: 'chart',
            title: '90-Day Roadmap',
            text: 'What to do in weeks 1-4, 5-8 and 9-12, and the KPIs that show it is working.',
          },
        ],
      }}
      steps={[
        { title: 'Describe your business', text: 'Enter what you sell and the market you sell to.' },
        { title: 'AI plans your SEO', text: 'Our AI maps keyword themes, content pillars, quick wins and a roadmap.' },
        { title: 'Execute and grow', text: 'Follow the plan yourself, or let Rankwell’s Auto Pilot do the work.' },
      ]}
      closing={{
        title: 'Ready to Grow Your Organic Traffic?',
        text: 'Find keywords, titles and outlines for every post in your plan with our other free tools.',
      }}
    />
  )
}
