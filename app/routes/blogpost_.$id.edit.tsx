import { BackLink } from '#app/ui/back-link'
import { PostNotFound } from '#app/features/content/components/post-not-found'
import { readForm } from '#app/platform/http/body.server'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { Form, useActionData, useLoaderData, type ClientActionFunctionArgs } from '@remix-run/react'
import {
  clientFailureOf,
  failureMessage,
  guardServerAction,
  revalidateUnlessFailed,
  withoutFailure,
  type ClientFailure,
} from '#app/ui/client-failure'
import { useDeferredValue, useEffect, useMemo, useState } from 'react'
import { showToast } from '#app/ui/toaster'
import { ScorePanel } from '#app/features/content/components/score-panel'
import { Field, SelectField, TextareaField } from '#app/ui/field'
import { FormMessage } from '#app/ui/form-message'
import { SubmitButton } from '#app/ui/submit-button'
import { useHydrated } from '#app/ui/use-hydrated'
import type { FieldErrors } from '#app/platform/forms/field-errors'
import { stripRawHtml } from '#app/features/content/content'
import { markdownToHtml, sanitizeInBrowser } from '#app/platform/markdown/markdown'
import { EDITOR_FAILED_MESSAGES, EDITOR_LIMITS, sectionsOf, splitTitle } from '#app/features/content/post-editor'
import { formatLongDate } from '#app/features/content/posts'
import type { ChecklistItem } from '#app/features/content/seo-checklist'
import { listVersions, restoreVersion, rewriteSection, saveEdit } from '#app/features/content/post-editor.server'
import { getPost } from '#app/features/content/posts.server'
import { hit } from '#app/platform/security/rate-limit.server'
import { sanitizeHtml } from '#app/platform/security/sanitize.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'

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
  if (!post) return json({ post: null, versions: [] }, { status: 404 })
  if (post.status !== 'completed') return json({ post: null, versions: [] }, { status: 409 })
  const versions = await listVersions(post.id)
  return json(
    {
      post: {
        id: post.id,
        title: post.title,
        slug: post.slug,
        metaDescription: post.metaDescription,
        body: splitTitle(post.contentMarkdown).body,
        seoScore: post.seoScore ?? 0,
        checklist: (post.seoChecklist ?? []) as ChecklistItem[],
        editedAt: post.editedAt?.toISOString() ?? null,
      },
      versions,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

type Values = {
  title: string
  slug: string
  metaDescription: string
  body: string
  section: string
  instruction: string
}
type ActionData = {
  intent: string
  values: Values
  errors: FieldErrors
  message?: string
  preview?: string
  /** A failed request's id (a second failure with the same fields still remounts the editor with its message). */
  id?: string
}

const text = (form: FormData, name: string) => {
  const v = form.get(name)
  return typeof v === 'string' ? v : ''
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const id = params.id ?? ''
  const form = await readForm(request)
  const intent = text(form, 'intent')
  const values: Values = {
    title: text(form, 'title'),
    slug: text(form, 'slug'),
    metaDescription: text(form, 'metaDescription'),
    body: text(form, 'body'),
    section: text(form, 'section'),
    instruction: text(form, 'instruction'),
  }
  const back = `/blogpost/${id}/edit`
  const saved = (what: string, score: number) =>
    toast().redirectWithSuccess(back, { message: `${what} SEO score ${score}/100.`, duration: TOAST_MS })
  const fail = (r: { status: number; message: string; errors: FieldErrors }) =>
    json<ActionData>({ intent, values, errors: r.errors, message: r.message }, { status: r.status })

  switch (intent) {
    case 'preview':
      return json<ActionData>({ intent, values, errors: {}, preview: sanitizeHtml(previewSource(values.body)) })
    case 'save': {
      const r = await saveEdit(user.id, id, values)
      return r.ok ? saved('Saved.', r.score.score) : fail(r)
    }
    case 'rewrite': {
      const limit = await hit(`rewrite:${user.id}`, { limit: 20, windowSeconds: 300, failOpen: true })
      if (!limit.allowed)
        return fail({
          status: 429,
          message: `Too many rewrites. Try again in ${limit.retryAfterSeconds} seconds.`,
          errors: {},
        })
      const r = await rewriteSection(user.id, id, values, { section: values.section, instruction: values.instruction })
      return r.ok ? saved('Section rewritten.', r.score.score) : fail(r)
    }
    case 'restore': {
      const r = await restoreVersion(user.id, id, text(form, 'versionId'))
      return r.ok ? saved('Version restored.', r.score.score) : fail(r)
    }
    default:
      return fail({ status: 400, message: 'Unknown action.', errors: {} })
  }
}

/**
 * The body as a save would render it: raw HTML dropped (as the finish does), Markdown to HTML, not yet sanitized.
 * The preview action sanitizes it on the server (jsdom), the live preview in the browser, under the same rules.
 */
function previewSource(markdown: string) {
  return markdownToHtml(stripRawHtml(markdown))
}

/**
 * With JavaScript (issue 12): a save, rewrite or restore whose request fails in the browser (no answer, a 5xx, a
 * proxy's page) keeps the editor with what was typed and says that nothing was saved.
 */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

/** A failed save or rewrite as the action's own failure answer: its message, and the fields as they were sent. */
function failedEdit(failure: ClientFailure): ActionData {
  const intent = failure.intent ?? 'save'
  const v = failure.values
  return {
    intent,
    values: {
      title: v.title ?? '',
      slug: v.slug ?? '',
      metaDescription: v.metaDescription ?? '',
      body: v.body ?? '',
      section: v.section ?? '',
      instruction: v.instruction ?? '',
    },
    errors: {},
    message: failureMessage(failure, EDITOR_FAILED_MESSAGES[intent] ?? EDITOR_FAILED_MESSAGES.save!),
    id: failure.id,
  }
}

const ORIGIN_LABELS: Record<string, string> = {
  generated: 'Written by Rankwell',
  edit: 'Your edit',
  rewrite: 'Section rewrite',
  refresh: 'Refresh',
  restore: 'Restored',
}

export default function EditPost() {
  const { post, versions } = useLoaderData<typeof loader>()
  const response = useActionData<typeof clientAction>()
  const hydrated = useHydrated()
  // A failed restore (its form sends no fields) is a toast: the editor stays as it is, with what was typed.
  const failure = clientFailureOf(response)
  const restoreFailure = failure?.intent === 'restore' ? failure : null
  useEffect(() => {
    if (restoreFailure)
      showToast({ type: 'error', message: failureMessage(restoreFailure, EDITOR_FAILED_MESSAGES.restore!) })
  }, [restoreFailure])
  if (!post) return <PostNotFound />
  const saved: Values = {
    title: post.title,
    slug: post.slug,
    metaDescription: post.metaDescription,
    body: post.body,
    section: '',
    instruction: '',
  }
  const answer = failure ? (restoreFailure ? undefined : failedEdit(failure)) : withoutFailure(response)
  const values: Values = answer?.values ?? saved
  return (
    <Editor
      // A new answer or a new save remounts the fields with what they must show.
      key={
        answer
          ? JSON.stringify(answer.values) + (answer.message ?? '') + (answer.id ?? '')
          : (versions[0]?.id ?? 'none')
      }
      post={post}
      versions={versions}
      values={values}
      answer={answer ?? null}
      hydrated={hydrated}
    />
  )
}

function Editor({
  post,
  versions,
  values,
  answer,
  hydrated,
}: {
  post: { id: string; title: string; seoScore: number; checklist: ChecklistItem[] }
  versions: Array<{ id: string; origin: string; title: string; seoScore: number | null; createdAt: string }>
  values: Values
  answer: ActionData | null
  hydrated: boolean
}) {
  const [body, setBody] = useState(values.body)
  const deferred = useDeferredValue(body)
  const livePreview = useMemo(() => (hydrated ? sanitizeInBrowser(previewSource(deferred)) : ''), [deferred, hydrated])
  const sections = sectionsOf(body).filter((s) => !/^sources$/i.test(s.heading.trim()))
  const errors = answer?.errors ?? {}
  const preview = hydrated ? livePreview : (answer?.preview ?? null)

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <BackLink to={`/blogpost/${post.id}`}>Back to the post</BackLink>
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Edit “{post.title}”</h1>
      <Form method="post" className="mt-6 space-y-5" aria-label="Edit post">
        <div className="flex flex-wrap items-center gap-2">
          <SubmitButton intent="save" pendingText="Saving...">
            Save
          </SubmitButton>
          {hydrated ? null : (
            <SubmitButton intent="preview" className="btn-secondary">
              Preview
            </SubmitButton>
          )}
          <span className="text-sm text-slate-600">Saving recomputes the SEO score and keeps a version.</span>
        </div>
        <FormMessage message={answer?.message} tone="error" />
        <Field
          label="Title"
          name="title"
          required
          maxLength={EDITOR_LIMITS.title}
          defaultValue={values.title}
          error={errors.title}
          hint="At most 60 characters, with the keyword."
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Slug" name="slug" required maxLength={100} defaultValue={values.slug} error={errors.slug} />
          <Field
            label="Meta description"
            name="metaDescription"
            maxLength={EDITOR_LIMITS.metaDescription}
            defaultValue={values.metaDescription}
            error={errors.metaDescription}
            hint="120 to 160 characters, with the keyword."
          />
        </div>
        <div className="grid gap-5 lg:grid-cols-2">
          <TextareaField
            label="Post (Markdown)"
            name="body"
            rows={28}
            required
            maxLength={EDITOR_LIMITS.body}
            className="[&_textarea]:font-mono [&_textarea]:text-sm"
            defaultValue={values.body}
            onChange={(e) => setBody(e.currentTarget.value)}
            error={errors.body}
            hint="The call to action, the 'Related reading' line and the 'Sources' list are added again on save."
          />
          <section aria-labelledby="preview-title" className="min-w-0">
            <h2 id="preview-title" className="label">
              Preview
            </h2>
            {preview === null ? (
              <p className="mt-2 text-sm text-slate-600">Press Preview to see the post as it will look.</p>
            ) : (
              <div
                data-testid="editor-preview"
                // It scrolls when the post is long: focusable and named, so that keyboard users can scroll it too.
                role="region"
                aria-label="Post preview"
                tabIndex={0}
                className="post-body mt-2 max-h-[44rem] overflow-y-auto rounded-lg border border-slate-200 p-4 text-slate-800 [&_a]:text-brand-700 [&_a]:underline [&_h2]:mt-6 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mt-4 [&_h3]:font-semibold [&_li]:mt-1 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-3 [&_ul]:list-disc [&_ul]:pl-6"
                // Sanitized with DOMPurify (previewSource, then sanitizeHtml or sanitizeInBrowser), on the server or in the browser.
                dangerouslySetInnerHTML={{ __html: preview }}
              />
            )}
          </section>
        </div>

        <fieldset className="rounded-lg border border-slate-200 p-4" aria-describedby="rewrite-hint">
          <legend className="px-1 text-sm font-semibold text-slate-800">Rewrite this section</legend>
          <p id="rewrite-hint" className="text-sm text-slate-600">
            Pick a section and say what to change. The rest of the post stays as it is, and your edits above are saved
            with it.
          </p>
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            <SelectField
              label="Section"
              name="section"
              placeholder="Choose a section"
              options={sections.map((s, i) => ({ value: String(i), label: s.heading }))}
              defaultValue={values.section}
              error={errors.section}
            />
            <Field
              label="Instruction"
              name="instruction"
              maxLength={EDITOR_LIMITS.instruction}
              placeholder="e.g. shorter, with a step-by-step list"
              defaultValue={values.instruction}
              error={errors.instruction}
            />
          </div>
          <div className="mt-3">
            <SubmitButton intent="rewrite" className="btn-secondary" pendingText="Rewriting...">
              Rewrite section
            </SubmitButton>
          </div>
        </fieldset>
      </Form>

      <ScorePanel score={post.seoScore} items={post.checklist} />

      <section className="mt-6 rounded-lg border border-slate-200 p-4" aria-labelledby="versions-title">
        <h2 id="versions-title" className="text-lg font-semibold text-slate-900">
          Versions
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          The last 20 versions are kept. Restoring one makes it a new version.
        </p>
        <ol className="mt-3 divide-y divide-slate-200 text-sm" data-testid="versions">
          {versions.map((v, i) => (
            <li key={v.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <span className="font-medium text-slate-900">{ORIGIN_LABELS[v.origin] ?? v.origin}</span>{' '}
                <span className="text-slate-600">
                  ·{' '}
                  <time dateTime={v.createdAt}>
                    {formatLongDate(v.createdAt)} {v.createdAt.slice(11, 16)} UTC
                  </time>
                  {v.seoScore === null ? '' : ` · SEO ${v.seoScore}/100`}
                  {i === 0 ? ' · current' : ''}
                </span>
              </span>
              {i === 0 ? null : (
                <Form method="post">
                  <input type="hidden" name="versionId" value={v.id} />
                  <SubmitButton
                    intent="restore"
                    className="btn-secondary py-1"
                    aria-label={`Restore the version of ${v.createdAt}`}
                  >
                    Restore
                  </SubmitButton>
                </Form>
              )}
            </li>
          ))}
        </ol>
      </section>
    </div>
  )
}
