import { Form } from '@remix-run/react'
import { useDeferredValue, useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import type { SubmissionResult } from '#app/platform/forms/submission'
import { sanitizeInBrowser } from '#app/platform/markdown/markdown'
import { EDITOR_LIMITS, editorFormSchema, sectionsOf } from '#app/features/content/post-editor'
import { saveNotes, type EditorFields, type NoteField, type SaveNote } from '#app/features/content/post-editor-notes'
import {
  META_ADVICE,
  metaDescriptionLength,
  TITLE_ADVICE,
  titleLength,
  type LengthCheck,
} from '#app/features/content/seo-advice'
import { Field, SelectField, TextareaField } from '#app/ui/field'
import { useSchemaForm } from '#app/ui/form'
import { FormMessage } from '#app/ui/form-message'
import { SubmitButton } from '#app/ui/submit-button'
import { previewSource } from './preview'

export type EditedPost = { id: string; title: string; slug: string; metaDescription: string; body: string }

const FIELD_NAMES: NoteField[] = ['title', 'slug', 'metaDescription', 'body']

/** The form's fields as typed now. */
function fieldsOf(form: HTMLFormElement): EditorFields {
  const data = new FormData(form)
  const [title, slug, metaDescription, body] = FIELD_NAMES.map((name) => String(data.get(name) ?? ''))
  return { title: title!, slug: slug!, metaDescription: metaDescription!, body: body! }
}

/**
 * The edit form: title, slug, meta description and the Markdown body beside its preview (live with JavaScript, the
 * Preview button's answer without), and 'Rewrite this section'. `lastResult` is the action's reply (the messages
 * next to their fields, what was sent); `message` a refusal without a form reply (a restore) or a request that failed
 * in the browser, for the banner.
 *
 * Issue 35: the title and the meta description count their characters against the SEO advice, and every change a
 * save would make to what was typed is said beside its field (live with JavaScript, on Preview without). `post` is
 * what the form starts from (the saved post, or a restored draft); `saved` the post as stored; `onChange` hears the
 * fields as they are typed, `onSubmitted` a save or rewrite being sent.
 */
export function Editor({
  post,
  saved,
  readPages,
  lastResult,
  message,
  preview: answeredPreview,
  hydrated,
  onChange,
  onSubmitted,
}: {
  post: EditedPost
  saved: EditorFields
  readPages: string[]
  lastResult: SubmissionResult<string[]> | undefined
  message: string | undefined
  preview: string | undefined
  hydrated: boolean
  onChange?: (fields: EditorFields) => void
  onSubmitted?: (intent: string) => void
}) {
  const form = useSchemaForm({
    id: 'edit-post',
    schema: editorFormSchema,
    lastResult,
    defaultValue: { title: post.title, slug: post.slug, metaDescription: post.metaDescription, body: post.body },
  })
  const { fields } = form
  const [values, setValues] = useState<EditorFields>(() => ({
    title: String(fields.title.initialValue ?? ''),
    slug: String(fields.slug.initialValue ?? ''),
    metaDescription: String(fields.metaDescription.initialValue ?? ''),
    body: String(fields.body.initialValue ?? ''),
  }))
  const body = values.body
  const deferred = useDeferredValue(body)
  const livePreview = useMemo(() => (hydrated ? sanitizeInBrowser(previewSource(deferred)) : ''), [deferred, hydrated])
  const sections = sectionsOf(body).filter((s) => !/^sources$/i.test(s.heading.trim()))
  const preview = hydrated ? livePreview : (answeredPreview ?? null)
  // The notes follow the typing a moment later (the body's checks lex the whole post).
  const settled = useDebounced(values, hydrated ? 300 : 0)
  const notes = useMemo(() => saveNotes(settled, { saved, readPages }), [settled, saved, readPages])
  const notesOf = (field: NoteField) => notes.filter((n) => n.field === field)

  const changed = (e: FormEvent<HTMLFormElement>) => {
    const target = e.target as HTMLElement & { name?: string }
    if (!FIELD_NAMES.includes(target.name as NoteField)) return
    const now = fieldsOf(e.currentTarget)
    setValues(now)
    onChange?.(now)
  }

  return (
    <Form
      method="post"
      className="mt-6 space-y-5"
      aria-label="Edit post"
      {...form.formProps}
      onInput={changed}
      onSubmit={(e) => {
        const intent = ((e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null)?.value ?? 'save'
        form.formProps.onSubmit(e)
        // Conform stops a form its schema refuses; one that goes is a save (or a rewrite, which saves too).
        if (!e.defaultPrevented && (intent === 'save' || intent === 'rewrite')) onSubmitted?.(intent)
      }}
    >
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
      <div>
        <Field label="Title" meta={fields.title} required maxLength={EDITOR_LIMITS.title} hint={TITLE_ADVICE.hint} />
        <Counter id="title-count" check={titleLength(values.title)} hydrated={hydrated} />
        <Notes field="title" notes={notesOf('title')} />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <Field label="Slug" meta={fields.slug} required maxLength={100} />
          <Notes field="slug" notes={notesOf('slug')} />
        </div>
        <div>
          <Field
            label="Meta description"
            meta={fields.metaDescription}
            maxLength={EDITOR_LIMITS.metaDescription}
            hint={META_ADVICE.hint}
          />
          <Counter id="meta-count" check={metaDescriptionLength(values.metaDescription)} hydrated={hydrated} />
          <Notes field="metaDescription" notes={notesOf('metaDescription')} />
        </div>
      </div>
      <div className="grid gap-5 lg:grid-cols-2">
        <TextareaField
          label="Post (Markdown)"
          meta={fields.body}
          rows={28}
          required
          maxLength={EDITOR_LIMITS.body}
          className="[&_textarea]:font-mono [&_textarea]:text-sm"
          hint="The call to action, the 'Related reading' line and the 'Sources' list are added again on save. A figure or quotation whose cited page does not say it is kept without its citation and marked unverified."
        />
        <Notes field="body" notes={notesOf('body')} />
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

/** A value that follows `value` once it has stopped changing for `ms` (at once when `ms` is 0). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    if (ms === 0) return setSettled(value)
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return ms === 0 ? value : settled
}

const COUNT_TONE: Record<LengthCheck['state'], string> = {
  empty: 'text-slate-600',
  short: 'text-amber-800',
  good: 'text-green-800',
  long: 'text-red-700',
}

/**
 * A field's character count against its target, updated as it is typed. Screen readers hear it politely, and only
 * when what it means changes (too short, fits, too long), not at every keystroke.
 */
function Counter({ id, check, hydrated }: { id: string; check: LengthCheck; hydrated: boolean }) {
  const [announced, setAnnounced] = useState('')
  const state = useRef(check.state)
  useEffect(() => {
    if (state.current === check.state) return
    state.current = check.state
    setAnnounced(check.message)
  }, [check.state, check.message])
  return (
    <>
      <p
        id={id}
        data-testid={id}
        data-state={check.state}
        className={`mt-1 text-xs font-medium ${COUNT_TONE[check.state]}`}
      >
        {check.counter}
        {check.state === 'good' || check.state === 'empty' ? null : (
          <span className="font-normal"> · {check.message}</span>
        )}
      </p>
      {hydrated ? (
        <p className="sr-only" aria-live="polite" data-testid={`${id}-live`}>
          {announced}
        </p>
      ) : null}
    </>
  )
}

/**
 * What a save will change in a field (or what search results will cut), said beside it before saving. A note that
 * appears is announced politely once; its wording following the typing is not.
 */
function Notes({ field, notes }: { field: NoteField; notes: SaveNote[] }) {
  const [announced, setAnnounced] = useState('')
  const shown = useRef(new Set(notes.map((n) => n.id)))
  useEffect(() => {
    const fresh = notes.filter((n) => !shown.current.has(n.id))
    shown.current = new Set(notes.map((n) => n.id))
    if (fresh.length) setAnnounced(fresh.map((n) => n.message).join(' '))
  }, [notes])
  return (
    <div data-testid={`notes-${field}`}>
      <p className="sr-only" aria-live="polite">
        {announced}
      </p>
      {notes.length ? (
        <ul className="mt-1 space-y-1 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-950">
          {notes.map((n) => (
            <li key={n.id} data-note={n.id}>
              {n.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
