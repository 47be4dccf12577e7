import { Form } from '@remix-run/react'
import { useDeferredValue, useMemo, useState } from 'react'
import type { SubmissionResult } from '#app/platform/forms/submission'
import { sanitizeInBrowser } from '#app/platform/markdown/markdown'
import { EDITOR_LIMITS, editorFormSchema, sectionsOf } from '#app/features/content/post-editor'
import { Field, SelectField, TextareaField } from '#app/ui/field'
import { useSchemaForm } from '#app/ui/form'
import { FormMessage } from '#app/ui/form-message'
import { SubmitButton } from '#app/ui/submit-button'
import { previewSource } from './preview'

export type EditedPost = { id: string; title: string; slug: string; metaDescription: string; body: string }

/**
 * The edit form: title, slug, meta description and the Markdown body beside its preview (live with JavaScript, the
 * Preview button's answer without), and 'Rewrite this section'. `lastResult` is the action's reply (the messages
 * next to their fields, what was sent); `message` a refusal without a form reply (a restore) or a request that failed
 * in the browser, for the banner.
 */
export function Editor({
  post,
  lastResult,
  message,
  preview: answeredPreview,
  hydrated,
}: {
  post: EditedPost
  lastResult: SubmissionResult<string[]> | undefined
  message: string | undefined
  preview: string | undefined
  hydrated: boolean
}) {
  const form = useSchemaForm({
    id: 'edit-post',
    schema: editorFormSchema,
    lastResult,
    defaultValue: { title: post.title, slug: post.slug, metaDescription: post.metaDescription, body: post.body },
  })
  const { fields } = form
  const [body, setBody] = useState(() => String(fields.body.initialValue ?? ''))
  const deferred = useDeferredValue(body)
  const livePreview = useMemo(() => (hydrated ? sanitizeInBrowser(previewSource(deferred)) : ''), [deferred, hydrated])
  const sections = sectionsOf(body).filter((s) => !/^sources$/i.test(s.heading.trim()))
  const preview = hydrated ? livePreview : (answeredPreview ?? null)

  return (
    <Form method="post" className="mt-6 space-y-5" aria-label="Edit post" {...form.formProps}>
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
      <FormMessage message={message ?? form.message} tone="error" />
      <Field
        label="Title"
        meta={fields.title}
        required
        maxLength={EDITOR_LIMITS.title}
        hint="At most 60 characters, with the keyword."
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Slug" meta={fields.slug} required maxLength={100} />
        <Field
          label="Meta description"
          meta={fields.metaDescription}
          maxLength={EDITOR_LIMITS.metaDescription}
          hint="120 to 160 characters, with the keyword."
        />
      </div>
      <div className="grid gap-5 lg:grid-cols-2">
        <TextareaField
          label="Post (Markdown)"
          meta={fields.body}
          rows={28}
          required
          maxLength={EDITOR_LIMITS.body}
          className="[&_textarea]:font-mono [&_textarea]:text-sm"
          onChange={(e) => setBody(e.currentTarget.value)}
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
            meta={fields.section}
            placeholder="Choose a section"
            options={sections.map((s, i) => ({ value: String(i), label: s.heading }))}
          />
          <Field
            label="Instruction"
            meta={fields.instruction}
            maxLength={EDITOR_LIMITS.instruction}
            placeholder="e.g. shorter, with a step-by-step list"
          />
        </div>
        <div className="mt-3">
          <SubmitButton intent="rewrite" className="btn-secondary" pendingText="Rewriting...">
            Rewrite section
          </SubmitButton>
        </div>
      </fieldset>
    </Form>
  )
}
