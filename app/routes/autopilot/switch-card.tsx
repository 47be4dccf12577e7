import { Form, Link, type FetcherWithComponents } from '@remix-run/react'
import type { SubmissionResult } from '#app/platform/forms/submission'
import { SelectField } from '#app/ui/field'
import { useSchemaForm } from '#app/ui/form'
import { SubmitButton } from '#app/ui/submit-button'
import { AUTOPILOT_MESSAGES, CADENCE_OPTIONS, cadenceForm } from '#app/features/autopilot/settings/autopilot'

/**
 * The Auto Pilot card: the switch (a fetcher form, shown switched at once while the server answers) and the schedule
 * form (Conform, decision 0311: `cadenceResult` is the action's reply to it).
 */
export function SwitchCard({
  toggle,
  enabled,
  loaded,
  allowed,
  cadenceDays,
  cadenceResult,
  paused = false,
}: {
  toggle: FetcherWithComponents<unknown>
  /** On or off as shown: the switch's pending value while it is on its way. */
  enabled: boolean
  loaded: boolean
  allowed: boolean
  cadenceDays: number
  cadenceResult?: SubmissionResult<string[]>
  /** Switched on but paused by the plan (the notice above the cards says why). */
  paused?: boolean
}) {
  const { fields, formProps } = useSchemaForm({
    id: 'autopilot-cadence',
    schema: cadenceForm,
    lastResult: cadenceResult,
    defaultValue: { cadenceDays: String(cadenceDays) },
  })
  return (
    <section className="card" aria-labelledby="toggle-heading">
      <h2 id="toggle-heading" className="text-lg font-semibold text-slate-900">
        Auto Pilot
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        While it is on, Auto Pilot researches keywords from your business details, writes a post for the best unused one
        and sends it to your webhook. Posts count against your plan&apos;s blog posts.
      </p>
      <toggle.Form method="post" className="mt-4 flex items-center gap-3">
        <input type="hidden" name="intent" value="toggle" />
        <input type="hidden" name="enabled" value={enabled ? 'false' : 'true'} />
        {/* A toggle button (aria-pressed) that submits the form, so it works without JavaScript and is valid HTML. */}
        <button
          type="submit"
          aria-pressed={enabled}
          aria-label="Auto Pilot"
          disabled={!loaded || (!allowed && !enabled)}
          className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition disabled:cursor-not-allowed disabled:opacity-50 ${enabled ? 'bg-brand-600' : 'bg-slate-300'}`}
        >
          <span
            className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${enabled ? 'translate-x-6' : 'translate-x-1'}`}
          />
        </button>
        <span className="text-sm font-semibold text-slate-900" data-testid="autopilot-state">
          {enabled ? 'On' : 'Off'}
        </span>
        {enabled && paused ? <span className="text-sm text-yellow-900">(paused, see above)</span> : null}
      </toggle.Form>
      {!allowed && loaded ? (
        <p className="mt-3 text-sm text-slate-700">
          {AUTOPILOT_MESSAGES.planRequired}{' '}
          <Link to="/profile" className="font-semibold text-brand-700 underline">
            Upgrade Now
          </Link>
        </p>
      ) : null}
      <Form method="post" className="mt-6 flex flex-wrap items-end gap-3" {...formProps}>
        <SelectField
          label="How often"
          meta={fields.cadenceDays}
          options={[...CADENCE_OPTIONS]}
          className="min-w-[14rem] flex-1"
        />
        <SubmitButton intent="cadence" className="btn-secondary" pendingText="Saving...">
          Save schedule
        </SubmitButton>
      </Form>
    </section>
  )
}
