import { Link, useFetcher, useLocation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { PostCard } from '#app/features/content/components/post-card'
import type { LibraryCard } from '#app/features/content/library.server'
import { withParams } from '#app/platform/lists/list-params'
import { SiteLink, useSiteLinkClick } from '#app/ui/site-link'
import { useHydrated } from '#app/ui/use-hydrated'
import type { LiveCopy } from '#app/features/publishing/deletion'
import { DeletePostDialog } from './delete-post-dialog'

const POLL_MS = 3_000
const thousands = new Intl.NumberFormat('en-US')
type Page = { cards: LibraryCard[]; total: number; nextCursor: string | null }
/** What /blogposts/status answers. */
type StatusAnswer = { cards: LibraryCard[]; total: number | null; nextCursor: string | null } | { message: string }

/**
 * The card grid. 'Load more' is a link to the next page (without JavaScript); with JavaScript it appends the next
 * page in place. While a post is being written it asks for that post's fresh status every few seconds.
 */
export function Library({
  initial,
  filtered,
  cursor,
  confirmDelete,
  confirmCopies,
}: {
  initial: Page
  filtered: boolean
  cursor: string | null
  confirmDelete: LibraryCard | null
  /** The live copies of the post of the confirmation page (without JavaScript). */
  confirmCopies: LiveCopy[]
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
          copies={confirming ? undefined : confirmCopies}
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
