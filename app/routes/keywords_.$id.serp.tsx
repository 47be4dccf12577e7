import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { BackLink } from '#app/ui/back-link'
import { PageHeader } from '#app/ui/page-header'
import { requireUser } from '#app/features/accounts/session.server'
import { researchedWordCounts } from '#app/features/content/research-pages.server'
import { SerpResults } from '#app/features/keywords/components/serp-results'
import { keywordSerpView } from '#app/features/keywords/serp-view.server'
import { SERP_VIEW_MESSAGES, type SerpPagePayload } from '#app/features/keywords/serp-view'

export const meta: MetaFunction = () => [{ title: 'Top 10 results · Rankwell' }, { name: 'robots', content: 'noindex' }]

const STATUS = { not_found: 404, quota: 402, unavailable: 503, provider_error: 502 } as const

/**
 * /keywords/:id/serp (issue 36): a saved keyword's Google top 10, with each domain's strength, the page's length and
 * age, and who ranks in plain words. The row link on /keywords loads this loader into a dialog (with JavaScript);
 * without JavaScript it is this page. Refusals and failures are the page with their message (and its status), so
 * that the dialog shows them too.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const answer = await keywordSerpView(user.id, params.id ?? '', { wordCounts: researchedWordCounts })
  const headers = { 'Cache-Control': 'private, no-store' }
  if (answer.ok) return json<SerpPagePayload>({ view: answer.view, message: null, upgrade: false }, { headers })
  const message = answer.reason === 'not_found' ? SERP_VIEW_MESSAGES.notFound : answer.message
  const upgrade = answer.reason === 'quota' ? (answer.upgrade ?? false) : false
  return json<SerpPagePayload>({ view: null, message, upgrade }, { status: STATUS[answer.reason], headers })
}

export default function KeywordSerpPage() {
  const payload = useLoaderData<typeof loader>()
  const keyword = payload.view?.keyword
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <BackLink to="/keywords">Keyword Opportunities</BackLink>
      <PageHeader
        title={keyword ? `Top 10 results for “${keyword.keyword}”` : 'Top 10 results'}
        subtitle={keyword?.market || undefined}
      />
      <div className="card max-sm:p-0">
        <SerpResults payload={payload} />
      </div>
    </div>
  )
}
