import { defer, json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Await, Link, useFetcher, useLoaderData } from '@remix-run/react'
import { Suspense, useEffect, useRef, useState } from 'react'
import { PostCard, type PostCardData } from '#app/components/post-card'
import { PageHeader } from '#app/components/ui/dialog'
import { QUOTA_MESSAGES } from '#app/lib/plans'
import { safeRedirect } from '#app/lib/redirect'
import { aiConfigured } from '#app/server/openai.server'
import { createPost, listPostCards, POST_MESSAGES, reconcileStalePosts, retryPost } from '#app/server/posts.server'
import { countWaitingDrafts } from '#app/server/publishing/review.server'
import { requireUser } from '#app/server/session.server'
import { toast, TOAST_MS } from '#app/server/toast.server'
import type { loader as statusLoader } from './blogposts.status'

export const meta: MetaFunction = () => [{ title: 'Blog Posts · Rankwell' }]

/**
 * The library. A document request gets the finished list (so it works without JavaScript); a client-side
 * navigation gets it deferred, and shows 'Loading blog posts...' meanwhile.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const isDataRequest = new URL(request.url).searchParams.has('_data')
  const cards = reconcileStalePosts(user.id)
    .catch((error: unknown) => console.error('[posts] stale check failed', error))
    .then(() => listPostCards(user.id))
  const waitingForReview = await countWaitingDrafts(user.id).catch(() => 0)
  return defer({ cards: isDataRequest ? cards : await cards, waitingForReview })
}

/**
 * intent=create-post (from a keyword row) and intent=retry-post ('Try again'). Without JavaScript the answer is a
 * redirect back to the page the form was on, with the toast; a fetcher (respond=json) gets JSON and the toast.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const back = safeRedirect(form.get('redirectTo'), '/blogposts')
  const asJson = form.get('respond') === 'json'

  let result: { ok: true; postId: string } | { ok: false; reason: 'quota' | 'not_found' | 'unavailable' }
  if (intent === 'create-post') {
    const keywordId = String(form.get('keywordId') ?? '')
    const requestKey = String(form.get('requestKey') ?? '') || crypto.randomUUID()
    result = await createPost({ userId: user.id, keywordId, requestKey, source: 'manual' })
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
      ? { message: QUOTA_MESSAGES.blogPosts, duration: TOAST_MS }
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
      <Suspense fallback={<LoadingPosts />}>
        <Await
          resolve={data.cards}
          errorElement={<p className="text-slate-600">Your blog posts could not be loaded. Please reload the page.</p>}
        >
          {(cards) => <Library initial={cards} />}
        </Await>
      </Suspense>
    </div>
  )
}

function LoadingPosts() {
  return (
    <p role="status" className="py-16 text-center text-slate-600">
      Loading blog posts...
    </p>
  )
}

const POLL_MS = 3_000

/** The card grid. While a post is being written it asks for fresh statuses every few seconds (JavaScript only). */
function Library({ initial }: { initial: PostCardData[] }) {
  const [cards, setCards] = useState(initial)
  const poll = useFetcher<typeof statusLoader>()
  const load = useRef(poll.load)
  load.current = poll.load
  useEffect(() => setCards(initial), [initial])
  useEffect(() => {
    if (poll.data) setCards(poll.data.cards)
  }, [poll.data])
  const pending = cards.some((c) => c.status === 'queued' || c.status === 'generating')
  useEffect(() => {
    if (!pending) return
    const timer = setTimeout(() => load.current('/blogposts/status'), POLL_MS)
    return () => clearTimeout(timer)
  }, [pending, cards])

  if (cards.length === 0) return <EmptyLibrary />
  return (
    <div className="grid gap-6 md:grid-cols-2" data-testid="post-grid">
      {cards.map((post) => (
        <PostCard key={post.id} post={post} />
      ))}
    </div>
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
