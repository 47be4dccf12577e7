import { BackLink } from '#app/ui/back-link'
import { PostNotFound } from '#app/features/content/components/post-not-found'
import { readForm } from '#app/platform/http/body.server'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { useActionData, useBlocker, useLoaderData, type ClientActionFunctionArgs } from '@remix-run/react'
import {
  clientFailureOf,
  failureMessage,
  guardServerAction,
  revalidateUnlessFailed,
  withoutFailure,
} from '#app/ui/client-failure'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
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
import {
  editorContext,
  listVersions,
  restoreVersion,
  rewriteSection,
  saveEdit,
} from '#app/features/content/post-editor.server'
import { liveChecklist, type EditorFields } from '#app/features/content/post-editor-notes'
import {
  draftKey,
  draftOutcome,
  offerMessage,
  readDraft,
  sameFields,
  type Draft,
  type DraftOffer,
} from '#app/features/content/post-editor-draft'
import { ConfirmDialog } from '#app/ui/confirm-dialog'
import { getPost } from '#app/features/content/posts.server'
import { hit } from '#app/platform/security/rate-limit.server'
import { sanitizeHtml } from '#app/platform/security/sanitize.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { Editor, useDebounced } from './editor'
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
  const none = { post: null, versions: [], outdated: [], context: null, draftKey: '' }
  if (!post) return json(none, { status: 404 })
  if (post.status !== 'completed') return json(none, { status: 409 })
  const [versions, outdated, context] = await Promise.all([
    listVersions(post.id),
    outdatedLiveCopies(user.id, post),
    editorContext(post),
  ])
  return json(
    {
      outdated,
      context,
      draftKey: draftKey(user.id, post.id),
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
  /** The Preview button's checklist of the fields as sent (without JavaScript; with it, it is live). */
  checklist?: { score: number; items: ChecklistItem[] }
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
      const sent = submission.status === 'success' ? submission.value : {}
      const fields: EditorFields = {
        title: sent.title ?? '',
        slug: sent.slug ?? '',
        metaDescription: sent.metaDescription ?? '',
        body: sent.body ?? '',
      }
      const post = await getPost(user.id, id)
      const checklist = post?.status === 'completed' ? liveChecklist(fields, await editorContext(post)) : undefined
      return json<ActionData>({
        intent,
        result: submission.reply(),
        preview: sanitizeHtml(previewSource(fields.body)),
        checklist,
      })
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
  const { post, versions, outdated, context, draftKey: key } = useLoaderData<typeof loader>()
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
  if (!post || !context) return <PostNotFound />
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
      <WorkKept
        // A new version (a save, a rewrite, a restore) starts the editor again from the saved post.
        key={versions[0]?.id ?? 'none'}
        post={post}
        versionId={versions[0]?.id ?? 'none'}
        savedAt={post.editedAt ?? versions[0]?.createdAt ?? null}
        draftStorageKey={key}
        context={context}
        answer={answer}
        failed={failed}
        hydrated={hydrated}
      />
      <Versions versions={versions} />
    </div>
  )
}

type Loaded = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['post']>
type Context = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['context']>

/** localStorage, or null where it cannot be used (private modes, storage turned off, the server). */
function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage
  } catch {
    return null
  }
}

/**
 * The editor with its guards (issue 35: work is never lost): it warns before leaving with unsaved changes (a link
 * in the app or the back button: a dialog; closing or reloading the tab: the browser's own question), keeps the
 * typed fields as a draft in this browser (restorable after a crash or a reload, cleared once a save took it), and
 * recomputes the SEO checklist as the fields are typed (the Preview button does without JavaScript).
 */
function WorkKept({
  post,
  versionId,
  savedAt,
  draftStorageKey,
  context,
  answer,
  failed,
  hydrated,
}: {
  post: Loaded
  versionId: string
  savedAt: string | null
  draftStorageKey: string
  context: Context
  answer: ReturnType<typeof withoutFailure<ActionData>>
  failed: string | undefined
  hydrated: boolean
}) {
  const saved = useMemo<EditorFields>(
    () => ({ title: post.title, slug: post.slug, metaDescription: post.metaDescription, body: post.body }),
    [post.title, post.slug, post.metaDescription, post.body],
  )
  const [typed, setTyped] = useState<EditorFields | null>(null)
  const [offer, setOffer] = useState<DraftOffer | null>(null)
  const [restored, setRestored] = useState<{ n: number; fields: EditorFields } | null>(null)
  const dirty = typed !== null && !sameFields(typed, saved)
  const settled = useDebounced(typed, 300)

  // Opening the editor: a draft left in this browser is offered (or cleared when it holds nothing new).
  useEffect(() => {
    const store = storage()
    const outcome = draftOutcome(readDraft(store?.getItem(draftStorageKey) ?? null), {
      versionId,
      savedAt,
      fields: saved,
    })
    if (outcome === 'clear') store?.removeItem(draftStorageKey)
    else if (outcome) setOffer(outcome)
  }, [draftStorageKey, versionId, savedAt, saved])

  const writeDraft = useCallback(
    (fields: EditorFields, submitted = false) => {
      const store = storage()
      if (!store) return
      if (sameFields(fields, saved)) return store.removeItem(draftStorageKey)
      const draft: Draft = { v: 1, savedAt: new Date().toISOString(), base: versionId, submitted, ...fields }
      try {
        store.setItem(draftStorageKey, JSON.stringify(draft))
      } catch {
        // A full storage: the guards below still warn before leaving.
      }
    },
    [draftStorageKey, saved, versionId],
  )
  // Autosave, a moment after the typing stops; not while an older draft waits for Restore or Discard.
  const latest = useRef<EditorFields | null>(null)
  latest.current = typed
  useEffect(() => {
    if (settled && !offer) writeDraft(settled)
  }, [settled, offer, writeDraft])
  // Closing or reloading the tab: the draft is written now, and the browser asks first.
  useEffect(() => {
    if (!dirty) return
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (latest.current && !offer) writeDraft(latest.current)
      e.preventDefault()
      e.returnValue = ''
    }
    window.addEventListener('beforeunload', beforeUnload)
    return () => window.removeEventListener('beforeunload', beforeUnload)
  }, [dirty, offer, writeDraft])
  // A link in the app or the back button: our dialog. The editor's own forms (save, preview, restore) stay here.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  )

  const checklist = useMemo(
    () => (hydrated && settled ? liveChecklist(settled, context) : null),
    [hydrated, settled, context],
  )
  const shown = checklist ?? answer?.checklist ?? { score: post.seoScore, items: post.checklist }
  const live = checklist !== null || answer?.checklist !== undefined

  return (
    <>
      {offer ? (
        <section
          aria-label="Unsaved changes"
          data-testid="draft-offer"
          className="mt-4 flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
        >
          <p className="min-w-0 flex-1">{offerMessage(offer, savedAt)}</p>
          <button
            type="button"
            className="btn-primary py-1"
            onClick={() => {
              const { title, slug, metaDescription, body } = offer.draft
              const fields = { title, slug, metaDescription, body }
              setRestored((r) => ({ n: (r?.n ?? 0) + 1, fields }))
              setTyped(fields)
              setOffer(null)
            }}
          >
            Restore
          </button>
          <button
            type="button"
            className="btn-secondary py-1"
            onClick={() => {
              storage()?.removeItem(draftStorageKey)
              setOffer(null)
              if (latest.current) writeDraft(latest.current)
            }}
          >
            Discard
          </button>
        </section>
      ) : null}
      <Editor
        key={restored ? `restored-${restored.n}` : 'saved'}
        post={restored ? { id: post.id, ...restored.fields } : post}
        saved={saved}
        readPages={context.readPages}
        lastResult={restored ? undefined : answer?.result}
        message={failed ?? answer?.message}
        preview={answer?.preview}
        hydrated={hydrated}
        onChange={setTyped}
        onSubmitted={() => {
          if (latest.current) writeDraft(latest.current, true)
        }}
      />
      <ImagesPanel postId={post.id} images={post.images} />
      <ScorePanel
        score={shown.score}
        items={shown.items}
        live={hydrated}
        caption={
          live
            ? `As typed, not saved yet (saved score ${post.seoScore}/100). Saving checks figures against their sources again.`
            : hydrated
              ? 'Recomputed as you type.'
              : 'Press Preview to check the post as typed.'
        }
      />
      {blocker.state === 'blocked' ? (
        <ConfirmDialog
          title="Leave without saving?"
          message="Your changes to this post are not saved. A draft stays in this browser, and the editor offers it when you come back."
          closeHref={`/blogpost/${post.id}/edit`}
          onClose={() => blocker.reset()}
          action={
            <button
              type="button"
              className="btn-danger"
              onClick={() => {
                // The typing goes to the draft, unless an older draft still waits for Restore or Discard.
                if (latest.current && !offer) writeDraft(latest.current)
                blocker.proceed()
              }}
            >
              Leave without saving
            </button>
          }
        />
      ) : null}
    </>
  )
}
