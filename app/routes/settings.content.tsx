import { readForm } from '#app/platform/http/body.server'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, type ClientActionFunctionArgs } from '@remix-run/react'
import {
  clientFailureOf,
  failureMessage,
  guardServerAction,
  revalidateUnlessFailed,
  withoutFailure,
} from '#app/ui/client-failure'
import { Field, TextareaField } from '#app/ui/field'
import { useSchemaForm } from '#app/ui/form'
import { FormMessage } from '#app/ui/form-message'
import { PageHeader } from '#app/ui/page-header'
import { SubmitButton } from '#app/ui/submit-button'
import {
  CONTENT_SETTINGS_LIMITS as L,
  CONTENT_SETTINGS_MESSAGES,
  contentSettingsSchema,
  TONE_OPTIONS,
  IMAGE_SOURCE_OPTIONS,
  UNVERIFIED_POLICY_OPTIONS,
  type ContentSettingsValues,
} from '#app/features/content/content-settings'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { getContentSettings, saveContentSettings } from '#app/features/content/content-settings.server'
import { stockProvider } from '#app/features/content/images/sources.server'
import { hit } from '#app/platform/security/rate-limit.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'

export const meta: MetaFunction = () => [
  { title: 'Content settings | Rankwell' },
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const settings = await getContentSettings(user.id)
  if (!settings) throw new Response('Not found', { status: 404 })
  return json(
    { settings, stockPhotos: stockProvider() !== null },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const submission = parseSubmission(await readForm(request), contentSettingsSchema)
  // A sample URL costs an outgoing request: at most 20 saves a minute.
  const limit = await hit(`content-settings:${user.id}`, { limit: 20, windowSeconds: 60, failOpen: true })
  if (!limit.allowed) {
    const message = `Too many saves. Try again in ${limit.retryAfterSeconds} seconds.`
    return json({ result: submission.reply({ formErrors: [message] }) }, { status: 429 })
  }
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 })
  const result = await saveContentSettings(user.id, submission.value)
  if (!result.ok) {
    const refusal = result.field
      ? { fieldErrors: { [result.field]: [result.message] } }
      : { formErrors: [result.message] }
    return json({ result: submission.reply(refusal) }, { status: result.status })
  }
  return toast().redirectWithSuccess('/settings/content', {
    message: CONTENT_SETTINGS_MESSAGES.saved,
    duration: TOAST_MS,
  })
}

/**
 * With JavaScript (issue 12): a save whose request fails in the browser (no answer, a 5xx, a proxy's page) keeps
 * the page and what was typed, with the answer's message or 'Failed to save your content settings.'.
 */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

export default function ContentSettings() {
  const { settings, stockPhotos } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof clientAction>()
  const failure = clientFailureOf(answer)
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <PageHeader
        title="Content settings"
        subtitle="Your business and your voice: every post uses them. Your product appears where it genuinely helps the reader, your call to action closes the post, and the tone is yours."
      />
      <p className="mb-6 text-sm text-slate-700">
        <Link to="/profile" className="font-semibold text-brand-700 hover:underline">
          Profile
        </Link>{' '}
        ·{' '}
        <Link to="/settings/publishing" className="font-semibold text-brand-700 hover:underline">
          Publishing settings
        </Link>
      </p>
      {/* A save shows the settings as they were stored (trimmed): the form starts again from them. */}
      <SettingsForm
        key={settings.updatedAt ?? 'defaults'}
        settings={settings}
        stockPhotos={stockPhotos}
        lastResult={withoutFailure(answer)?.result}
        failed={failure ? failureMessage(failure, CONTENT_SETTINGS_MESSAGES.failed) : undefined}
      />
    </div>
  )
}

/**
 * The settings form. A refused save shows the messages next to their fields and what was sent; a request that
 * failed in the browser keeps what was typed and says so (`failed`).
 */
function SettingsForm({
  settings,
  stockPhotos,
  lastResult,
  failed,
}: {
  settings: ContentSettingsValues
  /** Whether this server has a stock photo library (else 'Stock photos' is not offered). */
  stockPhotos: boolean
  lastResult: SubmissionResult<string[]> | undefined
  failed: string | undefined
}) {
  const { fields, formProps, message } = useSchemaForm({
    id: 'content-settings',
    schema: contentSettingsSchema,
    lastResult,
    defaultValue: settings,
  })
  const tone = fields.tone
  const unverified = fields.unverifiedClaims
  const images = fields.imageSource
  // A saved 'stock' stays visible (and chosen) even when the library is gone, so a save does not change it silently.
  const imageOptions = IMAGE_SOURCE_OPTIONS.filter(
    (o) => o.value !== 'stock' || stockPhotos || images.initialValue === 'stock',
  )
  return (
    <Form method="post" className="space-y-6" aria-label="Content settings" {...formProps}>
      <FormMessage message={failed ?? message} tone="error" />
      <fieldset className="card space-y-5">
        <legend className="px-1 text-sm font-semibold text-slate-800">Your business</legend>
        <Field
          label="Product/Service"
          required
          maxLength={L.productService}
          meta={fields.productService}
          hint="What you sell, in a few words."
        />
        <Field
          label="Ideal Customer"
          required
          maxLength={L.marketSegment}
          meta={fields.marketSegment}
          hint="Who you sell to: the reader your posts are written for."
        />
        <Field
          label="Website"
          type="url"
          inputMode="url"
          maxLength={L.website}
          placeholder="https://yourcompany.com"
          meta={fields.website}
          hint="Posts link to your pages from its sitemap."
        />
        <Field
          label="Value proposition"
          maxLength={L.valueProposition}
          meta={fields.valueProposition}
          hint="One line: why customers choose you."
        />
      </fieldset>

      <fieldset className="card space-y-5">
        <legend className="px-1 text-sm font-semibold text-slate-800">Call to action (closes every post)</legend>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Call to action text"
            maxLength={L.ctaText}
            placeholder="Start your free trial"
            meta={fields.ctaText}
          />
          <Field
            label="Call to action URL"
            type="url"
            inputMode="url"
            maxLength={L.ctaUrl}
            placeholder="https://yourcompany.com/signup"
            meta={fields.ctaUrl}
          />
        </div>
      </fieldset>

      <fieldset className="card space-y-5">
        <legend className="px-1 text-sm font-semibold text-slate-800">Voice</legend>
        <div role="radiogroup" aria-labelledby="tone-label" aria-describedby={tone.errors ? tone.errorId : undefined}>
          <p id="tone-label" className="label">
            Tone
          </p>
          <div className="mt-1 grid gap-2 sm:grid-cols-2">
            {TONE_OPTIONS.map((t) => (
              <label
                key={t.value}
                className="flex cursor-pointer items-start gap-2 rounded-lg border border-slate-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name={tone.name}
                  value={t.value}
                  defaultChecked={tone.initialValue === t.value}
                  className="mt-1"
                />
                <span>
                  <span className="block font-medium text-slate-900">{t.label}</span>
                  <span className="block text-xs text-slate-600">{t.hint}</span>
                </span>
              </label>
            ))}
          </div>
          {tone.errors?.[0] ? (
            <p id={tone.errorId} className="field-error" role="alert">
              {tone.errors[0]}
            </p>
          ) : null}
        </div>
        <Field
          label="Tone notes"
          maxLength={L.toneNotes}
          placeholder="e.g. British spelling, no exclamation marks"
          meta={fields.toneNotes}
          hint="Anything else about how you write (optional)."
        />
        <TextareaField
          label="Words and claims to avoid"
          rows={3}
          maxLength={L.avoid}
          placeholder={'cheapest\nguaranteed results'}
          meta={fields.avoid}
          hint="One per line. Posts never use them."
        />
      </fieldset>

      <fieldset className="card space-y-3">
        <legend className="px-1 text-sm font-semibold text-slate-800">Facts and figures</legend>
        <p className="text-sm text-slate-600">
          Every figure, date and quotation in a post is checked against the sentence of the page it cites. Only a figure
          that page confirms is shown as sourced.
        </p>
        <div
          role="radiogroup"
          aria-labelledby="unverified-label"
          aria-describedby={unverified.errors ? unverified.errorId : undefined}
        >
          <p id="unverified-label" className="label">
            When a figure cannot be verified
          </p>
          <div className="mt-1 grid gap-2">
            {UNVERIFIED_POLICY_OPTIONS.map((o) => (
              <label
                key={o.value}
                className="flex cursor-pointer items-start gap-2 rounded-lg border border-slate-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name={unverified.name}
                  value={o.value}
                  defaultChecked={unverified.initialValue === o.value}
                  className="mt-1"
                />
                <span>
                  <span className="block font-medium text-slate-900">{o.label}</span>
                  <span className="block text-xs text-slate-600">{o.hint}</span>
                </span>
              </label>
            ))}
          </div>
          {unverified.errors?.[0] ? (
            <p id={unverified.errorId} className="field-error" role="alert">
              {unverified.errors[0]}
            </p>
          ) : null}
        </div>
      </fieldset>

      <fieldset className="card space-y-5">
        <legend className="px-1 text-sm font-semibold text-slate-800">Images</legend>
        <p className="text-sm text-slate-600">
          Each post gets a featured image, and a picture or two inside where it helps the reader, each with alt text
          written from the post. You can replace or regenerate any of them in the editor.
        </p>
        <div
          role="radiogroup"
          aria-labelledby="image-source-label"
          aria-describedby={images.errors ? images.errorId : undefined}
        >
          <p id="image-source-label" className="label">
            Post images
          </p>
          <div className="mt-1 grid gap-2">
            {imageOptions.map((o) => (
              <label
                key={o.value}
                className="flex cursor-pointer items-start gap-2 rounded-lg border border-slate-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name={images.name}
                  value={o.value}
                  defaultChecked={(images.initialValue ?? 'generated') === o.value}
                  className="mt-1"
                />
                <span>
                  <span className="block font-medium text-slate-900">{o.label}</span>
                  <span className="block text-xs text-slate-600">{o.hint}</span>
                </span>
              </label>
            ))}
          </div>
          {stockPhotos ? null : (
            <p className="mt-2 text-xs text-slate-600">Stock photos are not available on this workspace yet.</p>
          )}
          {images.errors?.[0] ? (
            <p id={images.errorId} className="field-error" role="alert">
              {images.errors[0]}
            </p>
          ) : null}
        </div>
      </fieldset>

      <fieldset className="card space-y-5">
        <legend className="px-1 text-sm font-semibold text-slate-800">Writing sample (optional)</legend>
        <p className="text-sm text-slate-600">
          Paste a few paragraphs you wrote, or give the address of one of your own pages and we read it for you. Posts
          match its voice, not its content.
        </p>
        <TextareaField label="Writing sample" rows={6} maxLength={L.writingSample} meta={fields.writingSample} />
        <Field
          label="Sample page URL"
          type="url"
          inputMode="url"
          maxLength={L.writingSampleUrl}
          placeholder="https://yourcompany.com/blog/a-post-you-like"
          meta={fields.writingSampleUrl}
          hint="A page on your website. When it changes, its text replaces the sample above."
        />
      </fieldset>

      <div className="flex justify-end">
        <SubmitButton pendingText="Saving...">Save content settings</SubmitButton>
      </div>
    </Form>
  )
}
