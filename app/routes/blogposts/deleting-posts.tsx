import type { DeletingPost } from '#app/features/publishing/deletion'
import { PUBLICATION_STATUS_LABELS, type PublicationStatus } from '#app/features/publishing/publishing'
import { ActionButton } from '#app/ui/action-button'

/**
 * 'Being deleted': the posts whose live copies are coming down (they are in no other list). A copy that could not
 * be taken down says why, with 'Try again' and 'Leave it there and delete the post' (plain forms).
 */
export function DeletingPosts({ posts }: { posts: DeletingPost[] }) {
  if (posts.length === 0) return null
  return (
    <section
      className="card mb-6 border-amber-200 bg-amber-50"
      aria-labelledby="deleting-heading"
      data-testid="deleting-posts"
    >
      <h2 id="deleting-heading" className="text-base font-semibold text-slate-900">
        Being deleted
      </h2>
      <ul className="mt-2 divide-y divide-amber-200">
        {posts.map((post) => (
          <li key={post.id} className="py-3 text-sm" data-testid="deleting-post">
            <p className="font-semibold text-slate-900 [overflow-wrap:anywhere]">{post.title}</p>
            <ul className="mt-1 grid gap-1 text-slate-700">
              {post.copies.map((copy, i) => (
                <li key={i}>
                  {copy.destinationName} ({copy.kindLabel}):{' '}
                  {copy.status === 'pending'
                    ? 'being taken down…'
                    : (PUBLICATION_STATUS_LABELS[copy.status as PublicationStatus] ?? copy.status)}
                  {copy.status === 'failed' && copy.lastError ? (
                    <span className="block text-red-700">{copy.lastError}</span>
                  ) : null}
                </li>
              ))}
            </ul>
            {post.stuck ? (
              <div className="mt-2 flex flex-wrap gap-2">
                <ActionButton
                  field={['postId', post.id]}
                  intent="retry-deletion"
                  className="btn-secondary py-1"
                  pendingText="Trying again…"
                >
                  Try again
                </ActionButton>
                <ActionButton
                  field={['postId', post.id]}
                  intent="abandon-deletion"
                  className="btn-secondary py-1 text-red-700"
                  pendingText="Deleting…"
                >
                  Leave it there and delete the post
                </ActionButton>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}
