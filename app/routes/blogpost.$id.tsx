import { BackLink } from '#app/ui/back-link'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useRevalidator } from '@remix-run/react'
import { readForm } from '#app/platform/http/body.server'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'
import { SubmitButton } from '#app/ui/submit-button'
import { markPostReviewed, unmarkPostReviewed } from '#app/features/content/post-review.server'
import { useEffect, useState } from 'react'
import { useHydrated } from '#app/ui/use-hydrated'
import { PostProgress } from '#app/features/content/components/post-card'
import { ScorePanel } from '#app/features/content/components/score-panel'
import { jsonLdScript } from '#app/features/content/content'
import type { ChecklistItem } from '#app/features/content/seo-checklist'
import { formatLongDate, withoutLeadingTitle } from '#app/features/content/posts'
import { PositionChart } from '#app/features/rankings/components/rank-chart'
import { getPost } from '#app/features/content/posts.server'
import { imageViews } from '#app/features/content/images/post-images.server'
import { withPictures } from '#app/features/content/images/images'
import { FeaturedImage } from '#app/features/content/components/post-images'
import { postRankings } from '#app/features/rankings/rankings.server'
import { aiVisibilityForPost } from '#app/features/visibility/read.server'
import { AiCitations } from '#app/features/visibility/components/ai-citations'
import { requireUser } from '#app/features/accounts/session.server'
import { PostNotFound } from '#app/features/content/components/post-not-found'
import { ClaimsPanel } from '#app/features/content/components/claims-panel'
import { claimsFilterOf, pagesOf, safeHref } from '#app/features/content/claims-view'
import { readClaims, readEvidence } from '#app/features/content/evidence'
import { unverifiedClaims } from '#app/features/publishing/publishing'
import { outdatedLiveCopies } from '#app/features/publishing/live.server'
import { UpdateLiveCopy } from '#app/features/publishing/components/live-copy'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.post ? `${data.post.title} · Rankwell` : 'Blog Post · Rankwell' },
  ...(data?.post?.metaDescription ? [{ name: 'description', content: data.post.metaDescription }] : []),
]

/**
 * One post of the signed-in user. Unknown ids, malformed ids and other users' posts all read 'No blog post found.'
 * `?claims=unverified` shows only the unverified claims (the filter without JavaScript).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const post = await getPost(user.id, params.id ?? '')
  if (!post)
    return json(
      { post: null, rankings: null, outdated: [], claimsFilter: 'all' as const, aiCitations: null },
      { status: 404 },
    )
  const completed = post.status === 'completed'
  const [rankings, outdated, aiCitations] = completed
    ? await Promise.all([
        postRankings(user.id, post.id),
        outdatedLiveCopies(user.id, post),
        // Issue 37: which AI answers cite this post (published posts only).
        post.publishedUrl ? aiVisibilityForPost(user.id, post.id) : null,
      ])
    : [null, [], null]
  const images = completed ? await imageViews(post.id) : []
  return json({
    rankings,
    outdated,
    aiCitations,
    claimsFilter: claimsFilterOf(new URL(request.url).searchParams),
    post: {
      id: post.id,
      title: post.title || post.keyword,
      metaDescription: post.metaDescription,
      status: post.status,
      failureReason: post.failureReason,
      reviewStatus: post.reviewStatus,
      reviewed: post.reviewedAt !== null,
      publishedUrl: completed ? post.publishedUrl : null,
      createdAt: post.createdAt.toISOString(),
      markdown: completed ? post.contentMarkdown : '',
      // Sanitized once when the post was written or edited (storedPostBody); served as stored.
      // Its own figures become <picture> elements (WebP and the JPEG fallback, with their size).
      html: completed ? withPictures(post.contentHtml, images) : '',
      images,
      seoScore: completed ? post.seoScore : null,
      checklist: completed ? ((post.seoChecklist ?? []) as ChecklistItem[]) : [],
      claims: completed ? readClaims(post.claims) : [],
      // What Auto Pilot's gate counts (the warning says it will not publish the post).
      blocking: completed ? unverifiedClaims(post.claims) : 0,
      // The research pages (read and not read); the facts stay on the server.
      pages: completed ? pagesOf(readEvidence(post.evidence)) : [],
      hasEvidence: post.evidence !== null,
      jsonLd: completed ? ((post.jsonLd ?? []) as unknown[]) : [],
      researchStatus: post.researchStatus,
      brief: completed ? ((post.brief ?? null) as StoredBrief | null) : null,
      // Issue 36: a cluster's post also covers its sibling searches.
      secondaryKeywords: post.secondaryKeywords,
    },
  })
}

/**
 * POST /blogpost/:id, intent `reviewed` (issue 35): 'Mark as reviewed' (`reviewed=1`) and its 'Undo' (`reviewed=0`).
 * A plain form: back to the post with a toast, with or without JavaScript.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const form = await readForm(request)
  const postId = params.id ?? ''
  if (form.get('intent') !== 'reviewed') return json(null, { status: 400 })
  const on = form.get('reviewed') !== '0'
  const done = on ? await markPostReviewed(user.id, postId) : await unmarkPostReviewed(user.id, postId)
  const back = `/blogpost/${encodeURIComponent(postId)}`
  if (!done)
    return toast().redirectWithError(back, { message: 'This post cannot be marked as reviewed.', duration: TOAST_MS })
  return toast().redirectWithSuccess(back, {
    message: on ? 'Marked as reviewed.' : 'No longer marked as reviewed.',
    duration: TOAST_MS,
  })
}

type StoredBrief = {
  searchIntent: string
  reader: string
  angle: string
  targetWords: number
  outline: Array<{ heading: string; subheadings: string[]; keyPoints: string[] }>
  questions: string[]
  facts: Array<{ text: string; sourceUrl: string }>
  researchStatus: 'full' | 'partial' | 'none'
  researchNotes: string[]
  competitors: Array<{ url: string; title: string; words: number }>
}

/** 'Why this post is written this way': the stored brief (a <details>, so it opens without JavaScript). */
function BriefPanel({ brief }: { brief: StoredBrief }) {
  return (
    <details className="mt-4 rounded-lg border border-slate-200 p-4" data-testid="post-brief">
      <summary className="cursor-pointer font-semibold text-slate-900">Why this post is written this way</summary>
      <div className="mt-3 space-y-3 text-sm text-slate-700">
        {brief.researchStatus === 'none' ? (
          <p className="font-medium text-amber-800">Written without search data.</p>
        ) : null}
        {brief.researchNotes.map((note) => (
          <p key={note} className="text-slate-600">
            {note}
          </p>
        ))}
        <p>
          <strong>Search intent:</strong> {brief.searchIntent}. <strong>Reader:</strong> {brief.reader}
        </p>
        <p>
          <strong>Angle:</strong> {brief.angle}
        </p>
        <p>
          <strong>Target length:</strong> about {brief.targetWords} words
          {brief.competitors.some((c) => c.words > 0) ? ' (from the length of the pages that rank)' : ''}.
        </p>
        <div>
          <strong>Outline:</strong>
          <ol className="ml-5 list-decimal">
            {brief.outline.map((s) => (
              <li key={s.heading}>
                {s.heading}
                {s.subheadings.length ? <span className="text-slate-500"> — {s.subheadings.join(' · ')}</span> : null}
              </li>
            ))}
          </ol>
        </div>
        {brief.questions.length ? (
          <div>
            <strong>Questions answered:</strong>
            <ul className="ml-5 list-disc">
              {brief.questions.map((q) => (
                <li key={q}>{q}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {brief.competitors.length ? (
          <div>
            <strong>What ranks today:</strong>
            <ol className="ml-5 list-decimal">
              {brief.competitors.map((c) => (
                <li key={c.url}>
                  <a
                    href={safeHref(c.url)}
                    rel="nofollow noreferrer"
                    target="_blank"
                    className="text-brand-700 underline"
                  >
                    {c.title || c.url}
                  </a>
                  {c.words ? <span className="text-slate-500"> ({c.words} words)</span> : null}
                </li>
              ))}
            </ol>
          </div>
        ) : null}
      </div>
    </details>
  )
}

export default function BlogPostPage() {
  const { post, rankings, claimsFilter, outdated, aiCitations } = useLoaderData<typeof loader>()
  const revalidator = useRevalidator()
  const unfinished = post !== null && (post.status === 'queued' || post.status === 'generating')
  useEffect(() => {
    if (!unfinished || revalidator.state !== 'idle') return
    const timer = setTimeout(() => revalidator.revalidate(), 3_000)
    return () => clearTimeout(timer)
  }, [unfinished, revalidator])

  if (!post) return <PostNotFound />

  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      <BackLink to="/blogposts">Blog Posts</BackLink>
      <header className="mt-4 border-b border-slate-200 pb-6">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{post.title}</h1>
        <p className="mt-2 text-sm text-slate-500">
          <time dateTime={post.createdAt}>{formatLongDate(post.createdAt)}</time>
        </p>
        {post.secondaryKeywords.length ? (
          <p className="mt-2 text-sm text-slate-600 [overflow-wrap:anywhere]" data-testid="post-also-covers">
            {`Also covers: ${post.secondaryKeywords.join(', ')}`}
          </p>
        ) : null}
        {post.reviewStatus === 'waiting' ? (
          <p
            role="status"
            className="mt-3 rounded-lg border border-yellow-200 bg-yellow-50 p-3 text-sm text-yellow-900"
          >
            This draft is waiting for your review.{' '}
            <Link to={`/blogpost/${post.id}/publish`} className="font-semibold underline">
              Review and publish
            </Link>
          </p>
        ) : null}
        {post.status === 'completed' ? (
          <>
            <PostTools post={post} />
            <ReviewedForm postId={post.id} reviewed={post.reviewed} />
            <div className="mt-3">
              <UpdateLiveCopy postId={post.id} destinations={outdated ?? []} />
            </div>
            {post.publishedUrl ? (
              <p className="mt-3 text-sm text-slate-600" data-testid="post-live">
                Live at{' '}
                <a href={safeHref(post.publishedUrl)} className="break-all text-brand-700 underline" rel="noreferrer">
                  {post.publishedUrl}
                </a>
                .{' '}
                <Link to={`/blogpost/${post.id}/links`} className="font-semibold text-brand-700 underline">
                  Link to it from older posts
                </Link>
              </p>
            ) : null}
            {typeof post.seoScore === 'number' ? <ScorePanel score={post.seoScore} items={post.checklist} /> : null}
            {post.brief ? <BriefPanel brief={post.brief} /> : null}
            <ClaimsPanel
              key={post.id}
              claims={post.claims}
              pages={post.hasEvidence ? post.pages : null}
              filter={claimsFilter}
              blocking={post.blocking}
              editHref={`/blogpost/${post.id}/edit`}
            />
          </>
        ) : (
          <>
            <PostProgress post={post} redirectTo={`/blogpost/${post.id}`} />
            {unfinished ? <WhileWriting postId={post.id} /> : null}
          </>
        )}
      </header>
      {post.jsonLd.map((data, i) => (
        <script
          key={i}
          type="application/ld+json"
          // JSON with <, > and & escaped: cannot close the element.
          dangerouslySetInnerHTML={{ __html: jsonLdScript(data) }}
        />
      ))}
      {rankings ? (
        <section className="mt-6 rounded-lg border border-slate-200 p-4" aria-labelledby="post-rankings">
          <h2 id="post-rankings" className="text-lg font-semibold text-slate-900">
            Rankings
          </h2>
          <PositionChart
            id="post-chart"
            keyword={rankings.keyword || post.title}
            points={rankings.points}
            traffic={rankings.traffic}
          />
        </section>
      ) : null}
      {aiCitations ? <AiCitations citations={aiCitations.citations} /> : null}
      {post.status === 'completed' ? <FeaturedImage images={post.images} /> : null}
      {post.status === 'completed' ? (
        <div
          className="post-body mt-8 text-slate-800 [overflow-wrap:anywhere] [&_a]:text-brand-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-slate-200 [&_blockquote]:pl-4 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_h1]:mt-8 [&_h1]:text-3xl [&_h1]:font-bold [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-semibold [&_h3]:mt-6 [&_h3]:text-xl [&_h3]:font-semibold [&_img]:my-4 [&_img]:max-w-full [&_li]:mt-1 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-4 [&_p]:leading-7 [&_pre]:mt-4 [&_pre]:whitespace-pre-wrap [&_table]:mt-4 [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6"
          // Sanitized with DOMPurify when the post was written or edited (storedPostBody), stored in content_html.
          dangerouslySetInnerHTML={{ __html: withoutLeadingTitle(post.html, post.title) }}
        />
      ) : null}
    </article>
  )
}

/** 'Mark as reviewed', then 'Reviewed ✓' with 'Undo': one plain form (intent `reviewed`). */
function ReviewedForm({ postId, reviewed }: { postId: string; reviewed: boolean }) {
  return (
    <Form
      method="post"
      action={`/blogpost/${postId}`}
      className="mt-3 flex flex-wrap items-center gap-3 text-sm"
      data-testid="post-reviewed"
    >
      <input type="hidden" name="reviewed" value={reviewed ? '0' : '1'} />
      {reviewed ? (
        <>
          <span className="font-semibold text-green-800">Reviewed ✓</span>
          <SubmitButton intent="reviewed" className="btn-secondary py-1" pendingText="Undoing...">
            Undo
          </SubmitButton>
        </>
      ) : (
        <>
          <SubmitButton intent="reviewed" className="btn-secondary py-1.5" pendingText="Saving...">
            Mark as reviewed
          </SubmitButton>
          <span className="text-slate-600">Read it through and check its facts first.</span>
        </>
      )}
    </Form>
  )
}

/** While the post is written: with JavaScript the page updates itself; without, it says to reload. */
function WhileWriting({ postId }: { postId: string }) {
  const hydrated = useHydrated()
  return (
    <p className="mt-2 text-sm text-slate-600" data-testid="post-writing-note">
      {hydrated ? (
        'This page updates by itself when your post is ready.'
      ) : (
        <>
          Writing takes a minute or two.{' '}
          <a href={`/blogpost/${postId}`} className="font-semibold text-brand-700 underline">
            Reload the page
          </a>{' '}
          to see the result.
        </>
      )}
    </p>
  )
}

type CopyKind = 'markdown' | 'html'

/** Copy (JavaScript), download and view links (no JavaScript needed). */
function PostTools({ post }: { post: { id: string; markdown: string; html: string } }) {
  const hydrated = useHydrated()
  const [copied, setCopied] = useState<CopyKind | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(null), 2_000)
    return () => clearTimeout(timer)
  }, [copied])

  async function copy(kind: CopyKind) {
    try {
      await navigator.clipboard.writeText(kind === 'markdown' ? post.markdown : post.html)
      setFailed(false)
      setCopied(kind)
    } catch {
      setFailed(true)
    }
  }

  const base = `/blogpost/${post.id}/download`
  return (
    <div className="mt-4 flex flex-wrap items-center gap-2 text-sm" role="group" aria-label="Export this post">
      {hydrated ? (
        <>
          <button type="button" className="btn-secondary py-1.5" onClick={() => void copy('markdown')}>
            {copied === 'markdown' ? 'Copied!' : 'Copy Markdown'}
          </button>
          <button type="button" className="btn-secondary py-1.5" onClick={() => void copy('html')}>
            {copied === 'html' ? 'Copied!' : 'Copy HTML'}
          </button>
        </>
      ) : null}
      <Link to={`/blogpost/${post.id}/edit`} className="btn-secondary py-1.5">
        Edit
      </Link>
      <Link to={`/blogpost/${post.id}/publish`} className="btn-primary py-1.5">
        Publish to…
      </Link>
      <a href={`${base}?format=md`} download className="btn-secondary py-1.5">
        Download .md
      </a>
      <a href={`${base}?format=html`} download className="btn-secondary py-1.5">
        Download .html
      </a>
      <a href={`${base}?format=html&view=source`} className="btn-secondary py-1.5" target="_blank" rel="noreferrer">
        View HTML
      </a>
      <span role="status" className="text-slate-600">
        {failed ? 'Copying is blocked by your browser: use the download links.' : ''}
      </span>
    </div>
  )
}
