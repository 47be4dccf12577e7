import { Form } from '@remix-run/react'
import { Field, SelectField } from '#app/components/ui/field'
import { SubmitButton } from '#app/components/ui/submit-button'
import { KIND_LABELS, SECRET_LABEL, type DestinationKind } from '#app/lib/publishing'

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
      <Field label="Name (optional)" name="name" defaultValue={v('name')} error={errors.name} maxLength={80} />
      {kind === 'wordpress' ? (
        <>
          <Field
            label="Site URL"
            name="siteUrl"
            defaultValue={v('siteUrl')}
            error={errors.siteUrl}
            placeholder="https://blog.example.com"
            inputMode="url"
            required
          />
          <Field
            label="User name"
            name="username"
            defaultValue={v('username')}
            error={errors.username}
            required
            autoComplete="off"
          />
          <Field
            label={SECRET_LABEL.wordpress}
            name="appPassword"
            type="password"
            autoComplete="new-password"
            error={errors.appPassword}
            hint={
              editing
                ? 'Leave blank to keep the saved one.'
                : 'WordPress → Users → Profile → Application Passwords. Not your login password.'
            }
          />
          <SelectField
            label="Post status"
            name="postStatus"
            defaultValue={v('postStatus', 'publish')}
            options={STATUS_OPTIONS}
            error={errors.postStatus}
          />
          <Field
            label="Categories (comma-separated, optional)"
            name="categories"
            defaultValue={v('categories')}
            error={errors.categories}
          />
          <Field label="Tags (comma-separated, optional)" name="tags" defaultValue={v('tags')} error={errors.tags} />
        </>
      ) : null}
      {kind === 'ghost' ? (
        <>
          <Field
            label="Admin API URL"
            name="adminUrl"
            defaultValue={v('adminUrl')}
            error={errors.adminUrl}
            placeholder="https://your-site.ghost.io"
            inputMode="url"
            required
          />
          <Field
            label={SECRET_LABEL.ghost}
            name="adminApiKey"
            type="password"
            autoComplete="new-password"
            error={errors.adminApiKey}
            hint={
              editing
                ? 'Leave blank to keep the saved one.'
                : 'Ghost Admin → Settings → Integrations → Add custom integration.'
            }
          />
          <SelectField
            label="Post status"
            name="postStatus"
            defaultValue={v('postStatus', 'publish')}
            options={STATUS_OPTIONS}
            error={errors.postStatus}
          />
          <Field label="Tags (comma-separated, optional)" name="tags" defaultValue={v('tags')} error={errors.tags} />
        </>
      ) : null}
      {kind === 'webflow' ? (
        <>
          <Field
            label={SECRET_LABEL.webflow}
            name="apiToken"
            type="password"
            autoComplete="new-password"
            error={errors.apiToken}
            hint={
              editing
                ? 'Leave blank to keep the saved one.'
                : 'Webflow → Site settings → Apps & integrations → API access (CMS read and write).'
            }
          />
          <Field
            label="Site ID"
            name="siteId"
            defaultValue={v('siteId')}
            error={errors.siteId}
            required
            autoComplete="off"
          />
          <Field
            label="Collection ID"
            name="collectionId"
            defaultValue={v('collectionId')}
            error={errors.collectionId}
            required
            autoComplete="off"
          />
          <fieldset className="grid gap-3 rounded-lg border border-slate-200 p-3">
            <legend className="px-1 text-sm font-semibold text-slate-700">
              Field mapping (the collection&apos;s field slugs)
            </legend>
            <Field
              label="Title field"
              name="titleField"
              defaultValue={v('titleField', 'name')}
              error={errors.titleField}
              required
            />
            <Field
              label="Slug field"
              name="slugField"
              defaultValue={v('slugField', 'slug')}
              error={errors.slugField}
              required
            />
            <Field
              label="Body field (Rich text)"
              name="bodyField"
              defaultValue={v('bodyField', 'post-body')}
              error={errors.bodyField}
              required
            />
            <Field
              label="Summary field (optional)"
              name="summaryField"
              defaultValue={v('summaryField', 'post-summary')}
              error={errors.summaryField}
            />
          </fieldset>
        </>
      ) : null}
      <SelectField
        label="Unpublish"
        name="unpublishMode"
        defaultValue={v('unpublishMode', 'draft')}
        options={UNPUBLISH_OPTIONS}
        error={errors.unpublishMode}
      />
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
