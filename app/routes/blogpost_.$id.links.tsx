import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { PostNotFound } from '#app/features/content/components/post-not-found'
import { Toaster, type Toast } from '#app/ui/toaster'
import { BackLink } from '#app/ui/back-link'
import { PageHeader } from '#app/ui/page-header'
import { SubmitButton } from '#app/ui/submit-button'
import { LINK_MESSAGES, READ_NEXT_LABEL, type LinkChange } from '#app/features/content/link-proposal'
import { POST_MESSAGES } from '#app/features/content/posts'
import { readForm } from '#app/platform/http/body.server'
import { addLinkFrom, linkSuggestions } from '#app/features/content/link-suggestions.server'
import { getPost } from '#app/features/content/posts.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.post ? `Link to “${data.post.title}” · Rankwell` : 'Link from older posts · Rankwell' },
]

const noStore = { 'Cache-Control': 'private, no-store' }

/** Links from the user's older related posts to this (published) post, each added with one click. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const post = await getPost(user.id, params.id ?? '')
  const found = post ? await linkSuggestions(user.id, post.id) : null
  if (!post || !found) return json({ post: null, found: null }, { status: 404, headers: noStore })
  return json({ post: { id: post.id, title: post.title || post.keyword }, found }, { headers: noStore })
}

type ActionData = { toast?: Toast }

const ADD_INTENT = 'add-link:'

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const postId = params.id ?? ''
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  const fail = (message: string, status: number) =>
    json<ActionData>({ toast: { type: 'error', message, duration: TOAST_MS } }, { status })
  if (!intent.startsWith(ADD_INTENT)) return fail('Choose a post to add the link to.', 400)
  const result = await addLinkFrom(user.id, postId, intent.slice(ADD_INTENT.length))
  if (!result.ok) return fail(result.status === 404 ? POST_MESSAGES.notFound : result.message, result.status)
  return toast().redirectWithSuccess(`/blogpost/${postId}/links`, { message: result.message, duration: TOAST_MS })
}

/** The change as the reader will see it: the sentence now, then with the new link highlighted (never Markdown). */
function ProposedChange({ change }: { change: LinkChange }) {
  const { lead, anchor, trail, url } = change.after
  return (
    <dl className="mt-2 space-y-2 text-sm" data-testid="link-change">
      {change.before !== null ? (
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Now</dt>
          <dd className="break-words text-slate-600" data-testid="link-change-before">
            {change.before}
          </dd>
        </div>
      ) : null}
      <div>
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">
          {change.before !== null ? 'With the link' : 'New line'}
        </dt>
        <dd>
          <blockquote
            className="break-words border-l-4 border-slate-200 pl-3 text-slate-700"
            data-testid="link-change-after"
          >
            {lead}
            <mark className="rounded bg-amber-100 px-0.5 text-slate-900">
              {/^https?:\/\//i.test(url) ? (
                <a href={url} className="font-medium text-brand-700 underline" rel="noopener noreferrer">
                  {anchor}
                </a>
              ) : (
                anchor
              )}
            </mark>
            {trail}
          </blockquote>
        </dd>
      </div>
    </dl>
  )
}

export default function LinkSuggestionsPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as ActionData | undefined
  if (!data.post || !data.found) return <PostNotFound />
  const { post, found } = data

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <Toaster toast={actionData?.toast} />
      <BackLink to={`/blogpost/${post.id}`}>Back to the post</BackLink>
      <div className="mt-4">
        <PageHeader title="Link to this post from older posts" subtitle={post.title} />
      </div>
      {!found.ready ? (
        <p className="card text-slate-700" data-testid="links-not-published">
          {LINK_MESSAGES.notPublished}{' '}
          <Link to={`/blogpost/${post.id}/publish`} className="font-semibold text-brand-700 underline">
            Publish to…
          </Link>
        </p>
      ) : found.suggestions.length === 0 ? (
        <p className="card text-slate-700" data-testid="links-empty">
          None of your older posts is related closely enough to link here, or they all link to it already. Posts you
          write from now on link to it by themselves where it fits.
        </p>
      ) : (
        <>
          <p className="mb-4 text-sm text-slate-600">
            Internal links help readers and search engines find this post. Each change below is saved as a new version
            of the older post (scored again, and undone from its versions if you change your mind).
          </p>
          <ul className="space-y-4" aria-label="Suggested links">
            {found.suggestions.map((s) => (
              <li key={s.postId} className="card" data-testid="link-suggestion">
                <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
                  <div className="min-w-0">
                    <h2 className="font-semibold text-slate-900">
                      <Link to={`/blogpost/${s.postId}`} className="hover:underline">
                        {s.title}
                      </Link>
                    </h2>
                    <p className="mt-1 text-sm text-slate-600">
                      {s.kind === 'inline'
                        ? s.via === 'topic'
                          ? 'Links the phrase that names this post’s topic:'
                          : 'Links the first mention of this post’s keyword:'
                        : s.section
                          ? `Adds a “${READ_NEXT_LABEL}” line at the end of its section “${s.section}”:`
                          : `Adds a “${READ_NEXT_LABEL}” line at the end of the post:`}
                    </p>
                    <ProposedChange change={s.change} />
                    {s.publishedUrl ? (
                      <p className="mt-2 text-xs text-slate-500">
                        It is live on your site: after adding the link,{' '}
                        <Link to={`/blogpost/${s.postId}/publish`} className="underline">
                          publish it again
                        </Link>{' '}
                        to update the live copy.
                      </p>
                    ) : null}
                  </div>
                  <Form method="post" className="shrink-0">
                    <SubmitButton
                      intent={`${ADD_INTENT}${s.postId}`}
                      pendingText="Adding…"
                      className="btn-primary py-1.5"
                      aria-label={`Add the link to “${s.title}”`}
                    >
                      Add link
                    </SubmitButton>
                  </Form>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
