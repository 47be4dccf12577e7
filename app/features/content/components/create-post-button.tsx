import { useFetcher, useLocation, useNavigate } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { POST_MESSAGES } from '#app/features/content/posts'
import { showToast } from '#app/ui/toaster'
import { clientFailureOf, withoutFailure, type ClientFailure } from '#app/ui/client-failure'
import { useHydrated } from '#app/ui/use-hydrated'

/** The page view's key, made once by the component that renders a list of buttons. */
export function usePageKey() {
  const [key] = useState(pageNonce)
  return key
}

/** A random key made once per page view; the list creates it once and hands it to every row's button. */
export function pageNonce() {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * 'Create Post' on a keyword row. A form posting to /blogposts (intent=create-post), so it works without JavaScript:
 * the action then redirects back here with the toast. With JavaScript it is a fetcher: disabled with a pending label
 * while it runs, and the toast arrives through the root loader's revalidation.
 *
 * The request key is the keyword id plus a nonce made once per page view (in the server-rendered HTML, which the
 * browser keeps on hydration). Clicking the same rendered button twice, or resubmitting the same page from another
 * tab, sends the same key, and the server makes at most one post for it; after a reload, a click is a new request.
 * A keyword whose post is still being written refuses a second one (a toast says so); when a finished post (or a
 * page) covers a very similar search, the user decides on /keywords/:id/write (update it, or write anyway).
 */
type CreatePostButtonProps = {
  keywordId: string
  /** The page view's key from `usePageKey()` in the list that renders the buttons. */
  pageKey: string
  className?: string
}

/** True in the server's render (no document): the row controls render their markup alone there (see below). */
const onServer = typeof document === 'undefined'

export function CreatePostButton(props: CreatePostButtonProps) {
  // A keyword page has a button per row (50 on a full page): on the server each renders the plain form it stands for,
  // without the fetcher, location and navigation hooks that only the browser uses (issue 21: those hooks were most
  // of a full page's render time). The browser renders the live fetcher form over the same markup when it hydrates.
  return onServer ? <CreatePostMarkup {...props} /> : <LiveCreatePostButton {...props} />
}

function CreatePostMarkup(props: CreatePostButtonProps) {
  const location = useLocation()
  return (
    <form method="post" action="/blogposts">
      <CreatePostFields
        {...props}
        redirectTo={`${location.pathname}${location.search}`}
        hydrated={false}
        busy={false}
      />
    </form>
  )
}

function LiveCreatePostButton(props: CreatePostButtonProps) {
  const fetcher = useFetcher<CreatePostAnswer | ClientFailure>()
  const failure = clientFailureOf(fetcher.data)
  // A request that failed in the browser (no answer, a 5xx, a proxy's page) gets the spec's error toast.
  useEffect(() => {
    if (failure) showToast({ type: 'error', message: POST_MESSAGES.failed })
  }, [failure])
  const answer = withoutFailure(fetcher.data)
  const location = useLocation()
  const navigate = useNavigate()
  // A keyword too close to an existing post: the user decides on the confirmation page.
  const confirm = fetcher.state === 'idle' && answer?.reason === 'overlap' ? answer.confirm : undefined
  useEffect(() => {
    if (confirm) navigate(confirm)
  }, [confirm, navigate])
  const hydrated = useHydrated()
  return (
    <fetcher.Form method="post" action="/blogposts">
      <CreatePostFields
        {...props}
        redirectTo={`${location.pathname}${location.search}`}
        hydrated={hydrated}
        busy={fetcher.state !== 'idle'}
      />
    </fetcher.Form>
  )
}

/** The form's fields and button: the same markup on the server and, once hydrated, in the browser. */
function CreatePostFields({
  keywordId,
  pageKey,
  className = 'btn-primary px-3 py-1.5 text-xs',
  redirectTo,
  hydrated,
  busy,
}: CreatePostButtonProps & { redirectTo: string; hydrated: boolean; busy: boolean }) {
  return (
    <>
      <input type="hidden" name="intent" value="create-post" />
      <input type="hidden" name="keywordId" value={keywordId} />
      {/* The server's value stays in the DOM after hydration (the client's own nonce is never rendered over it). */}
      <input type="hidden" name="requestKey" defaultValue={`${keywordId}.${pageKey}`} suppressHydrationWarning />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {hydrated ? <input type="hidden" name="respond" value="json" /> : null}
      <button type="submit" className={className} disabled={busy} aria-busy={busy || undefined}>
        {busy ? 'Creating...' : 'Create Post'}
      </button>
    </>
  )
}

/** What /blogposts answers a fetcher's 'create-post' with (the rest of its fields are not read here). */
type CreatePostAnswer = { ok: boolean; reason?: string; confirm?: string }
