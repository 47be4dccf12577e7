import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { PageHeader } from '#app/ui/page-header'
import { SubmitButton } from '#app/ui/submit-button'
import { safeRedirect } from '#app/platform/security/redirect'
import { findOverlap, overlapMessage } from '#app/features/content/cannibalisation.server'
import { findSavedKeyword } from '#app/features/keywords/keywords.server'
import { requireUser } from '#app/features/accounts/session.server'

export const meta: MetaFunction = () => [
  { title: 'A very similar search · Rankwell' },
  { name: 'robots', content: 'noindex' },
]

/**
 * /keywords/:id/write: shown when 'Create Post' meets a keyword that overlaps one of the user's posts or pages.
 * The user can update the existing post instead, or write a new post anyway (the same request key, with force).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const id = params.id ?? ''
  const url = new URL(request.url)
  const keyword = await findSavedKeyword(user.id, id)
  if (!keyword) throw new Response('Keyword not found.', { status: 404 })
  const requestKey = (url.searchParams.get('requestKey') ?? '').slice(0, 200) || crypto.randomUUID()
  const overlap = await findOverlap(user.id, keyword.keyword, { exceptRequestKey: requestKey })
  return json(
    {
      keyword,
      requestKey,
      redirectTo: safeRedirect(url.searchParams.get('redirectTo'), '/blogposts'),
      overlap: overlap
        ? {
            message: overlapMessage(overlap),
            href: overlap.postId ? `/blogpost/${overlap.postId}/edit` : overlap.url,
            internal: Boolean(overlap.postId),
          }
        : null,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export default function WriteAnyway() {
  const { keyword, requestKey, redirectTo, overlap } = useLoaderData<typeof loader>()
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <PageHeader title="A very similar search" subtitle={`Keyword: ${keyword.keyword}`} />
      <div className="card space-y-4" data-testid="overlap">
        {overlap ? (
          <p role="alert" className="text-slate-800">
            {overlap.message}
          </p>
        ) : (
          <p className="text-slate-800">None of your posts or pages covers this search any more.</p>
        )}
        <p className="text-sm text-slate-600">
          Two pages for the same search compete with each other in Google: updating the one you have usually ranks
          better than writing another.
        </p>
        <div className="flex flex-wrap gap-2">
          {overlap?.href ? (
            overlap.internal ? (
              <Link to={overlap.href} className="btn-primary">
                Update it instead
              </Link>
            ) : (
              <a href={overlap.href} className="btn-primary" rel="noreferrer" target="_blank">
                Open your page
              </a>
            )
          ) : null}
          <Form method="post" action="/blogposts">
            <input type="hidden" name="intent" value="create-post" />
            <input type="hidden" name="keywordId" value={keyword.id} />
            <input type="hidden" name="requestKey" value={requestKey} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <input type="hidden" name="force" value="1" />
            <SubmitButton className="btn-secondary" pendingText="Creating...">
              Write a new post anyway
            </SubmitButton>
          </Form>
        </div>
      </div>
    </div>
  )
}
