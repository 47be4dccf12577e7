import type { ActionFunctionArgs, MetaFunction } from '@remix-run/node'
import type { ClientActionFunctionArgs } from '@remix-run/react'
import { FreeToolPage } from '#app/features/marketing/components/free-tool'
import { guardServerAction, revalidateUnlessFailed } from '#app/ui/client-failure'
import { seoMeta } from '#app/features/marketing/seo'
import { characterCount, seoScore } from '#app/features/marketing/seo-score'
import { TITLE_ADVICE, TITLE_MAX, TITLE_SCORE_NOTE } from '#app/features/content/seo-advice'
import type { ToolResult } from '#app/features/marketing/seo-tools'
import { toolPageAction } from '#app/features/marketing/free-tools.server'
import { publicPage } from '#app/platform/http/cache'

/** Cacheable by a CDN for anonymous visitors (issue 17). */
export const handle = publicPage

export const meta: MetaFunction = ({ matches }) =>
  seoMeta({
    title: 'Free Blog Title Generator with SEO Score',
    description:
      'Generate click-worthy, SEO-friendly blog titles for any keyword, each with its character count and SEO score. Free AI tool, no sign-up required.',
    path: '/free-blog-title',
    matches,
  })

export const action = ({ request }: ActionFunctionArgs) => toolPageAction('titles', request)
/** With JavaScript, a request that fails in the browser shows the tool's error in the red box (issue 12). */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

function scoreClass(score: number) {
  if (score >= 80) return 'bg-green-100 text-green-800'
  if (score >= 50) return 'bg-yellow-100 text-yellow-900'
  return 'bg-orange-100 text-orange-900'
}

function Titles({ result }: { result: ToolResult['titles'] }) {
  return (
    <div className="card" data-testid="tool-result">
      <h2 className="text-xl font-bold text-slate-900">Suggested Blog Titles</h2>
      <p className="mt-1 text-sm text-slate-600" data-testid="title-score-note">
        {TITLE_SCORE_NOTE}
      </p>
      <ul className="mt-4 space-y-3">
        {result.titles.map((title) => {
          const score = seoScore(title)
          return (
            <li key={title} className="rounded-xl border border-slate-200 p-4">
              <p className="font-semibold text-slate-900">{title}</p>
              <p className="mt-2 flex flex-wrap items-center gap-3 text-sm text-slate-600">
                <span>{characterCount(title)} characters</span>
                {characterCount(title) > TITLE_MAX ? <span>Over {TITLE_MAX}: search results cut it off.</span> : null}
                <span className={`rounded-full px-2.5 py-0.5 font-semibold ${scoreClass(score)}`}>
                  SEO Score: {score}%
                </span>
              </p>
            </li>
          )
        })}
      </ul>
    </div>
  )
}

export default function FreeBlogTitle() {
  return (
    <FreeToolPage
      tool="titles"
      title="Free Blog Title Generator"
      intro="Enter the keyword you want to rank for and get blog titles that put it up front, use the space search results give them, and make people click."
      formLabel="Blog title generator"
      fields={[{ label: 'Main Keyword', name: 'keyword', placeholder: 'e.g. email marketing for small business' }]}
      pendingText="Generating Titles..."
      submitText="Generate Titles"
      renderResult={(result) => <Titles result={result} />}
      promo={{
        title: 'Automate Your Content Creation',
        points: [
          { icon: 'pen', text: 'Auto Writing - Complete SEO blog posts from your keywords, not just titles' },
          { icon: 'target', text: 'Every post built around a keyword you can rank for' },
          { icon: 'rocket', text: 'Auto Pilot publishes to your site through a webhook' },
        ],
        highlight: 'Save 20+ Hours/Month',
        cta: 'Start Writing with AI',
      }}
      features={{
        heading: 'Titles that rank and get clicked',
        features: [
          {
            icon: 'target',
            title: 'Keyword First',
            text: 'Your keyword goes near the start of every title, where searchers and Google look first.',
          },
          {
            icon: 'chart',
            title: 'SEO Score',
            text: `Each title shows its length and its SEO Score. ${TITLE_ADVICE.hint}`,
          },
          {
            icon: 'sparkles',
            title: 'Varied Formats',
            text: 'How-tos, lists, guides, questions and comparisons, so you can match the search intent.',
          },
          {
            icon: 'bulb',
            title: 'Honest Hooks',
            text: 'Titles that earn the click with a clear benefit and then deliver on it, no clickbait.',
          },
        ],
      }}
      steps={[
        { title: 'Enter your keyword', text: 'Type the main keyword your post should rank for.' },
        { title: 'AI writes titles', text: 'Our AI drafts titles in several formats, each built around your keyword.' },
        {
          title: 'Pick the best one',
          text: 'Compare character counts and SEO scores, then pick the title that fits your post.',
        },
      ]}
      closing={{
        title: 'Ready to Boost Your Content?',
        text: 'Get keyword ideas, full outlines and a complete SEO strategy with our other free tools.',
      }}
    />
  )
}
