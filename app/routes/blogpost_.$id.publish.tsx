import { BackLink } from '#app/ui/back-link'
import { readForm } from '#app/platform/http/body.server'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useRevalidator } from '@remix-run/react'
import { useEffect } from 'react'
import { PageHeader } from '#app/ui/page-header'
import { SubmitButton } from '#app/ui/submit-button'
import { Toaster, type Toast } from '#app/ui/toaster'
import {
  approveForm,
  httpUrlOrNull,
  PUBLICATION_STATUS_LABELS,
  publishForm,
  PUBLISHING_MESSAGES,
  unverifiedClaims,
} from '#app/features/publishing/publishing'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { useSchemaForm } from '#app/ui/form'
import { Field } from '#app/ui/field'
import { POST_MESSAGES } from '#app/features/content/posts'
import { getPost } from '#app/features/content/posts.server'
import { listDestinations, toView } from '#app/features/publishing/destinations.server'
import { webhookTargetOf } from '#app/features/publishing/events.server'
import {
  listPublications,
  moveScheduled,
  requestPublish,
  type PublicationView,
  requestUnpublish,
} from '#app/features/publishing/publications.server'
import { approvePost, rejectPost } from '#app/features/publishing/review.server'
import { liveDiff, outdatedLiveCopies, updateLiveCopies } from '#app/features/publishing/live.server'
import { LiveDiff, UpdateLiveCopy } from '#app/features/publishing/components/live-copy'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { formatUtcDateTime } from '#app/platform/dates'
import { PostNotFound } from '#app/features/content/components/post-not-found'
import { ActionButton } from '#app/ui/action-button'
import { ClaimsPanel } from '#app/features/content/components/claims-panel'
import { claimsFilterOf, pagesOf, unverifiedWarning } from '#app/features/content/claims-view'
import { readClaims, readEvidence } from '#app/features/content/evidence'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.post ? `Publish “${data.post.title}” · Rankwell` : 'Publish · Rankwell' },
]

/**
 * 'Publish to…' for one post: destinations, schedule, review decision, the evidence a reviewer decides on (the claims
 * and their sources; `?claims=unverified` shows only the unverified ones), and the state of every copy.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const post = await getPost(user.id, params.id ?? '')
  if (!post)
    return json(
      {
        post: null,
        destinations: [],
        publications: [],
        webhook: null,
        claimsFilter: 'all' as const,
        outdated: [],
        diff: [],
      },
      { status: 404 },
    )
  const completed = post.status === 'completed'
  const [destinations, publications, webhookUrl, outdated] = await Promise.all([
    listDestinations(user.id),
    listPublications(user.id, [post.id]),
    webhookTargetOf(user.id),
    completed ? outdatedLiveCopies(user.id, post) : Promise.resolve([]),
  ])
  return json(
    {
      post: {
        id: post.id,
        title: post.title || post.keyword,
        status: post.status,
        reviewStatus: post.reviewStatus,
        seoScore: post.seoScore,
        scheduledPublishAt: post.scheduledPublishAt?.toISOString() ?? null,
        publishedUrl: post.publishedUrl,
        claims: completed ? readClaims(post.claims) : [],
        // What Auto Pilot's gate counts (the warning says it will not publish the post).
        blocking: completed ? unverifiedClaims(post.claims) : 0,
        pages: completed ? pagesOf(readEvidence(post.evidence)) : [],
        hasEvidence: post.evidence !== null,
      },
      claimsFilter: claimsFilterOf(new URL(request.url).searchParams),
      destinations: destinations.map(toView),
      publications,
      outdated,
      // The live copy against this version (Auto Pilot's review of a post that is already live, an edit).
      diff: completed ? liveDiff(post) : [],
      webhook: webhookUrl ? { host: new URL(webhookUrl).host } : null,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

type ActionData = {
  /** The form the reply belongs to ('publish' or 'approve'): each form shows its own errors and kept values. */
  intent?: string
  result?: SubmissionResult<string[]>
  toast?: Toast
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const post = await getPost(user.id, params.id ?? '')
  if (!post) return json<ActionData>({ toast: { type: 'error', message: POST_MESSAGES.notFound } }, { status: 404 })
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  const back = `/blogpost/${post.id}/publish`
  const ok = (message: string) => toast().redirectWithSuccess(back, { message, duration: TOAST_MS })
  const fail = (message: string, status = 400) =>
    json<ActionData>({ toast: { type: 'error', message, duration: TOAST_MS } }, { status })
  const target = String(form.get('target') ?? '')

  switch (intent) {
    case 'publish': {
      const submission = parseSubmission(form, publishForm)
      if (submission.status !== 'success')
        return json<ActionData>({ intent, result: submission.reply() }, { status: 400 })
      const { targets, publishAt } = submission.value
      const result = await requestPublish(user.id, post.id, targets, { publishAt })
      if (!result.ok) return fail(result.message, result.status)
      return ok(result.scheduled ? PUBLISHING_MESSAGES.scheduled : PUBLISHING_MESSAGES.queued)
    }
    case 'update':
    case 'recreate': {
      const result = await requestPublish(user.id, post.id, [target], { confirmRecreate: intent === 'recreate' })
      if (!result.ok) return fail(result.message, result.status)
      return ok(PUBLISHING_MESSAGES.queued)
    }
    case 'update-live': {
      const result = await updateLiveCopies(user.id, post.id)
      if (!result.ok) return fail(result.message, result.status)
      return ok(PUBLISHING_MESSAGES.queued)
    }
    case 'unpublish': {
      const result = await requestUnpublish(user.id, post.id, target)
      if (!result.ok) return fail(result.message, result.status)
      return ok(PUBLISHING_MESSAGES.unpublishQueued)
    }
    case 'approve': {
      const submission = parseSubmission(form, approveForm)
      if (submission.status !== 'success')
        return json<ActionData>({ intent, result: submission.reply() }, { status: 400 })
      const result = await approvePost(user.id, post.id, submission.value.publishAt)
      return result.ok ? ok(result.message) : fail(result.message, result.status)
    }
    case 'reject': {
      const result = await rejectPost(user.id, post.id)
      return result.ok ? ok(result.message) : fail(result.message, result.status)
    }
    case 'cancel-schedule':
      await moveScheduled(user.id, post.id, null)
      return ok('Schedule cancelled.')
    default:
      return fail('Unknown action.')
  }
}

const when = (iso: string) => formatUtcDateTime(iso, { year: true })

/** A kept form value that may be one string, several or none, as a list. */
const listOf = (value: unknown) => (Array.isArray(value) ? value : value === undefined ? [] : [value])

export default function PublishPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as ActionData | undefined
  const revalidator = useRevalidator()
  const replyTo = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined)
  const approve = useSchemaForm({ id: 'approve', schema: approveForm, lastResult: replyTo('approve') })
  const publish = useSchemaForm({ id: 'publish', schema: publishForm, lastResult: replyTo('publish') })
  // The ticked targets of a refused form, ticked again (without a reply: the destinations not published yet).
  const keptTargets = replyTo('publish') ? listOf(publish.fields.targets.initialValue) : null
  const targetsError = Object.values(publish.fields.targets.allErrors).flat()[0]
  const publications = data.publications as unknown as PublicationView[]
  const pending = publications.some((p) => p.status === 'pending')
  useEffect(() => {
    if (!pending || revalidator.state !== 'idle') return
    const timer = setTimeout(() => revalidator.revalidate(), 2_000)
    return () => clearTimeout(timer)
  }, [pending, revalidator])

  const post = data.post
  if (!post) return <PostNotFound />
  const byDestination = new Map(publications.map((p) => [p.destinationId, p]))
  const today = new Date().toISOString().slice(0, 10)
  const unverified = post.blocking
  // The evidence comes right after the review decision it informs, else after the rest of the page.
  const claimsPanel =
    post.status === 'completed' ? (
      <ClaimsPanel
        key={post.id}
        claims={post.claims}
        pages={post.hasEvidence ? post.pages : null}
        filter={data.claimsFilter}
        blocking={post.blocking}
        editHref={`/blogpost/${post.id}/edit`}
      />
    ) : null

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <BackLink to={`/blogpost/${post.id}`}>Back to the post</BackLink>
      <PageHeader title="Publish to…" subtitle={post.title} />
      <Toaster toast={actionData?.toast} />

      {post.status === 'completed' && unverified > 0 ? (
        <p
          className="mb-6 rounded-xl border-2 border-amber-400 bg-amber-50 p-4 text-sm text-amber-950"
          data-testid="review-unverified"
        >
          <strong className="block text-base">{unverifiedWarning(unverified)}</strong>
          <Link to="?claims=unverified#claims" className="font-semibold underline">
            See the unverified claims
          </Link>
        </p>
      ) : null}

      {post.reviewStatus === 'waiting' ? (
        <section
          className="card mb-6 border-yellow-200 bg-yellow-50"
          aria-labelledby="review-heading"
          data-testid="review-panel"
        >
          <h2 id="review-heading" className="text-lg font-semibold text-slate-900">
            Waiting for your review
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            Auto Pilot wrote this draft{post.seoScore !== null ? ` (SEO score ${post.seoScore})` : ''}. Approve it to
            publish it to Auto Pilot&apos;s destinations, now or on a date, or reject it: Auto Pilot will not use this
            keyword again.
          </p>
          <div className="mt-4 flex flex-wrap items-end gap-3">
            <Form method="post" className="flex flex-wrap items-end gap-3" {...approve.formProps}>
              <Field label="Publish on (optional)" meta={approve.fields.publishAt} type="date" min={today} />
              <SubmitButton intent="approve" pendingText="Approving…">
                Approve
              </SubmitButton>
            </Form>
            <Form method="post">
              <SubmitButton intent="reject" className="btn-secondary text-red-700" pendingText="Rejecting…">
                Reject
              </SubmitButton>
            </Form>
          </div>
        </section>
      ) : null}
      {post.reviewStatus === 'waiting' ? <div className="mb-6">{claimsPanel}</div> : null}

      <UpdateLiveCopy postId={post.id} destinations={data.outdated} />
      {data.diff.length > 0 ? (
        <details className="card mb-6" open={post.reviewStatus === 'waiting'}>
          <summary className="cursor-pointer text-sm font-semibold text-slate-900">Changes since the live copy</summary>
          <LiveDiff rows={data.diff} />
        </details>
      ) : null}

      {post.scheduledPublishAt ? (
        <p
          role="status"
          className="mb-6 flex flex-wrap items-center gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-slate-900"
        >
          <span data-testid="scheduled-at">Scheduled for {when(post.scheduledPublishAt)}.</span>
          <Link to="/calendar" className="font-semibold text-brand-700 hover:underline">
            Move it on the calendar
          </Link>
          <Form method="post">
            <SubmitButton intent="cancel-schedule" className="btn-secondary py-1">
              Cancel schedule
            </SubmitButton>
          </Form>
        </p>
      ) : null}

      {post.status !== 'completed' ? (
        <p className="card text-sm text-slate-700">{PUBLISHING_MESSAGES.notReady}</p>
      ) : data.destinations.length === 0 && !data.webhook ? (
        <p className="card text-sm text-slate-700">
          No destination yet.{' '}
          <Link to="/settings/publishing" className="font-semibold text-brand-700 hover:underline">
            Add WordPress, Ghost or Webflow
          </Link>{' '}
          or save a webhook on the Auto Pilot page.
        </p>
      ) : (
        <Form method="post" className="card grid gap-4" aria-labelledby="targets-heading" {...publish.formProps}>
          <fieldset>
            <legend id="targets-heading" className="text-lg font-semibold text-slate-900">
              Destinations
            </legend>
            <ul className="mt-3 grid gap-3">
              {data.destinations.map((d) => {
                const pub = byDestination.get(d.id)
                return (
                  <li key={d.id} className="flex items-start gap-3">
                    <input
                      id={`target-${d.id}`}
                      type="checkbox"
                      name={publish.fields.targets.name}
                      value={d.id}
                      disabled={d.paused}
                      defaultChecked={keptTargets ? keptTargets.includes(d.id) : !pub && !d.paused}
                      className="mt-1 h-4 w-4"
                    />
                    <label htmlFor={`target-${d.id}`} className="min-w-0 text-sm">
                      <span className="font-semibold text-slate-900">{d.name}</span>{' '}
                      <span className="text-slate-600">
                        ({d.kindLabel}
                        {d.paused ? ', paused' : ''})
                      </span>
                      {pub ? (
                        <span className="block text-slate-700" data-testid={`publication-${d.kind}`}>
                          {PUBLICATION_STATUS_LABELS[pub.status]}
                          {httpUrlOrNull(pub.remoteUrl) && pub.status === 'published' ? (
                            <>
                              {' · '}
                              <a
                                href={httpUrlOrNull(pub.remoteUrl)!}
                                className="break-all text-brand-700 hover:underline"
                                rel="noreferrer"
                                target="_blank"
                              >
                                {pub.remoteUrl}
                              </a>
                            </>
                          ) : null}
                          {pub.lastError ? <span className="block text-red-700">{pub.lastError}</span> : null}
                        </span>
                      ) : null}
                    </label>
                  </li>
                )
              })}
              {data.webhook ? (
                <li className="flex items-start gap-3">
                  <input
                    id="target-webhook"
                    type="checkbox"
                    name={publish.fields.targets.name}
                    value="webhook"
                    defaultChecked={keptTargets?.includes('webhook')}
                    className="mt-1 h-4 w-4"
                  />
                  <label htmlFor="target-webhook" className="text-sm">
                    <span className="font-semibold text-slate-900">Webhook</span>{' '}
                    <span className="text-slate-600">({data.webhook.host}: a signed post.published event)</span>
                  </label>
                </li>
              ) : null}
            </ul>
            {targetsError ? (
              <p id={publish.fields.targets.errorId} className="field-error mt-2" role="alert">
                {targetsError}
              </p>
            ) : null}
          </fieldset>
          <Field
            label="Publish on (optional, leave empty for now)"
            meta={publish.fields.publishAt}
            type="date"
            min={today}
            className="max-w-xs"
          />
          <div>
            <SubmitButton intent="publish" pendingText="Publishing…">
              Publish
            </SubmitButton>
          </div>
        </Form>
      )}

      {publications.length > 0 ? (
        <section className="card mt-6" aria-labelledby="copies-heading">
          <h2 id="copies-heading" className="text-lg font-semibold text-slate-900">
            Published copies
          </h2>
          <ul className="mt-3 divide-y divide-slate-200" data-testid="publication-list">
            {publications.map((p) => (
              <li key={p.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0 text-sm">
                  <p className="font-semibold text-slate-900">{p.destinationName}</p>
                  <p className="text-slate-700" data-testid="publication-status">
                    {PUBLICATION_STATUS_LABELS[p.status]}
                    {p.status === 'pending' && p.action === 'unpublish' ? ' (unpublishing)' : ''}
                    {p.publishedAt ? ` · first published ${when(p.publishedAt)}` : ''}
                  </p>
                  {p.lastError ? <p className="text-red-700">{p.lastError}</p> : null}
                </div>
                <div className="flex flex-wrap gap-2">
                  {p.status === 'published' || p.status === 'failed' ? (
                    <ActionButton
                      field={['target', p.destinationId]}
                      intent="update"
                      className="btn-secondary py-2"
                      pendingText="Updating…"
                    >
                      Update on {p.kind === 'wordpress' ? 'WordPress' : p.kind === 'ghost' ? 'Ghost' : 'Webflow'}
                    </ActionButton>
                  ) : null}
                  {p.status === 'published' ? (
                    <ActionButton
                      field={['target', p.destinationId]}
                      intent="unpublish"
                      className="btn-secondary py-2"
                      pendingText="Unpublishing…"
                    >
                      Unpublish
                    </ActionButton>
                  ) : null}
                  {p.status === 'missing' ? (
                    <ActionButton
                      field={['target', p.destinationId]}
                      intent="recreate"
                      className="btn-primary py-2"
                      pendingText="Publishing…"
                    >
                      Publish it again
                    </ActionButton>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {post.reviewStatus !== 'waiting' ? claimsPanel : null}
    </div>
  )
}
