import { getInputProps } from '@conform-to/react'
import { Form } from '@remix-run/react'
import type { SubmissionResult } from '#app/platform/forms/submission'
import { Field, SelectField } from '#app/ui/field'
import { useSchemaForm } from '#app/ui/form'
import { SubmitButton } from '#app/ui/submit-button'
import {
  destinationPageForm,
  KIND_LABELS,
  SECRET_LABEL,
  type DestinationKind,
} from '#app/features/publishing/publishing'

const STATUS_OPTIONS = [
  { value: 'publish', label: 'Publish (public at once)' },
  { value: 'draft', label: 'Draft (publish it yourself on the site)' },
]
const UNPUBLISH_OPTIONS = [
  { value: 'draft', label: 'Revert to draft (keep it on the site, hidden)' },
  { value: 'delete', label: 'Delete it from the site' },
]

/** What a new destination's form starts with. */
export const DESTINATION_DEFAULTS: Record<string, string> = {
  postStatus: 'publish',
  unpublishMode: 'draft',
  autopilot: 'on',
  titleField: 'name',
  slugField: 'slug',
  bodyField: 'post-body',
  summaryField: 'post-summary',
}

/**
 * The form of one destination kind, for adding or editing (Conform, decision 0311: the server's reply shows the
 * field errors and the kept values; with JavaScript the same schema checks each field as it is left). The secret is
 * never filled in again (the server hides it from its reply): on edit, a blank secret keeps the stored one. A refusal
 * about the whole form (the connection test failed) shows above the fields.
 */
export function DestinationForm({
  kind,
  id,
  defaultValue,
  lastResult,
}: {
  kind: DestinationKind
  id?: string
  /** The values to start with: the defaults, or the saved destination's settings. */
  defaultValue: Record<string, string>
  lastResult?: SubmissionResult<string[]>
}) {
  const { form, fields, formProps } = useSchemaForm({
    id: 'destination',
    schema: destinationPageForm,
    lastResult,
    defaultValue,
  })
  const editing = Boolean(id)
  const message = form.errors?.[0]
  const { key: autopilotKey, ...autopilotBox } = getInputProps(fields.autopilot, { type: 'checkbox' })
  /** The kind's secret: never filled in again; on edit, blank keeps the saved one. */
  const secretField = (meta: typeof fields.appPassword, help: string) => (
    <Field
      label={SECRET_LABEL[kind]}
      meta={meta}
      type="password"
      autoComplete="new-password"
      defaultValue=""
      hint={editing ? 'Leave blank to keep the saved one.' : help}
    />
  )
  return (
    <Form method="post" className="card grid gap-4" aria-labelledby="destination-form-heading" {...formProps}>
      <h2 id="destination-form-heading" className="text-lg font-semibold text-slate-900">
        {editing ? `Edit ${KIND_LABELS[kind]} destination` : `Add ${KIND_LABELS[kind]}`}
      </h2>
      <input type="hidden" name={fields.kind.name} value={kind} />
      {id ? <input type="hidden" name="id" value={id} /> : null}
      {message ? (
        <p
          id={form.errorId}
          role="alert"
          data-testid="destination-error"
          className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900"
        >
          {message}
        </p>
      ) : null}
      <Field label="Name (optional)" meta={fields.name} maxLength={80} />
      {kind === 'wordpress' ? (
        <>
          <Field
            label="Site URL"
            meta={fields.siteUrl}
            placeholder="https://blog.example.com"
            inputMode="url"
            required
          />
          <Field label="User name" meta={fields.username} required autoComplete="off" />
          {secretField(
            fields.appPassword,
            'WordPress → Users → Profile → Application Passwords. Not your login password.',
          )}
          <SelectField label="Post status" meta={fields.postStatus} options={STATUS_OPTIONS} />
          <Field label="Categories (comma-separated, optional)" meta={fields.categories} />
          <Field label="Tags (comma-separated, optional)" meta={fields.tags} />
        </>
      ) : null}
      {kind === 'ghost' ? (
        <>
          <Field
            label="Admin API URL"
            meta={fields.adminUrl}
            placeholder="https://your-site.ghost.io"
            inputMode="url"
            required
          />
          {secretField(fields.adminApiKey, 'Ghost Admin → Settings → Integrations → Add custom integration.')}
          <SelectField label="Post status" meta={fields.postStatus} options={STATUS_OPTIONS} />
          <Field label="Tags (comma-separated, optional)" meta={fields.tags} />
        </>
      ) : null}
      {kind === 'webflow' ? (
        <>
          {secretField(
            fields.apiToken,
            'Webflow → Site settings → Apps & integrations → API access (CMS read and write).',
          )}
          <Field label="Site ID" meta={fields.siteId} required autoComplete="off" />
          <Field label="Collection ID" meta={fields.collectionId} required autoComplete="off" />
          <fieldset className="grid gap-3 rounded-lg border border-slate-200 p-3">
            <legend className="px-1 text-sm font-semibold text-slate-700">
              Field mapping (the collection&apos;s field slugs)
            </legend>
            <Field label="Title field" meta={fields.titleField} required />
            <Field label="Slug field" meta={fields.slugField} required />
            <Field label="Body field (Rich text)" meta={fields.bodyField} required />
            <Field label="Summary field (optional)" meta={fields.summaryField} />
            <Field
              label="Structured data field (Plain text, optional)"
              meta={fields.jsonLdField}
              hint={
                'Receives the post\'s structured data (JSON-LD). In the collection template\'s page settings, add to the custom code in <head>: <script type="application/ld+json"> then this field, then </script>.'
              }
            />
          </fieldset>
        </>
      ) : null}
      <SelectField label="Unpublish" meta={fields.unpublishMode} options={UNPUBLISH_OPTIONS} />
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input key={autopilotKey} {...autopilotBox} className="h-4 w-4" />
        Auto Pilot publishes here
      </label>
      <div className="flex flex-wrap gap-3">
        <SubmitButton intent="save" pendingText="Testing the connection…">
          {editing ? 'Test and save' : 'Test connection and save'}
        </SubmitButton>
      </div>
    </Form>
  )
}
