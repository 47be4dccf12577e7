import { Form } from '@remix-run/react'
import { Field, SelectField } from '#app/ui/field'
import { SubmitButton } from '#app/ui/submit-button'
import { KIND_LABELS, SECRET_LABEL, type DestinationKind } from '#app/features/publishing/publishing'

type Values = Record<string, string | undefined>

const STATUS_OPTIONS = [
  { value: 'publish', label: 'Publish (public at once)' },
  { value: 'draft', label: 'Draft (publish it yourself on the site)' },
]
const UNPUBLISH_OPTIONS = [
  { value: 'draft', label: 'Revert to draft (keep it on the site, hidden)' },
  { value: 'delete', label: 'Delete it from the site' },
]

/**
 * The form of one destination kind, for adding or editing. The secret is never filled in again: on edit, a blank
 * secret keeps the stored one. Works as a plain form post; the page shows the server's field errors and message.
 */
export function DestinationForm({
  kind,
  id,
  values,
  errors,
  message,
}: {
  kind: DestinationKind
  id?: string
  values: Values
  errors: Record<string, string | undefined>
  message?: string | null
}) {
  const v = (name: string, fallback = '') => values[name] ?? fallback
  const editing = Boolean(id)
  /** A field's name, its value (or `fallback`) and its error. */
  const bind = (name: string, fallback = '') => ({ name, defaultValue: v(name, fallback), error: errors[name] })
  /** The kind's secret: never filled in again; on edit, blank keeps the saved one. */
  const secretField = (name: string, help: string) => (
    <Field
      label={SECRET_LABEL[kind]}
      name={name}
      type="password"
      autoComplete="new-password"
      error={errors[name]}
      hint={editing ? 'Leave blank to keep the saved one.' : help}
    />
  )
  return (
    <Form method="post" className="card grid gap-4" aria-labelledby="destination-form-heading" noValidate>
      <h2 id="destination-form-heading" className="text-lg font-semibold text-slate-900">
        {editing ? `Edit ${KIND_LABELS[kind]} destination` : `Add ${KIND_LABELS[kind]}`}
      </h2>
      <input type="hidden" name="kind" value={kind} />
      {id ? <input type="hidden" name="id" value={id} /> : null}
      {message ? (
        <p
          role="alert"
          data-testid="destination-error"
          className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900"
        >
          {message}
        </p>
      ) : null}
      <Field label="Name (optional)" {...bind('name')} maxLength={80} />
      {kind === 'wordpress' ? (
        <>
          <Field
            label="Site URL"
            {...bind('siteUrl')}
            placeholder="https://blog.example.com"
            inputMode="url"
            required
          />
          <Field label="User name" {...bind('username')} required autoComplete="off" />
          {secretField('appPassword', 'WordPress → Users → Profile → Application Passwords. Not your login password.')}
          <SelectField label="Post status" {...bind('postStatus', 'publish')} options={STATUS_OPTIONS} />
          <Field label="Categories (comma-separated, optional)" {...bind('categories')} />
          <Field label="Tags (comma-separated, optional)" {...bind('tags')} />
        </>
      ) : null}
      {kind === 'ghost' ? (
        <>
          <Field
            label="Admin API URL"
            {...bind('adminUrl')}
            placeholder="https://your-site.ghost.io"
            inputMode="url"
            required
          />
          {secretField('adminApiKey', 'Ghost Admin → Settings → Integrations → Add custom integration.')}
          <SelectField label="Post status" {...bind('postStatus', 'publish')} options={STATUS_OPTIONS} />
          <Field label="Tags (comma-separated, optional)" {...bind('tags')} />
        </>
      ) : null}
      {kind === 'webflow' ? (
        <>
          {secretField('apiToken', 'Webflow → Site settings → Apps & integrations → API access (CMS read and write).')}
          <Field label="Site ID" {...bind('siteId')} required autoComplete="off" />
          <Field label="Collection ID" {...bind('collectionId')} required autoComplete="off" />
          <fieldset className="grid gap-3 rounded-lg border border-slate-200 p-3">
            <legend className="px-1 text-sm font-semibold text-slate-700">
              Field mapping (the collection&apos;s field slugs)
            </legend>
            <Field label="Title field" {...bind('titleField', 'name')} required />
            <Field label="Slug field" {...bind('slugField', 'slug')} required />
            <Field label="Body field (Rich text)" {...bind('bodyField', 'post-body')} required />
            <Field label="Summary field (optional)" {...bind('summaryField', 'post-summary')} />
          </fieldset>
        </>
      ) : null}
      <SelectField label="Unpublish" {...bind('unpublishMode', 'draft')} options={UNPUBLISH_OPTIONS} />
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" name="autopilot" defaultChecked={v('autopilot', 'on') === 'on'} className="h-4 w-4" />
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
