import { Form, Link } from '@remix-run/react'
import type { SubmissionResult } from '#app/platform/forms/submission'
import { Field } from '#app/ui/field'
import { useSchemaForm } from '#app/ui/form'
import { SubmitButton } from '#app/ui/submit-button'
import {
  REVIEW_MODE_LABELS,
  REVIEW_MODES,
  reviewSettingsForm,
  type ReviewMode,
} from '#app/features/publishing/publishing'
import { formatUtcDateTime } from '#app/platform/dates'
import { ActionButton } from '#app/ui/action-button'
import { PausedDestinations } from './paused-destinations'
import type { DiffRow } from '#app/features/publishing/diff'
import { LiveDiff } from './live-copy'
import { unverifiedWarning } from '#app/features/content/claims-view'

export type ReviewSectionData = {
  settings: { reviewMode: ReviewMode; minScore: number; approveAfterHours: number }
  waiting: Array<{
    id: string
    title: string
    keyword: string
    seoScore: number | null
    unverified: number
    autoApproveAt: string | null
    diff?: DiffRow[]
  }>
  destinations: Array<{ id: string; name: string; paused: boolean; pausedReason: string | null; autopilot: boolean }>
}

const when = (iso: string) => formatUtcDateTime(iso)

/**
 * Auto Pilot's publishing: where it publishes, how drafts are reviewed, and the drafts waiting for review. The review
 * settings form is Conform's (decision 0311): `lastResult` is the action's reply to it.
 */
export function ReviewSection({
  data,
  lastResult,
}: {
  data: ReviewSectionData
  lastResult?: SubmissionResult<string[]>
}) {
  const autopilotDestinations = data.destinations.filter((d) => d.autopilot)
  const { fields, formProps } = useSchemaForm({
    id: 'review-settings',
    schema: reviewSettingsForm,
    lastResult,
    defaultValue: {
      reviewMode: data.settings.reviewMode,
      minScore: String(data.settings.minScore),
      approveAfterHours: String(data.settings.approveAfterHours),
    },
  })
  const modeError = fields.reviewMode.errors?.[0]
  return (
    <section className="card mt-6" aria-labelledby="publishing-heading" id="review">
      <h2 id="publishing-heading" className="text-lg font-semibold text-slate-900">
        Publishing and review
      </h2>
      <PausedDestinations
        destinations={data.destinations}
        className="mt-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900"
        fix={
          <Link to="/settings/publishing" className="font-semibold underline">
            Fix it
          </Link>
        }
      />
      <p className="mt-2 text-sm text-slate-700">
        {autopilotDestinations.length
          ? `Auto Pilot publishes to ${autopilotDestinations.map((d) => d.name).join(', ')}, and to your webhook when one is saved.`
          : 'Auto Pilot publishes to your webhook. Add WordPress, Ghost or Webflow to publish there too.'}{' '}
        <Link to="/settings/publishing" className="font-semibold text-brand-700 hover:underline">
          Publishing destinations
        </Link>{' '}
        ·{' '}
        <Link to="/calendar" className="font-semibold text-brand-700 hover:underline">
          Calendar
        </Link>
      </p>

      <Form method="post" className="mt-4 grid gap-3" aria-label="Review mode" {...formProps}>
        <fieldset className="grid gap-2">
          <legend className="label">How Auto Pilot&apos;s drafts are published</legend>
          {REVIEW_MODES.map((mode) => (
            <label key={mode} className="flex items-start gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={fields.reviewMode.name}
                value={mode}
                defaultChecked={fields.reviewMode.initialValue === mode}
                className="mt-1 h-4 w-4"
              />
              <span>{REVIEW_MODE_LABELS[mode]}</span>
            </label>
          ))}
          {modeError ? (
            <p id={fields.reviewMode.errorId} className="field-error" role="alert">
              {modeError}
            </p>
          ) : null}
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Minimum SEO score (0–100)" meta={fields.minScore} type="number" min={0} max={100} />
          <Field
            label="Hours to wait before approving"
            meta={fields.approveAfterHours}
            type="number"
            min={1}
            max={168}
          />
        </div>
        <div>
          <SubmitButton intent="review-settings" className="btn-secondary" pendingText="Saving…">
            Save review settings
          </SubmitButton>
        </div>
      </Form>

      <h3 className="mt-6 text-base font-semibold text-slate-900">Waiting for review</h3>
      {data.waiting.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600" data-testid="review-empty">
          No draft is waiting for review.
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200" data-testid="review-list">
          {data.waiting.map((d) => (
            <li key={d.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0 text-sm">
                <Link
                  to={`/blogpost/${d.id}`}
                  className="font-semibold text-brand-700 [overflow-wrap:anywhere] hover:underline"
                >
                  {d.title}
                </Link>
                <p className="text-slate-600">
                  {d.keyword} · SEO score {d.seoScore ?? 'not scored'}
                  {d.autoApproveAt ? ` · published automatically ${when(d.autoApproveAt)}` : ''}
                </p>
                {d.unverified ? (
                  <p className="font-semibold text-amber-900" data-testid="draft-unverified">
                    {unverifiedWarning(d.unverified)}{' '}
                    <Link to={`/blogpost/${d.id}/publish?claims=unverified#claims`} className="underline">
                      See the claims
                    </Link>
                  </p>
                ) : null}
                {d.diff && d.diff.length > 0 ? (
                  <details className="mt-1" data-testid="review-diff">
                    <summary className="cursor-pointer font-semibold text-slate-800">
                      Already live: changes since the live copy
                    </summary>
                    <LiveDiff rows={d.diff} />
                  </details>
                ) : null}
              </div>
              <div className="flex flex-wrap gap-2">
                <ActionButton
                  field={['postId', d.id]}
                  intent="approve"
                  className="btn-primary py-2"
                  pendingText="Approving…"
                >
                  Approve
                </ActionButton>
                <Link to={`/blogpost/${d.id}/publish`} className="btn-secondary py-2">
                  Schedule…
                </Link>
                <ActionButton
                  field={['postId', d.id]}
                  intent="reject"
                  className="btn-secondary py-2 text-red-700"
                  pendingText="Rejecting…"
                >
                  Reject
                </ActionButton>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
