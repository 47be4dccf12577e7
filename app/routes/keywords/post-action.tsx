import { Form } from '@remix-run/react'
import type { MouseEvent } from 'react'
import { CreatePostButton } from '#app/features/content/components/create-post-button'
import type { KeywordRow } from '#app/features/keywords/components/keyword-table'
import { SiteLink } from '#app/ui/site-link'

/**
 * A keyword row's post action (issue 35): 'Create Post' for a keyword without a post; for a keyword that has one, a
 * link to it ('View post') instead of a second 'Create Post' made blindly: a post that failed offers 'Try again', a
 * written one 'Write another', which leads to the page that shows the post the keyword already has and lets the
 * owner update it or write a new one anyway. Every one is a link or a plain form, so they work without JavaScript.
 * The row's keyword describes them (`keyword-<id>`).
 */
export function KeywordPostAction({
  keyword,
  pageKey,
  returnTo,
  onFollow,
}: {
  keyword: KeywordRow
  pageKey: string
  /** Where 'Try again' comes back to: the list as the user has it. */
  returnTo: string
  onFollow: (event: MouseEvent<HTMLAnchorElement>) => void
}) {
  const post = keyword.post
  if (!post) return <CreatePostButton keywordId={keyword.id} pageKey={pageKey} />
  const describedBy = `keyword-${keyword.id}`
  return (
    <>
      {post.state === 'failed' ? (
        <Form method="post" action="/blogposts" className="inline">
          <input type="hidden" name="intent" value="retry-post" />
          <input type="hidden" name="postId" value={post.postId} />
          <input type="hidden" name="redirectTo" value={returnTo} />
          <button type="submit" className="btn-primary px-3 py-1.5 text-xs" aria-describedby={describedBy}>
            Try again
          </button>
        </Form>
      ) : null}
      <SiteLink
        to={`/blogpost/${post.postId}`}
        onClick={onFollow}
        className={
          post.state === 'failed'
            ? 'text-xs font-semibold text-brand-700 underline hover:text-brand-800'
            : 'btn-secondary px-3 py-1.5 text-xs'
        }
        aria-describedby={describedBy}
        data-testid="view-post"
      >
        View post
      </SiteLink>
      {post.state !== 'failed' && post.state !== 'writing' ? (
        <SiteLink
          to={`/keywords/${keyword.id}/write?${new URLSearchParams({ redirectTo: returnTo })}`}
          onClick={onFollow}
          className="text-xs font-semibold text-brand-700 underline hover:text-brand-800"
          aria-describedby={describedBy}
        >
          Write another
        </SiteLink>
      ) : null}
    </>
  )
}
