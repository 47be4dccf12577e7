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
  Form,
  Link,
  useFetcher,
  useLoaderData,
  useActionData,
  useLocation,
  type ClientActionFunctionArgs,
  type ShouldRevalidateFunction,
} from '@remix-run/react'
import { Suspense, useEffect, useRef, useState } from 'react'
import { useHydrated } from '#app/ui/use-hydrated'
import { SiteLink, useSiteLinkClick } from '#app/ui/site-link'
import { showToast } from '#app/ui/toaster'
import { clientFailureOf, guardServerAction, revalidateUnlessFailed } from '#app/ui/client-failure'
import { PostCard } from '#app/features/content/components/post-card'
import { ConfirmDialog } from '#app/ui/confirm-dialog'
import { PageHeader } from '#app/ui/page-header'
import {
  POST_ORIGIN_FILTERS,
  POST_REVIEW_FILTERS,
  POST_STATUS_FILTERS,
  postListSchema,
  POSTS_PAGE_SIZE,
  type PostListParams,
} from '#app/features/content/library'
import { parseParams, withParams } from '#app/platform/lists/list-params'
import { POST_MESSAGES } from '#app/features/content/posts'
import { safeRedirect } from '#app/platform/security/redirect'
import {
  deletePost,
  pagePosts,
  postCardsById,
  postLanguages,
  toCard,
  type LibraryCard,
} from '#app/features/content/library.server'
import { BadCursorError } from '#app/platform/lists/keyset.server'
import { aiConfigured } from '#app/platform/ai/openai.server'
import { quotaRefusal } from '#app/features/billing/quota.server'
import { overlapMessage } from '#app/features/content/cannibalisation.server'
import { createPost, retryPost } from '#app/features/content/posts.server'
import { countWaitingDrafts } from '#app/features/publishing/review.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'

export const meta: MetaFunction = () => [{ title: 'Blog Posts · Rankwell' }]

/**
 * A delete or 'Try again' from a fetcher changes the cards in place: the list is not reloaded (which would drop
 * the pages added by 'Load more'); the toast still arrives through the root loader.
 */
export const shouldRevalidate: ShouldRevalidateFunction = (args) => {
  const intent = args.formData?.get('intent')
  if (args.formData?.get('respond') === 'json' && (intent === 'delete-post' || intent === 'retry-post')) return false
  return revalidateUnlessFailed(args)
}

/** With JavaScript, a Create Post, Try again or Delete whose request fails becomes a `ClientFailure` (issue 12). */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)

export const DELETED_MESSAGE = 'Blog post deleted.'
/** The toasts of this route's actions when their request fails in the browser. */
const FAILED_MESSAGES: Record<string, string> = {
  'create-post': POST_MESSAGES.failed,
  'retry-post': 'The post could not be restarted. Please try again.',
  'delete-post': 'The blog post could not be deleted. Please try again.',
}

/** Toasts the failure (if any) of one of this route's actions. */
function useFailureToast(data: unknown) {
  const failure = clientFailureOf(data)
  useEffect(() => {
    if (failure)
      showToast({ type: 'error', message: FAILED_MESSAGES[failure.intent ?? ''] ?? FAILED_MESSAGES['retry-post']! })
  }, [failure])
}
const FILTER_KEYS = ['q', 'status', 'source', 'language', 'review'] as const

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
  const filters = Object.fromEntries(FILTER_KEYS.map((k) => [k, params[k] ?? ''])) as Record<
    (typeof FILTER_KEYS)[number],
    string
  >
  const filtered = FILTER_KEYS.some((k) => params[k])
  // A document request waits for its page, whose count statement also brings the languages and the drafts waiting
  // for review; a client navigation gets the page deferred and those two at once, on their own.
  const pending = pagePosts(user.id, params, { limit: POSTS_PAGE_SIZE, summary: !isDataRequest })
  const page = pending.then((p) => ({ cards: p.rows.map(toCard), total: p.total, nextCursor: p.nextCursor }))
  let resolved: Awaited<typeof page>
  let summary: { languages: string[]; waitingForReview: number } | undefined
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
  const [languages, [confirmDelete], waitingForReview] = await Promise.all([
    summary?.languages ?? postLanguages(user.id),
    deleteId ? postCardsById(user.id, [deleteId]) : Promise.resolve([]),
    summary?.waitingForReview ?? countWaitingDrafts(user.id).catch(() => 0),
  ])
  return defer({
    waitingForReview,
    page: isDataRequest ? page : resolved!,
    filters,
    filtered,
    cursor: params.cursor ?? null,
    languages,
    confirmDelete: confirmDelete ?? null,
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
    const deleted = await deletePost(user.id, postId)
    const message = { message: deleted ? DELETED_MESSAGE : POST_MESSAGES.notFound, duration: TOAST_MS }
    if (asJson)
      return deleted
        ? toast().jsonWithSuccess({ ok: true, postId }, message)
        : toast().jsonWithError({ ok: false, reason: 'not_found' }, message)
    return deleted ? toast().redirectWithSuccess(back, message) : toast().redirectWithError(back, message)
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
                />
              </>
            )
          }
        </Await>
      </Suspense>
    </div>
  )
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}

function LoadingPosts() {
  return (
    <p role="status" className="py-16 text-center text-slate-600">
      Loading blog posts...
    </p>
  )
}

/** One filter of the library: a select whose first option, `anyLabel`, does not filter. */
function FilterSelect({
  label,
  name,
  value,
  anyLabel,
  options,
  className,
}: {
  label: string
  name: string
  value: string
  anyLabel: string
  options: Array<[value: string, label: string]>
  className: string
}) {
  return (
    <label className="block text-sm font-medium text-slate-700">
      {label}
      <select name={name} defaultValue={value} className={className}>
        <option value="">{anyLabel}</option>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </label>
  )
}

/** Search and filters: a GET form, so the state lives in the URL (shareable, and it works without JavaScript). */
function LibraryFilters({
  filters,
  filtered,
  languages,
}: {
  filters: Record<(typeof FILTER_KEYS)[number], string>
  filtered: boolean
  languages: string[]
}) {
  const select = 'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm'
  return (
    <Form
      method="get"
      action="/blogposts"
      role="search"
      aria-label="Search blog posts"
      key={JSON.stringify(filters)}
      className="card mb-6 grid gap-3 md:grid-cols-[2fr_1fr_1fr_1fr_1fr_auto] md:items-end"
    >
      <label className="block text-sm font-medium text-slate-700">
        Search
        <input
          type="search"
          name="q"
          defaultValue={filters.q}
          maxLength={200}
          placeholder="Title or keyword"
          className={select}
        />
      </label>
      <FilterSelect
        label="Status"
        name="status"
        value={filters.status}
        anyLabel="All statuses"
        options={Object.entries(POST_STATUS_FILTERS).map(([value, f]) => [value, f.label])}
        className={select}
      />
      <FilterSelect
        label="Origin"
        name="source"
        value={filters.source}
        anyLabel="All origins"
        options={Object.entries(POST_ORIGIN_FILTERS)}
        className={select}
      />
      <FilterSelect
        label="Language"
        name="language"
        value={filters.language}
        anyLabel="All languages"
        options={languages.map((language) => [language, language])}
        className={select}
      />
      <FilterSelect
        label="Review"
        name="review"
        value={filters.review}
        anyLabel="Any review state"
        options={Object.entries(POST_REVIEW_FILTERS)}
        className={select}
      />
      <div className="flex items-center gap-3">
        <button type="submit" className="btn-primary">
          Search
        </button>
        {filtered ? (
          <Link to="/blogposts" className="text-sm font-semibold text-brand-700 hover:text-brand-800">
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  )
}

const POLL_MS = 3_000
const thousands = new Intl.NumberFormat('en-US')
type Page = { cards: LibraryCard[]; total: number; nextCursor: string | null }
/** What /blogposts/status answers. */
type StatusAnswer = { cards: LibraryCard[]; total: number | null; nextCursor: string | null } | { message: string }

/**
 * The card grid. 'Load more' is a link to the next page (without JavaScript); with JavaScript it appends the next
 * page in place. While a post is being written it asks for that post's fresh status every few seconds.
 */
function Library({
  initial,
  filtered,
  cursor,
  confirmDelete,
}: {
  initial: Page
  filtered: boolean
  cursor: string | null
  confirmDelete: LibraryCard | null
}) {
  const location = useLocation()
  const hydrated = useHydrated()
  const follow = useSiteLinkClick()
  const [cards, setCards] = useState(initial.cards)
  const [total, setTotal] = useState(initial.total)
  const [nextCursor, setNextCursor] = useState(initial.nextCursor)
  const [confirming, setConfirming] = useState<LibraryCard | null>(null)
  const more = useFetcher<StatusAnswer>()
  const poll = useFetcher<StatusAnswer>()
  const load = useRef(poll.load)
  load.current = poll.load

  useEffect(() => {
    if (!more.data || !('cards' in more.data) || more.state !== 'idle') return
    const page = more.data
    setCards((current) => {
      const seen = new Set(current.map((c) => c.id))
      return [...current, ...page.cards.filter((c) => !seen.has(c.id))]
    })
    setNextCursor(page.nextCursor)
    if (page.total !== null) setTotal(page.total)
  }, [more.data, more.state])
  useEffect(() => {
    if (!poll.data || !('cards' in poll.data)) return
    const fresh = new Map(poll.data.cards.map((c) => [c.id, c]))
    setCards((current) => current.map((c) => fresh.get(c.id) ?? c))
  }, [poll.data])
  const pendingIds = cards
    .filter((c) => c.status === 'queued' || c.status === 'generating')
    .map((c) => c.id)
    .join(',')
  useEffect(() => {
    if (!pendingIds) return
    const timer = setTimeout(() => load.current(`/blogposts/status?ids=${pendingIds}`), POLL_MS)
    return () => clearTimeout(timer)
  }, [pendingIds, poll.data])

  const search = new URLSearchParams(location.search)
  search.delete('delete')
  const here = withParams(location.pathname, search, {})
  const nextHref = nextCursor ? withParams('/blogposts', search, { cursor: nextCursor }) : null
  const dialogCard = confirming ?? (hydrated ? null : confirmDelete)

  return (
    <>
      <p className="mb-4 text-sm text-slate-600" data-testid="post-total">
        {filtered
          ? `${thousands.format(total)} ${total === 1 ? 'post matches' : 'posts match'} your search`
          : `${thousands.format(total)} ${total === 1 ? 'post' : 'posts'}`}
      </p>
      {cards.length === 0 ? (
        <p className="card py-10 text-center text-slate-600" data-testid="no-results">
          {filtered ? 'No blog posts match your search.' : 'No more blog posts.'}
        </p>
      ) : (
        <div className="grid gap-6 md:grid-cols-2" data-testid="post-grid">
          {cards.map((post) => (
            <PostCard
              key={post.id}
              post={post}
              onFollow={follow}
              actions={
                // Without JavaScript (or before hydration) the link shows the confirmation page; with it, the dialog.
                <SiteLink
                  to={withParams('/blogposts', search, { delete: post.id })}
                  className="text-sm font-semibold text-red-700 hover:text-red-800"
                  aria-label={`Delete: ${post.title}`}
                  onClick={(e) => {
                    if (!hydrated) return
                    e.preventDefault()
                    setConfirming(post)
                  }}
                >
                  Delete
                </SiteLink>
              }
            />
          ))}
        </div>
      )}
      <nav aria-label="Pages" className="mt-8 flex flex-wrap items-center justify-center gap-4">
        {cursor ? (
          <Link to={withParams('/blogposts', search, { cursor: null })} className="btn-secondary">
            First page
          </Link>
        ) : null}
        {nextHref ? (
          <Link
            to={nextHref}
            className="btn-secondary"
            aria-busy={more.state !== 'idle' || undefined}
            onClick={(e) => {
              if (!hydrated) return
              e.preventDefault()
              if (more.state === 'idle')
                more.load(withParams('/blogposts/status', search, { cursor: nextCursor, ids: null }))
            }}
          >
            {more.state !== 'idle' ? 'Loading...' : 'Load more'}
          </Link>
        ) : null}
      </nav>
      {dialogCard ? (
        <DeletePostDialog
          post={dialogCard}
          redirectTo={here}
          onClose={hydrated ? () => setConfirming(null) : undefined}
          onDeleted={(id) => {
            setCards((current) => current.filter((c) => c.id !== id))
            setTotal((t) => Math.max(0, t - 1))
            setConfirming(null)
          }}
        />
      ) : null}
    </>
  )
}

/** The confirmation before a post is deleted: a plain form without JavaScript, a fetcher with it. */
function DeletePostDialog({
  post,
  redirectTo,
  onClose,
  onDeleted,
}: {
  post: LibraryCard
  redirectTo: string
  onClose?: () => void
  onDeleted: (id: string) => void
}) {
  const fetcher = useFetcher<typeof clientAction>()
  const hydrated = useHydrated()
  const busy = fetcher.state !== 'idle'
  useFailureToast(fetcher.data)
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data && 'ok' in fetcher.data && fetcher.data.ok) onDeleted(post.id)
  }, [fetcher.state, fetcher.data, onDeleted, post.id])
  return (
    <ConfirmDialog
      title="Delete blog post"
      message={`Delete “${post.title}”? This cannot be undone, and the post you used for it is not given back.`}
      closeHref={redirectTo}
      onClose={onClose}
      action={
        <fetcher.Form method="post" action="/blogposts">
          <input type="hidden" name="intent" value="delete-post" />
          <input type="hidden" name="postId" value={post.id} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          {hydrated ? <input type="hidden" name="respond" value="json" /> : null}
          <button type="submit" className="btn-primary bg-red-600 hover:bg-red-700" disabled={busy}>
            {busy ? 'Deleting...' : 'Delete'}
          </button>
        </fetcher.Form>
      }
    />
  )
}

function EmptyLibrary() {
  return (
    <div className="card mx-auto max-w-xl py-12 text-center">
      <h2 className="text-2xl font-semibold text-slate-900">Start Your Content Journey</h2>
      <p className="mt-3 text-slate-600">Create your first SEO-optimized blog post to drive organic traffic</p>
      <Link to="/keywords" className="btn-primary mt-6">
        Explore Keywords
      </Link>
    </div>
  )
}
