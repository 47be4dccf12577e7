import type { ActionFunctionArgs, MetaFunction } from '@remix-run/node'
import type { ClientActionFunctionArgs } from '@remix-run/react'
import { FreeToolPage } from '#app/features/marketing/components/free-tool'
import { guardServerAction, revalidateUnlessFailed } from '#app/ui/client-failure'
import { seoMeta } from '#app/features/marketing/seo'
import type { Outline } from '#app/features/marketing/seo-tools'
import { toolPageAction } from '#app/features/marketing/free-tools.server'
import { publicPage } from '#app/platform/http/cache'

/** Cacheable by a CDN for anonymous visitors (issue 17). */
export const handle = publicPage

export const meta: MetaFunction = ({ matches }) =>
  seoMeta({
    title: 'Free Blog Outline Generator: Structure SEO Posts Fast',
    description:
      'Turn any topic into a blog post structure: an introduction, 3-5 main sections with key points, and a conclusion. Free AI outline generator, no sign-up.',
    path: '/free-blog-outline',
    matches,
  })

export const action = ({ request }: ActionFunctionArgs) => toolPageAction('outline', request)
/** With JavaScript, a request that fails in the browser shows the tool's error in the red box (issue 12). */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

function OutlineView({ outline }: { outline: Outline }) {
  return (
    <article className="card" data-testid="tool-result">
      <h2 className="text-xl font-bold text-slate-900">Blog Post Structure</h2>
      <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-brand-700">Introduction</h3>
      <p className="mt-2 text-slate-700">{outline.introduction}</p>
      <ol className="mt-6 space-y-5">
        {outline.sections.map((section, i) => (
          <li key={`${i}-${section.title}`} className="rounded-xl border border-slate-200 p-4">
            <h3 className="font-semibold text-slate-900">
              <span className="text-brand-700">{i + 1}.</span> {section.title}
            </h3>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700">
              {section.content.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-brand-700">Conclusion</h3>
      <p className="mt-2 text-slate-700">{outline.conclusion}</p>
    </article>
  )
}

export default function FreeBlogOutline() {
  return (
    <FreeToolPage
      tool="outline"
      title="Free Blog Outline Generator"
      intro="Enter a topic and get a ready-to-write structure for your next blog post, organised the way readers and search engines expect."
      formLabel="Blog outline generator"
      fields={[{ label: 'Main Topic', name: 'keyword', placeholder: 'e.g. how to start a podcast' }]}
      pendingText="Generating Outline..."
      submitText="Generate Outline"
      renderResult={(result) => <OutlineView outline={result.outline} />}
      promo={{
        title: 'Turn Outlines into Published Posts',
        points: [
          { icon: 'pen', text: 'Auto Writing - Full SEO blog posts from a keyword, outline included' },
          { icon: 'list', text: 'Headings, meta description and structure done for you' },
          { icon: 'rocket', text: 'Auto Pilot publishes on a steady schedule' },
        ],
        highlight: 'Save 15+ Hours/Month',
        cta: 'Start Your Free Trial',
      }}
      features={{
        heading: 'Outlines that make writing easy',
        features: [
          {
            icon: 'list',
            title: '3-5 Main Sections',
            text: 'A clear structure of 3-5 main sections, each with the key points to cover.',
          },
          {
            icon: 'target',
            title: 'Matches Search Intent',
            text: 'Sections follow the questions your readers have, in the order they have them.',
          },
          {
            icon: 'pen',
            title: 'Intro and Conclusion',
            text: 'An opening that names the reader’s problem and a closing with a clear next step.',
          },
          {
            icon: 'clock',
            title: 'Write Faster',
            text: 'Skip the blank page: fill in the sections and your first draft is done.',
          },
        ],
      }}
      steps={[
        { title: 'Enter your topic', text: 'Type the topic or keyword your post is about.' },
        {
          title: 'AI builds the structure',
          text: 'Our AI lays out an introduction, main sections with key points and a conclusion.',
        },
        {
          title: 'Write your post',
          text: 'Use the outline as your guide and publish a complete, well-structured post.',
        },
      ]}
      closing={{
        title: 'Ready to Streamline Your Writing?',
        text: 'Find keywords, write better titles and plan your whole SEO strategy with our other free tools.',
      }}
    />
  )
}
