import { Fragment } from 'react'
import { formatUtcDateTime } from '#app/platform/dates'

/**
 * Where a post stands (issue 35, docs/contracts.md "Post progress"), as the keyword rows, the library's cards and
 * Auto Pilot's status table show it; made by `postProgressForKeywords` / `postProgressForPosts`
 * (app/features/publishing/post-progress.server.ts).
 * - writing: queued or being generated; failed: generation failed ('Try again' offers a new attempt);
 * - ready: written, not waiting for review, not scheduled, not published;
 * - waiting: Auto Pilot holds it for the owner's review (review_status 'waiting');
 * - scheduled: to be published at `scheduledAt`; published: live on `destinations` (name and live URL; the webhook
 *   is 'your webhook', without a URL).
 * `score` (0–100), `words` and `reviewed` (marked as reviewed, or approved) describe a written post.
 */
export type PostProgress = {
  postId: string
  state: 'writing' | 'failed' | 'ready' | 'waiting' | 'scheduled' | 'published'
  scheduledAt?: string
  destinations?: Array<{ name: string; url: string | null }>
  score?: number | null
  words?: number
  reviewed?: boolean
}

export type PostState = PostProgress['state']

const TONES: Record<PostState, string> = {
  writing: 'border-sky-200 bg-sky-50 text-sky-900',
  failed: 'border-red-200 bg-red-50 text-red-900',
  ready: 'border-slate-200 bg-slate-50 text-slate-800',
  waiting: 'border-yellow-300 bg-yellow-50 text-yellow-900',
  scheduled: 'border-violet-200 bg-violet-50 text-violet-900',
  published: 'border-green-200 bg-green-50 text-green-900',
}
const DOTS: Record<PostState, string> = {
  writing: 'bg-sky-500 animate-pulse',
  failed: 'bg-red-600',
  ready: 'bg-slate-500',
  waiting: 'bg-yellow-500',
  scheduled: 'bg-violet-500',
  published: 'bg-green-600',
}

/** The date of a scheduled publication, in UTC as every other time on the site: 'Dec 3, 2026, 09:00 AM UTC'. */
export const scheduledDate = (iso: string) => formatUtcDateTime(iso, { year: true })

/** The state in words (the badge's text without its links). */
export function postStateLabel(progress: PostProgress): string {
  switch (progress.state) {
    case 'writing':
      return 'Writing…'
    case 'failed':
      return 'Failed'
    case 'ready':
      return progress.reviewed ? 'Reviewed, ready to publish' : 'Ready for review'
    case 'waiting':
      return 'Waiting for your review'
    case 'scheduled':
      return progress.scheduledAt ? `Scheduled for ${scheduledDate(progress.scheduledAt)}` : 'Scheduled'
    case 'published': {
      const names = (progress.destinations ?? []).map((d) => d.name)
      return names.length ? `Published on ${names.join(', ')}` : 'Published'
    }
  }
}

/** A live copy's address, only when it is a web address (a destination's answer is data, never a script). */
function webUrl(url: string | null): string | null {
  if (!url) return null
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null
  } catch {
    return null
  }
}

/**
 * A post's state as a small labelled badge: the words say it (the colour only repeats them). A published post names
 * where it is live, each name linking to the live copy when it has an address.
 */
export function PostProgressBadge({ progress, className = '' }: { progress: PostProgress; className?: string }) {
  const destinations = progress.state === 'published' ? (progress.destinations ?? []) : []
  return (
    <span
      className={`inline-flex max-w-full flex-wrap items-center gap-x-1.5 rounded-full border px-2 py-0.5 text-xs font-semibold [overflow-wrap:anywhere] ${TONES[progress.state]} ${className}`}
      data-post-state={progress.state}
      data-testid="post-progress"
    >
      <span aria-hidden="true" className={`h-1.5 w-1.5 shrink-0 rounded-full ${DOTS[progress.state]}`} />
      {destinations.length > 0 ? (
        <span>
          {'Published on '}
          {destinations.map((d, i) => {
            const href = webUrl(d.url)
            return (
              <Fragment key={`${d.name}-${i}`}>
                {i > 0 ? ', ' : null}
                {href ? (
                  <a href={href} className="underline hover:no-underline" rel="noopener noreferrer">
                    {d.name}
                  </a>
                ) : (
                  d.name
                )}
              </Fragment>
            )
          })}
        </span>
      ) : (
        <span>{postStateLabel(progress)}</span>
      )}
    </span>
  )
}
