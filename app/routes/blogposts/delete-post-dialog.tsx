import { useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import type { LibraryCard } from '#app/features/content/library.server'
import { COPY_CHOICE_LABELS, COPY_CHOICES, type LiveCopy } from '#app/features/publishing/deletion'
import type { ClientFailure } from '#app/ui/client-failure'
import { ConfirmDialog } from '#app/ui/confirm-dialog'
import { useHydrated } from '#app/ui/use-hydrated'
import { useFailureToast } from './failure-toast'

/** What the action answers a fetcher's intent=delete-post (or the failure of its request in the browser). */
type DeleteAnswer = { ok: boolean; deleting?: boolean; copies?: LiveCopy[] } | ClientFailure

/**
 * The confirmation before a post is deleted: a plain form without JavaScript (the server brings the post's live
 * copies), a fetcher with it (the copies are asked for when it opens). A post live on a site asks, per copy, what
 * happens to it there: unpublish it, delete it there, or leave it.
 */
export function DeletePostDialog({
  post,
  copies: serverCopies,
  redirectTo,
  onClose,
  onDeleted,
}: {
  post: LibraryCard
  /** The live copies as the server found them (the page without JavaScript); undefined: ask for them. */
  copies?: LiveCopy[]
  redirectTo: string
  onClose?: () => void
  onDeleted: (id: string) => void
}) {
  const fetcher = useFetcher<DeleteAnswer>()
  const lookup = useFetcher<{ copies: LiveCopy[] }>()
  const hydrated = useHydrated()
  const busy = fetcher.state !== 'idle'
  useFailureToast(fetcher.data)
  const load = lookup.load
  useEffect(() => {
    if (serverCopies === undefined) load(`/blogposts/copies?id=${encodeURIComponent(post.id)}`)
  }, [serverCopies, load, post.id])
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data && 'ok' in fetcher.data && fetcher.data.ok) onDeleted(post.id)
  }, [fetcher.state, fetcher.data, onDeleted, post.id])
  // A copy that went live since the dialog opened comes back with the refusal.
  const refused = fetcher.data && 'copies' in fetcher.data ? fetcher.data.copies : undefined
  const copies = refused ?? serverCopies ?? lookup.data?.copies
  const formId = `delete-post-${post.id}`
  return (
    <ConfirmDialog
      title="Delete blog post"
      message={
        copies && copies.length > 0
          ? `Delete “${post.title}”? This cannot be undone, and the post you used for it is not given back. It is live on your site: choose what happens to each copy there.`
          : `Delete “${post.title}”? This cannot be undone, and the post you used for it is not given back.`
      }
      closeHref={redirectTo}
      onClose={onClose}
      action={
        <fetcher.Form method="post" action="/blogposts" id={formId}>
          <input type="hidden" name="intent" value="delete-post" />
          <input type="hidden" name="postId" value={post.id} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          {hydrated ? <input type="hidden" name="respond" value="json" /> : null}
          <button
            type="submit"
            className="btn-primary bg-red-600 hover:bg-red-700"
            disabled={busy || copies === undefined}
          >
            {busy ? 'Deleting...' : copies === undefined ? 'Checking the live copies...' : 'Delete'}
          </button>
        </fetcher.Form>
      }
    >
      {copies && copies.length > 0 ? (
        <div className="mt-4 grid gap-3" data-testid="live-copies">
          {copies.map((copy) => (
            <fieldset key={copy.destinationId} className="rounded-lg border border-slate-200 p-3">
              <legend className="px-1 text-sm font-semibold text-slate-900">
                {copy.destinationName} ({copy.kindLabel})
              </legend>
              {copy.remoteUrl ? <p className="break-all text-xs text-slate-600">{copy.remoteUrl}</p> : null}
              <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
                {COPY_CHOICES.map((choice) => (
                  <label key={choice} className="flex items-center gap-2 text-sm text-slate-800">
                    <input
                      type="radio"
                      form={formId}
                      name={`copy-${copy.destinationId}`}
                      value={choice}
                      required
                      className="h-4 w-4"
                    />
                    {COPY_CHOICE_LABELS[choice]}
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
        </div>
      ) : null}
    </ConfirmDialog>
  )
}
