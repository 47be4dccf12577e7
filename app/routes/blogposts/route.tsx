import { readForm } from '#app/platform/http/body.server'
import {
  defer,
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import {
  Await,
  Link,
  useLoaderData,
  useActionData,
  type ClientActionFunctionArgs,
  type ShouldRevalidateFunction,
} from '@remix-run/react'
import { Suspense } from 'react'
import { guardServerAction, revalidateUnlessFailed } from '#app/ui/client-failure'
import { PageHeader } from '#app/ui/page-header'
import { postListSchema, POSTS_PAGE_SIZE, type PostListParams } from '#app/features/content/library'
import { parseParams, withParams } from '#app/platform/lists/list-params'
import { POST_MESSAGES } from '#app/features/content/posts'
import { safeRedirect } from '#app/platform/security/redirect'
import { pagePosts, postCardsById, postLanguages, toCard } from '#app/features/content/library.server'
import { choicesFromForm, DELETION_MESSAGES } from '#app/features/publishing/deletion'
import {
  abandonDeletion,
  deletePostWithCopies,
  deletingPosts,
  liveCopiesOf,
  retryDeletion,
} from '#app/features/publishing/deletion.server'
import { BadCursorError } from '#app/platform/lists/keyset.server'
import { aiConfigured } from '#app/platform/ai/openai.server'
import { quotaRefusal } from '#app/features/billing/quota.server'
import { overlapMessage } from '#app/features/content/cannibalisation.server'
import { createPost, retryPost } from '#app/features/content/posts.server'
import { countWaitingDrafts } from '#app/features/publishing/review.server'
import { withPostProgress } from '#app/features/publishing/post-progress.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { useFailureToast } from './failure-toast'
import { Library } from './library'
import { FILTER_KEYS, LibraryFilters, type LibraryFilterValues } from './library-filters'
import { EmptyLibrary, LoadingPosts } from './library-states'
import { DeletingPosts } from './deleting-posts'

export const meta: MetaFunction = () => [{ title: 'Blog Posts · Rankwell' }]

/**
 * A delete or 'Try again' from a fetcher changes the cards in place: the list is not reloaded (which would drop
 * the pages added by 'Load more'); the toast still arrives through the root loader.
 */
export const shouldRevalidate: ShouldRevalidateFunction = (args) => {
  const intent = args.formData?.get('intent')
  // A post whose copies are being taken down appears in 'Being deleted': that list is reloaded.
  const deleting = (args.actionResult as { deleting?: boolean } | undefined)?.deleting === true
  if (args.formData?.get('respond') === 'json' && (intent === 'delete-post' || intent === 'retry-post') && !deleting)
    return false
  return revalidateUnlessFailed(args)
}

/** With JavaScript, a Create Post, Try again or Delete whose request fails becomes a `ClientFailure` (issue 12). */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)

export const DELETED_MESSAGE = DELETION_MESSAGES.deleted

/** The list's parameters from the URL; a bad value (a hand-edited URL) is dropped rather than failing the page. */
function listParams(search: URLSearchParams): PostListParams {
  const parsed = parseParams(postListSchema, search)
  if (parsed.ok) return parsed.data
  const clean = new URLSearchParams(search)
  for (const field of Object.keys(parsed.errors)) clean.delete(field)
  const again = parseParams(postListSchema, clean)
  return again.ok ? again.data : {}
}

/**
 * The library, one page of cards at a time (newest first), with search and filters in the URL. A document request
 * gets the finished page (so it works without JavaScript); a client-side navigation gets it deferred, and shows
 * 'Loading blog posts...' meanwhile. `?delete=<id>` shows the delete confirmation (the no-JavaScript path).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const url = new URL(request.url)
  // From server.ts: the request the loader gets no longer has Remix's `_data` parameter.
  const isDataRequest = context.dataRequest === true
  const params = listParams(url.searchParams)
  const filters = Object.fromEntries(FILTER_KEYS.map((k) => [k, params[k] ?? ''])) as LibraryFilterValues
  const filtered = FILTER_KEYS.some((k) => params[k])
  // A document request waits for its page, whose count statement also brings the languages and the drafts waiting
  // for review; a client navigation gets the page deferred and those two at once, on their own.
  const pending = pagePosts(user.id, params, { limit: POSTS_PAGE_SIZE, summary: !isDataRequest })
  // Each card with where its post stands (issue 35): one more statement for the whole page.
  const page = pending.then(async (p) => ({
    cards: await withPostProgress(user.id, p.rows.map(toCard)),
    total: p.total,
    nextCursor: p.nextCursor,
  }))
  let resolved: Awaited<typeof page>
  let summary: { languages: string[]; waitingForReview: number; anyDeleting: boolean } | undefined
  if (!isDataRequest) {
    try {
      ;[resolved, summary] = await Promise.all([page, pending])
    } catch (error) {
      if (error instanceof BadCursorError) throw redirect(withParams('/blogposts', url.searchParams, { cursor: null }))
      throw error
    }
  }
  page.catch(() => {})
  pending.catch(() => {})
  const deleteId = url.searchParams.get('delete')
  const [languages, [confirmDelete], confirmCopies, waitingForReview, deleting] = await Promise.all([
    summary?.languages ?? postLanguages(user.id),
    deleteId ? postCardsById(user.id, [deleteId]) : Promise.resolve([]),
    deleteId ? liveCopiesOf(user.id, deleteId) : Promise.resolve([]),
    summary?.waitingForReview ?? countWaitingDrafts(user.id).catch(() => 0),
    // The summary says whether any post is being deleted (issue 39: no statement of its own on most visits).
    summary?.anyDeleting === false ? ([] as Awaited<ReturnType<typeof deletingPosts>>) : deletingPosts(user.id),
  ])
  return defer({
    waitingForReview,
    page: isDataRequest ? page : resolved!,
    filters,
    filtered,
    cursor: params.cursor ?? null,
    languages,
    confirmDelete: confirmDelete ?? null,
    confirmCopies,
    deleting,
  })
}

/**
 * intent=create-post (from a keyword row), intent=retry-post ('Try again') and intent=delete-post. Without
 * JavaScript the answer is a redirect back to the page the form was on, with the toast; a fetcher (respond=json)
 * gets JSON and the toast.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  const back = safeRedirect(form.get('redirectTo'), '/blogposts')
  const asJson = form.get('respond') === 'json'

  if (intent === 'delete-post') {
    const postId = String(form.get('postId') ?? '')
    // The choices per live copy (`copy-<destinationId>`); a post with live copies and no choice is not deleted.
    const result = await deletePostWithCopies(
      user.id,
      postId,
      choicesFromForm(form, await liveCopiesOf(user.id, postId)),
    )
    if (!result.ok && result.reason === 'choices') {
      const message = { message: DELETION_MESSAGES.chooseCopies, duration: TOAST_MS }
      return asJson
        ? toast().jsonWithError({ ok: false, reason: 'choices', copies: result.copies }, message)
        : toast().redirectWithError(confirmationOf(back, postId), message)
    }
    const message = {
      message: !result.ok ? POST_MESSAGES.notFound : result.deleted ? DELETED_MESSAGE : DELETION_MESSAGES.deleting,
      duration: TOAST_MS,
    }
    if (asJson)
      return result.ok
        ? toast().jsonWithSuccess({ ok: true, postId, deleting: !result.deleted }, message)
        : toast().jsonWithError({ ok: false, reason: 'not_found' }, message)
    return result.ok ? toast().redirectWithSuccess(back, message) : toast().redirectWithError(back, message)
  }
  if (intent === 'retry-deletion' || intent === 'abandon-deletion') {
    const postId = String(form.get('postId') ?? '')
    const done =
      intent === 'retry-deletion' ? await retryDeletion(user.id, postId) : await abandonDeletion(user.id, postId)
    const message = {
      message: !done
        ? POST_MESSAGES.notFound
        : intent === 'retry-deletion'
          ? DELETION_MESSAGES.retried
          : DELETED_MESSAGE,
      duration: TOAST_MS,
    }
    return done ? toast().redirectWithSuccess(back, message) : toast().redirectWithError(back, message)
  }

  let result:
    { ok: true; postId: string } | { ok: false; reason: 'quota' | 'not_found' | 'unavailable' | 'in_progress' }
  if (intent === 'create-post') {
    const keywordId = String(form.get('keywordId') ?? '')
    const requestKey = String(form.get('requestKey') ?? '') || crypto.randomUUID()
    const force = form.get('force') === '1'
    const created = await createPost({ userId: user.id, keywordId, requestKey, source: 'manual', force })
    if (!created.ok && created.reason === 'overlap') {
      // The user decides: update the existing post, or write a new one anyway (the page /keywords/:id/write).
      const confirm = `/keywords/${keywordId}/write?${new URLSearchParams({ requestKey, redirectTo: back })}`
      return asJson
        ? json({ ok: false, reason: 'overlap', confirm, message: overlapMessage(created.overlap) })
        : redirect(confirm)
    }
    result = created
  } else if (intent === 'retry-post') {
    const postId = String(form.get('postId') ?? '')
    const retried = await retryPost(user.id, postId)
    result = retried.ok ? { ok: true, postId } : retried
  } else {
    return json({ ok: false, message: 'Unknown action.' }, { status: 400 })
  }

  if (result.ok) {
    const message = { message: POST_MESSAGES.created, duration: TOAST_MS, description: '/blogposts' }
    return asJson
      ? toast().jsonWithSuccess({ ok: true, postId: result.postId }, message)
      : toast().redirectWithSuccess(back, message)
  }
  const message =
    result.reason === 'quota'
      ? { message: (await quotaRefusal(user.id, 'blogPosts')).message, duration: TOAST_MS }
      : result.reason === 'in_progress'
        ? { message: POST_MESSAGES.inProgress, duration: TOAST_MS }
        : {
            message: POST_MESSAGES.failed,
            duration: TOAST_MS,
            ...(aiConfigured() ? {} : { description: POST_MESSAGES.aiOff }),
          }
  // 200 on purpose: the page's loaders (and so the toast) revalidate after any fetcher action that returns normally.
  return asJson
    ? toast().jsonWithError({ ok: false, reason: result.reason }, message)
    : toast().redirectWithError(back, message)
}

export default function BlogPostsPage() {
  const data = useLoaderData<typeof loader>()
  useFailureToast(useActionData<typeof clientAction>())
  const settled = isPromise(data.page) ? null : data.page
  const isEmpty = (page: { total: number }) => page.total === 0 && !data.filtered && !data.cursor
  const filtersForm = <LibraryFilters filters={data.filters} filtered={data.filtered} languages={data.languages} />
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <PageHeader title="Your SEO Content Library" subtitle="AI-optimized posts driving organic growth" />
      <DeletingPosts posts={data.deleting} />
      {data.waitingForReview > 0 ? (
        <p className="mb-6">
          <Link
            to="/autopilot#review"
            data-testid="review-badge"
            className="inline-flex items-center gap-2 rounded-full border border-yellow-300 bg-yellow-50 px-3 py-1 text-sm font-semibold text-yellow-900 hover:underline"
          >
            {data.waitingForReview} waiting for review
          </Link>
        </p>
      ) : null}
      {/* On a document request the page is already here: the search form is rendered outside the Suspense
          boundary, so that nothing inside the boundary can ever make React re-create it while hydrating, which
          would drop what was typed before the JavaScript arrived. */}
      {settled && !isEmpty(settled) ? filtersForm : null}
      <Suspense fallback={<LoadingPosts />}>
        <Await
          resolve={data.page}
          errorElement={<p className="text-slate-600">Your blog posts could not be loaded. Please reload the page.</p>}
        >
          {(page) =>
            isEmpty(page) ? (
              <EmptyLibrary />
            ) : (
              <>
                {settled ? null : filtersForm}
                <Library
                  key={JSON.stringify([data.filters, data.cursor])}
                  initial={page}
                  filtered={data.filtered}
                  cursor={data.cursor}
                  confirmDelete={data.confirmDelete}
                  confirmCopies={data.confirmCopies}
                />
              </>
            )
          }
        </Await>
      </Suspense>
    </div>
  )
}

/** The confirmation page (without JavaScript) of a post, on the list the user was on. */
function confirmationOf(back: string, postId: string) {
  const url = new URL(back, 'http://localhost')
  return withParams(url.pathname, url.searchParams, { delete: postId })
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}
