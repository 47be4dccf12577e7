import { Form } from '@remix-run/react'
import type { MouseEvent, ReactNode } from 'react'
import { SiteLink } from '#app/ui/site-link'
import { formatLongDate, statusLabel, type PostStatus } from '#app/features/content/posts'
import { PostProgressBadge, type PostProgress as Progress } from '#app/ui/post-progress'

export type PostCardData = {
  id: string
  title: string
  status: PostStatus
  failureReason: string | null
  createdAt: string
  excerpt: string
  seoScore?: number | null
  /** Review before publishing: null (not needed), 'waiting', 'approved' or 'rejected'. */
  reviewStatus?: 'waiting' | 'approved' | 'rejected' | null
  /** Issue 35: where the post stands (word count, reviewed, scheduled, published where). */
  progress?: Progress | null
}

const thousands = new Intl.NumberFormat('en-US')

/** A written post's review state, in the owner's words. */
export function reviewLabel(
  reviewStatus: PostCardData['reviewStatus'],
  reviewed: boolean,
): { text: string; className: string } {
  if (reviewStatus === 'waiting') return { text: 'Waiting for your review', className: 'text-yellow-900' }
  if (reviewStatus === 'rejected') return { text: 'Rejected', className: 'text-red-700' }
  if (reviewed) return { text: 'Reviewed', className: 'text-green-800' }
  return { text: 'Not reviewed', className: 'text-slate-600' }
}

/**
 * What a written post's card says about it (issue 35): its length and review state, and, once scheduled or live,
 * when and where (each destination linking to the live copy).
 */
function PostFacts({ post }: { post: PostCardData }) {
  const progress = post.progress
  if (!progress) return null
  const review = reviewLabel(post.reviewStatus ?? null, progress.reviewed === true)
  const where = progress.state === 'scheduled' || progress.state === 'published'
  return (
    <div className="mt-2 space-y-1 text-sm" data-testid="post-facts">
      <p className="flex flex-wrap items-center gap-x-2 text-slate-600">
        {typeof progress.words === 'number' ? (
          <span data-testid="word-count">{`${thousands.format(progress.words)} ${progress.words === 1 ? 'word' : 'words'}`}</span>
        ) : null}
        {typeof progress.words === 'number' ? <span aria-hidden="true">·</span> : null}
        <span className={`font-medium ${review.className}`} data-testid="review-state">
          {review.text}
        </span>
      </p>
      {where ? (
        <p>
          <PostProgressBadge progress={progress} />
        </p>
      ) : null}
    </div>
  )
}

/** The SEO score (0–100) as a small badge: green from 80, amber from 50, red below. */
export function SeoScoreBadge({ score }: { score: number }) {
  const tone =
    score >= 80
      ? 'bg-green-100 text-green-800'
      : score >= 50
        ? 'bg-yellow-100 text-yellow-800'
        : 'bg-red-100 text-red-800'
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}
      data-testid="seo-score"
      title="SEO score: the share of the SEO checklist this post passes"
    >
      SEO {score}/100
    </span>
  )
}

/** 'Try again' for a failed post: a plain form (works without JavaScript). */
export function RetryPostForm({ postId, redirectTo }: { postId: string; redirectTo: string }) {
  return (
    <Form method="post" action="/blogposts" className="inline">
      <input type="hidden" name="intent" value="retry-post" />
      <input type="hidden" name="postId" value={postId} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button type="submit" className="font-semibold text-brand-700 underline hover:text-brand-800">
        Try again
      </button>
    </Form>
  )
}

/** What an unfinished post says instead of its excerpt. */
export function PostProgress({
  post,
  redirectTo,
}: {
  post: Pick<PostCardData, 'id' | 'status' | 'failureReason'>
  redirectTo: string
}) {
  const label = statusLabel(post.status)
  if (label)
    return (
      <p className="mt-3 flex items-center gap-2 text-sm text-slate-600" role="status" data-post-status={post.status}>
        <span aria-hidden="true" className="h-2 w-2 animate-pulse rounded-full bg-brand-500" />
        {label}
      </p>
    )
  // A <div>, not a <p>: a <form> cannot sit in a paragraph (the browser's parser closes the paragraph before it, and
  // the page then no longer matches what React rendered on the server: hydration error #418).
  if (post.status === 'failed')
    return (
      <div className="mt-3 text-sm text-red-700" data-post-status="failed">
        {`Failed: ${post.failureReason ?? 'Something went wrong while writing the post.'} `}
        <RetryPostForm postId={post.id} redirectTo={redirectTo} />
      </div>
    )
  return null
}

/**
 * `actions` (such as Delete) are shown next to 'Read More'. The card's links are plain anchors that follow through
 * `onFollow`, the list's one `useSiteLinkClick()` handler (a page of 20 cards would otherwise run the router hooks of
 * 40 `<Link>`s while it renders; see site-link.tsx).
 */
export function PostCard({
  post,
  actions,
  onFollow,
}: {
  post: PostCardData
  actions?: ReactNode
  onFollow: (event: MouseEvent<HTMLAnchorElement>) => void
}) {
  const href = `/blogpost/${post.id}`
  return (
    <article className="card flex flex-col" data-testid="post-card" data-post-id={post.id}>
      <h2 className="text-xl font-semibold leading-snug text-slate-900">
        <SiteLink to={href} onClick={onFollow} className="hover:text-brand-700">
          {post.title}
        </SiteLink>
      </h2>
      <p className="mt-1 flex items-center gap-2 text-sm text-slate-500">
        <time dateTime={post.createdAt}>{formatLongDate(post.createdAt)}</time>
        {post.status === 'completed' && typeof post.seoScore === 'number' ? (
          <SeoScoreBadge score={post.seoScore} />
        ) : null}
      </p>
      {post.status === 'completed' ? <PostFacts post={post} /> : null}
      {post.status === 'completed' ? (
        <p className="mt-3 flex-1 text-slate-700 [overflow-wrap:anywhere]">{post.excerpt}</p>
      ) : (
        <div className="flex-1">
          <PostProgress post={post} redirectTo="/blogposts" />
        </div>
      )}
      <div className="mt-4 flex items-center justify-between gap-3">
        <SiteLink
          to={href}
          onClick={onFollow}
          className="text-sm font-semibold text-brand-700 hover:text-brand-800"
          aria-label={`Read More: ${post.title}`}
        >
          Read More
        </SiteLink>
        {actions}
      </div>
    </article>
  )
}
