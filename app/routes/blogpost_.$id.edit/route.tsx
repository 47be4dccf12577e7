import { BackLink } from '#app/ui/back-link'
import { PostNotFound } from '#app/features/content/components/post-not-found'
import { readForm } from '#app/platform/http/body.server'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { useActionData, useLoaderData, type ClientActionFunctionArgs } from '@remix-run/react'
import {
  clientFailureOf,
  failureMessage,
  guardServerAction,
  revalidateUnlessFailed,
  withoutFailure,
} from '#app/ui/client-failure'
import { useEffect } from 'react'
import { showToast } from '#app/ui/toaster'
import { ScorePanel } from '#app/features/content/components/score-panel'
import { useHydrated } from '#app/ui/use-hydrated'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import {
  EDITOR_FAILED_MESSAGES,
  editorFormSchema,
  editorPreviewSchema,
  splitTitle,
} from '#app/features/content/post-editor'
import type { ChecklistItem } from '#app/features/content/seo-checklist'
import { listVersions, restoreVersion, rewriteSection, saveEdit } from '#app/features/content/post-editor.server'
import { getPost } from '#app/features/content/posts.server'
import { hit } from '#app/platform/security/rate-limit.server'
import { sanitizeHtml } from '#app/platform/security/sanitize.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { Editor } from './editor'
import { imageViews } from '#app/features/content/images/post-images.server'
import { ImagesPanel } from '#app/features/content/components/post-images'
import { previewSource } from './preview'
import { Versions } from './versions'
import { outdatedLiveCopies } from '#app/features/publishing/live.server'
import { UpdateLiveCopy } from '#app/features/publishing/components/live-copy'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.post ? `Edit “${data.post.title}” · Rankwell` : 'Edit · Rankwell' },
  { name: 'robots', content: 'noindex' },
]

/**
 * The editor of a finished post (/blogpost/:id/edit): title, slug, meta description and the Markdown body, a
 * live preview with JavaScript and a Preview button without, 'Rewrite this section', and the last 20 versions
 * with restore. Every save recomputes the score and checklist and sanitizes the HTML again.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const post = await getPost(user.id, params.id ?? '')
  if (!post) return json({ post: null, versions: [], outdated: [] }, { status: 404 })
  if (post.status !== 'completed') return json({ post: null, versions: [], outdated: [] }, { status: 409 })
  const [versions, outdated] = await Promise.all([listVersions(post.id), outdatedLiveCopies(user.id, post)])
  return json(
    {
      outdated,
      post: {
        id: post.id,
        title: post.title,
        slug: post.slug,
        metaDescription: post.metaDescription,
        body: splitTitle(post.contentMarkdown).body,
        seoScore: post.seoScore ?? 0,
        checklist: (post.seoChecklist ?? []) as ChecklistItem[],
        editedAt: post.editedAt?.toISOString() ?? null,
        images: await imageViews(post.id),
      },
      versions,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

type ActionData = {
  intent: string
  /** The edit form's reply: its fields' messages and what was sent. */
  result?: SubmissionResult<string[]>
  /** A refusal of a form without fields (a restore). */
  message?: string
  /** The sanitized HTML of the Preview button (without JavaScript). */
  preview?: string
}

/** intent=save, rewrite, preview (the edit form) or restore (a version's form). */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const id = params.id ?? ''
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  const back = `/blogpost/${id}/edit`
  const saved = (what: string, score: number) =>
    toast().redirectWithSuccess(back, { message: `${what} SEO score ${score}/100.`, duration: TOAST_MS })

  switch (intent) {
    case 'preview': {
      const submission = parseSubmission(form, editorPreviewSchema)
      const body = submission.status === 'success' ? (submission.value.body ?? '') : ''
      return json<ActionData>({ intent, result: submission.reply(), preview: sanitizeHtml(previewSource(body)) })
    }
    case 'save':
    case 'rewrite': {
      const submission = parseSubmission(form, editorFormSchema)
      const refuse = (r: { status: number; message: string; field?: string }) =>
        json<ActionData>(
          {
            intent,
            result: submission.reply(
              r.field ? { fieldErrors: { [r.field]: [r.message] } } : { formErrors: [r.message] },
            ),
          },
          { status: r.status },
        )
      if (intent === 'rewrite') {
        const limit = await hit(`rewrite:${user.id}`, { limit: 20, windowSeconds: 300, failOpen: true })
        if (!limit.allowed)
          return refuse({ status: 429, message: `Too many rewrites. Try again in ${limit.retryAfterSeconds} seconds.` })
      }
      if (submission.status !== 'success')
        return json<ActionData>({ intent, result: submission.reply() }, { status: 400 })
      const { edit, rewrite } = submission.value
      const r = rewrite ? await rewriteSection(user.id, id, edit, rewrite) : await saveEdit(user.id, id, edit)
      return r.ok ? saved(rewrite ? 'Section rewritten.' : 'Saved.', r.score.score) : refuse(r)
    }
    case 'restore': {
      const r = await restoreVersion(user.id, id, String(form.get('versionId') ?? ''))
      return r.ok
        ? saved('Version restored.', r.score.score)
        : json<ActionData>({ intent, message: r.message }, { status: r.status })
    }
    default:
      return json<ActionData>({ intent, message: 'Unknown action.' }, { status: 400 })
  }
}

/**
 * With JavaScript (issue 12): a save, rewrite or restore whose request fails in the browser (no answer, a 5xx, a
 * proxy's page) keeps the editor with what was typed and says that nothing was saved.
 */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

export default function EditPost() {
  const { post, versions, outdated } = useLoaderData<typeof loader>()
  const response = useActionData<typeof clientAction>()
  const hydrated = useHydrated()
  // A failed restore (its form sends no fields) is a toast; a failed save or rewrite the editor's banner. Either way
  // the editor stays as it is, with what was typed.
  const failure = clientFailureOf(response)
  const restoreFailure = failure?.intent === 'restore' ? failure : null
  useEffect(() => {
    if (restoreFailure)
      showToast({ type: 'error', message: failureMessage(restoreFailure, EDITOR_FAILED_MESSAGES.restore!) })
  }, [restoreFailure])
  if (!post) return <PostNotFound />
  const answer = withoutFailure(response)
  const failed =
    failure && !restoreFailure
      ? failureMessage(failure, EDITOR_FAILED_MESSAGES[failure.intent ?? 'save'] ?? EDITOR_FAILED_MESSAGES.save!)
      : undefined
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <BackLink to={`/blogpost/${post.id}`}>Back to the post</BackLink>
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Edit “{post.title}”</h1>
      <div className="mt-4">
        <UpdateLiveCopy postId={post.id} destinations={outdated} />
      </div>
      <Editor
        // A new version (a save, a rewrite, a restore) starts the form again from the saved post.
        key={versions[0]?.id ?? 'none'}
        post={post}
        lastResult={answer?.result}
        message={failed ?? answer?.message}
        preview={answer?.preview}
        hydrated={hydrated}
      />
      <ImagesPanel postId={post.id} images={post.images} />
      <ScorePanel score={post.seoScore} items={post.checklist} />
      <Versions versions={versions} />
    </div>
  )
}
