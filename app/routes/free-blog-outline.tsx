import type { ActionFunctionArgs, MetaFunction } from '@remix-run/node'
import { ClosingBanner, FeatureCards, Honeypot, HowItWorks, PromoBlock, ResultArea, ToolHero, useToolRun } from '#app/components/landing/free-tool'
import { Field } from '#app/components/ui/field'
import { SubmitButton } from '#app/components/ui/submit-button'
import { seoMeta } from '#app/lib/seo'
import { MAX_INPUT_LENGTH, type ToolResult } from '#app/lib/seo-tools'
import { toolPageAction } from '#app/server/free-tools.server'

export const meta: MetaFunction = ({ matches }) =>
  seoMeta({
    title: 'Free Blog Outline Generator: Structure SEO Posts Fast',
    description:
      'Turn any topic into a blog post structure: an introduction, 3-5 main sections with key points, and a conclusion. Free AI outline generator, no sign-up.',
    path: '/free-blog-outline',
    matches,
  })

export const action = ({ request }: ActionFunctionArgs) => toolPageAction('outline', request)

export default function FreeBlogOutline() {
  const { fetcher, busy, result, error, fieldErrors, values, resultRef } = useToolRun<ToolResult['outline']>()
  return (
    <>
      <ToolHero
        eyebrow="Free SEO tool"
        title="Free Blog Outline Generator"
        intro="Enter a topic and get a ready-to-write structure for your next blog post, organised the way readers and search engines expect."
      >
        <fetcher.Form method="post" className="space-y-4" aria-label="Blog outline generator">
          <Field
            label="Main Topic"
            name="keyword"
            required
            maxLength={MAX_INPUT_LENGTH}
            placeholder="e.g. how to start a podcast"
            defaultValue={values.keyword}
            error={fieldErrors.keyword}
          />
          <Honeypot />
          <SubmitButton pending={busy} pendingText="Generating Outline..." className="btn-primary w-full py-3 text-base">
            Generate Outline
          </SubmitButton>
        </fetcher.Form>
      </ToolHero>

      <ResultArea error={error} resultRef={resultRef}>
        {result ? (
          <>
            <article className="card" data-testid="tool-result">
              <h2 className="text-xl font-bold text-slate-900">Blog Post Structure</h2>
              <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-brand-700">Introduction</h3>
              <p className="mt-2 text-slate-700">{result.outline.introduction}</p>
              <ol className="mt-6 space-y-5">
                {result.outline.sections.map((section, i) => (
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
              <p className="mt-2 text-slate-700">{result.outline.conclusion}</p>
            </article>
            <PromoBlock
              title="Turn Outlines into Published Posts"
              points={[
                { icon: 'pen', text: 'Auto Writing - Full SEO blog posts from a keyword, outline included' },
                { icon: 'list', text: 'Headings, meta description and structure done for you' },
                { icon: 'rocket', text: 'Auto Pilot publishes on a steady schedule' },
              ]}
              highlight="Save 15+ Hours/Month"
              cta="Start Your Free Trial"
            />
          </>
        ) : null}
      </ResultArea>

      <FeatureCards
        heading="Outlines that make writing easy"
        features={[
          { icon: 'list', title: '3-5 Main Sections', text: 'A clear structure of 3-5 main sections, each with the key points to cover.' },
          { icon: 'target', title: 'Matches Search Intent', text: 'Sections follow the questions your readers have, in the order they have them.' },
          { icon: 'pen', title: 'Intro and Conclusion', text: 'An opening that names the reader’s problem and a closing with a clear next step.' },
          { icon: 'clock', title: 'Write Faster', text: 'Skip the blank page: fill in the sections and your first draft is done.' },
        ]}
      />
      <HowItWorks
        steps={[
          { title: 'Enter your topic', text: 'Type the topic or keyword your post is about.' },
          { title: 'AI builds the structure', text: 'Our AI lays out an introduction, main sections with key points and a conclusion.' },
          { title: 'Write your post', text: 'Use the outline as your guide and publish a complete, well-structured post.' },
        ]}
      />
      <ClosingBanner
        title="Ready to Streamline Your Writing?"
        text="Find keywords, write better titles and plan your whole SEO strategy with our other free tools."
      />
    </>
  )
}
