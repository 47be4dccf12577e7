import { json, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData, type ClientActionFunctionArgs } from '@remix-run/react'
import { measuredKeywordData } from '#app/platform/capabilities.server'
import { FreeToolPage } from '#app/features/marketing/components/free-tool'
import { guardServerAction, revalidateUnlessFailed } from '#app/ui/client-failure'
import { seoMeta } from '#app/features/marketing/seo'
import type { ToolResult } from '#app/features/marketing/seo-tools'
import { toolPageAction } from '#app/features/marketing/free-tools.server'
import { publicPage } from '#app/platform/http/cache'

/** Cacheable by a CDN for anonymous visitors (issue 17). */
export const handle = publicPage

export const meta: MetaFunction = ({ matches }) =>
  seoMeta({
    title: 'Free Keyword Research Tool: Find Keywords You Can Rank For',
    description:
      'Enter a topic and get long-tail keyword ideas from AI in seconds. Free, no sign-up: find the searches your content can actually win.',
    path: '/free-keyword-research',
    matches,
  })

/**
 * Decision 0353: the promo promises measured ('real') search volume only when this server has it, not estimates.
 * The spec's 'Auto Tracking - Monitor keyword rankings 24/7' is required copy and stays as it is.
 */
export const loader = () => json({ measuredVolumes: measuredKeywordData() })

export const action = ({ request }: ActionFunctionArgs) => toolPageAction('keywords', request)
/** With JavaScript, a request that fails in the browser shows the tool's error in the red box (issue 12). */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

function Keywords({ result }: { result: ToolResult['keywords'] }) {
  return (
    <div className="card" data-testid="tool-result">
      <h2 className="text-xl font-bold text-slate-900">Recommended Keywords</h2>
      <ol className="mt-4 divide-y divide-slate-100">
        {result.keywords.map((keyword, i) => (
          <li key={keyword} className="flex items-center gap-3 py-3">
            <span
              className="flex h-7 w-7 flex-none items-center justify-center rounded-full bg-brand-50 text-xs font-semibold text-brand-700"
              aria-hidden="true"
            >
              {i + 1}
            </span>
            <span className="font-medium text-slate-800">{keyword}</span>
          </li>
        ))}
      </ol>
    </div>
  )
}

export default function FreeKeywordResearch() {
  const { measuredVolumes } = useLoaderData<typeof loader>()
  return (
    <FreeToolPage
      tool="keywords"
      title="Free Keyword Research Tool"
      intro="Type the topic you want to write about and get a list of keywords people really search for: specific, long-tail phrases a young website can rank for."
      formLabel="Keyword research"
      fields={[
        { label: 'Content Topic', name: 'topic', placeholder: 'e.g. sustainable fashion for young professionals' },
      ]}
      pendingText="Analyzing Topic..."
      submitText="Generate Keywords"
      renderResult={(result) => <Keywords result={result} />}
      promo={{
        title: 'Automate Your Keyword Research',
        points: [
          { icon: 'trend', text: 'Auto Tracking - Monitor keyword rankings 24/7' },
          {
            icon: 'chart',
            text: measuredVolumes
              ? 'Real search volume and ranking difficulty for your country and language'
              : 'Search volume and ranking difficulty for your country and language',
          },
          { icon: 'rocket', text: 'Auto Pilot turns the best keywords into published posts' },
        ],
        highlight: 'Save 10+ Hours/Month',
        cta: 'Activate Auto Pilot Now',
      }}
      features={{
        heading: 'Keyword research that fits a young website',
        features: [
          {
            icon: 'search',
            title: 'Deep Analysis',
            text: 'The AI looks at your topic from every angle your readers do: problems, questions, comparisons and buying decisions.',
          },
          {
            icon: 'target',
            title: 'Relevance Score',
            text: 'Ideas stay close to your topic, so every keyword is one you could write a genuinely useful post about.',
          },
          {
            icon: 'bulb',
            title: 'Content Ideas',
            text: 'Each keyword doubles as a blog post idea. Pick one and you know what to write next.',
          },
          {
            icon: 'layers',
            title: 'Long-Tail Keywords',
            text: 'Specific 3–6 word phrases with less competition and clearer intent: the searches new sites can win.',
          },
        ],
      }}
      steps={[
        {
          title: 'Enter your topic',
          text: 'Describe what you want to write about in a few words, the more specific the better.',
        },
        { title: 'AI analysis', text: 'Our AI expands the topic into the searches your future readers actually type.' },
        {
          title: 'Get your keywords',
          text: 'Pick the keywords that fit your business and turn each one into a blog post.',
        },
      ]}
      closing={{
        title: 'Ready to Find Better Keywords?',
        text: 'Titles, outlines and a full SEO strategy: our other free tools take you from keyword to published post.',
      }}
    />
  )
}
