import { useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import type { LibraryCard } from '#app/features/content/library.server'
import type { ClientFailure } from '#app/ui/client-failure'
import { ConfirmDialog } from '#app/ui/confirm-dialog'
import { useHydrated } from '#app/ui/use-hydrated'
import { useFailureToast } from './failure-toast'

/** What the action answers a fetcher's intent=delete-post (or the failure of its request in the browser). */
type DeleteAnswer = { ok: boolean } | ClientFailure

/** The confirmation before a post is deleted: a plain form without JavaScript, a fetcher with it. */
export function DeletePostDialog({
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
  const fetcher = useFetcher<DeleteAnswer>()
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
