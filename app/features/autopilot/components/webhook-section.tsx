import { Form } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import type { SubmissionResult } from '#app/platform/forms/submission'
import { Field } from '#app/ui/field'
import { useSchemaForm } from '#app/ui/form'
import { SubmitButton } from '#app/ui/submit-button'
import { useHydrated } from '#app/ui/use-hydrated'
import type { Toast } from '#app/ui/toaster'
import { webhookUrlForm, type DeliveryView, type WebhookView } from '#app/features/autopilot/settings/autopilot'
import { DataTable } from './data-table'
import { formatUtcDateTime } from '#app/platform/dates'
import { ActionButton } from '#app/ui/action-button'

/** A date and time in UTC, to the second: 'Jan 5, 03:04:05 PM UTC'. */
export const dateTime = (iso: string) => formatUtcDateTime(iso, { seconds: true })

/** Sending now: the answer comes within seconds. */
const SENDING_REFRESH_MS = 3_000
/** The longest wait between two refreshes while a retry is due later. */
const RETRY_REFRESH_MAX_MS = 60_000

/**
 * How soon the page should look again at its deliveries (with JavaScript): every few seconds while one is being sent,
 * just after its next attempt while one waits for a retry (at most a minute), never (null) when none is on its way.
 */
export function deliveriesRefreshMs(
  deliveries: Array<Pick<DeliveryView, 'status' | 'nextAttemptAt'>>,
  now: number,
): number | null {
  let soonest: number | null = null
  for (const d of deliveries) {
    if (d.status !== 'pending') continue
    const due = d.nextAttemptAt ? Date.parse(d.nextAttemptAt) - now + 2_000 : SENDING_REFRESH_MS
    const ms = Math.min(RETRY_REFRESH_MAX_MS, Math.max(SENDING_REFRESH_MS, due))
    soonest = soonest === null ? ms : Math.min(soonest, ms)
  }
  // Whole seconds, so that the page's renders in between do not restart the wait.
  return soonest === null ? null : Math.ceil(soonest / 1_000) * 1_000
}

/**
 * While a delivery is on its way the list says so: with JavaScript it updates itself; without, a reload shows the
 * result.
 */
function DeliveriesInFlight({ count, hydrated }: { count: number; hydrated: boolean }) {
  if (count === 0) return null
  const what = count === 1 ? 'A delivery is on its way' : `${count} deliveries are on their way`
  return (
    <p className="mt-2 flex items-center gap-2 text-sm text-slate-600" role="status" data-testid="deliveries-in-flight">
      <span aria-hidden="true" className="h-2 w-2 animate-pulse rounded-full bg-brand-500" />
      {hydrated ? `${what}: this list updates by itself.` : `${what}: reload the page to see the result.`}
    </p>
  )
}

/** A value to copy: read-only, selected whole when focused. */
function ReadOnlyValue({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input
        id={id}
        type="text"
        className="input font-mono"
        readOnly
        value={value}
        onFocus={(e) => e.currentTarget.select()}
      />
    </>
  )
}

/**
 * The webhook URL form (Conform, decision 0311): the spec's messages next to the field, the typed URL kept. It starts
 * anew (keyed by the saved URL) once a URL is saved, showing the URL as stored; a request that failed in the browser
 * leaves it as typed.
 */
function WebhookUrlForm({ savedUrl, lastResult }: { savedUrl: string; lastResult?: SubmissionResult<string[]> }) {
  const { fields, formProps } = useSchemaForm({
    id: 'webhook-url',
    schema: webhookUrlForm,
    lastResult,
    defaultValue: { webhookUrl: savedUrl },
  })
  return (
    <Form method="post" className="mt-4 flex flex-wrap items-start gap-3" {...formProps}>
      <Field
        label="Webhook URL"
        meta={fields.webhookUrl}
        type="text"
        inputMode="url"
        placeholder="https://your-site.com/api/rankwell-webhook"
        className="min-w-[16rem] flex-1"
      />
      <SubmitButton intent="save-webhook" className="btn-primary mt-6" pendingText="Saving...">
        Save
      </SubmitButton>
    </Form>
  )
}

export function WebhookSection({
  webhook,
  deliveries,
  lastResult,
  onToast,
}: {
  webhook: WebhookView
  deliveries: DeliveryView[]
  /** The action's reply to the webhook URL form. */
  lastResult?: SubmissionResult<string[]>
  onToast: (toast: Toast) => void
}) {
  const hydrated = useHydrated()
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout>>()
  useEffect(() => () => clearTimeout(timer.current), [])

  async function copy() {
    try {
      await navigator.clipboard.writeText(webhook.url)
      setCopied(true)
      onToast({ type: 'success', message: 'Webhook URL copied to clipboard!', duration: 8000 })
      clearTimeout(timer.current)
      timer.current = setTimeout(() => setCopied(false), 2000)
    } catch {
      onToast({ type: 'error', message: 'Failed to copy webhook URL.', duration: 8000 })
    }
  }

  return (
    <section className="card mt-6" aria-labelledby="webhook-heading">
      <h2 id="webhook-heading" className="text-lg font-semibold text-slate-900">
        Webhook Integration
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Each finished post is sent as a signed <code>post.published</code> event (Standard Webhooks) to this URL. It
        carries the <code>title</code> as plain text, the body without its title (<code>body_html</code>,{' '}
        <code>body_markdown</code>) and the post&apos;s structured data (<code>json_ld</code>: JSON-LD objects for a{' '}
        <code>&lt;script type=&quot;application/ld+json&quot;&gt;</code> in the page&apos;s head).
      </p>

      {webhook.disabledAt ? (
        <div
          role="alert"
          data-testid="webhook-disabled"
          className="mt-4 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900"
        >
          <p className="font-semibold">
            Webhook deliveries are paused: the endpoint was disabled on {dateTime(webhook.disabledAt)}.
          </p>
          <p className="mt-1 [overflow-wrap:anywhere]">{webhook.disabledReason}</p>
          <p className="mt-1">Fix your endpoint, then re-enable it (saving the URL re-enables it too).</p>
          <Form method="post" className="mt-3">
            <SubmitButton intent="reenable" className="btn-secondary" pendingText="Re-enabling...">
              Re-enable webhook
            </SubmitButton>
          </Form>
        </div>
      ) : null}

      <WebhookUrlForm key={webhook.url} savedUrl={webhook.url} lastResult={lastResult} />

      {webhook.url ? (
        <div className="mt-4 flex flex-wrap items-end gap-3">
          <div className="min-w-[16rem] flex-1">
            <ReadOnlyValue id="saved-webhook-url" label="Saved webhook URL" value={webhook.url} />
          </div>
          {hydrated ? (
            <button type="button" className="btn-secondary" onClick={() => void copy()} data-testid="copy-webhook">
              {copied ? 'Copied!' : 'Copy'}
            </button>
          ) : null}
        </div>
      ) : null}

      <div className="mt-4 flex flex-wrap items-end gap-3">
        <div className="min-w-[16rem] flex-1">
          <ReadOnlyValue id="webhook-secret" label="Signing secret" value={webhook.secret} />
          <p className="mt-1 text-xs text-slate-600">
            Verify the <code>webhook-signature</code> header with this secret (any Standard Webhooks library does it).
          </p>
        </div>
        <Form method="post">
          <SubmitButton intent="rotate-secret" className="btn-secondary" pendingText="Rotating...">
            Rotate secret
          </SubmitButton>
        </Form>
      </div>

      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <h3 className="text-base font-semibold text-slate-900">Recent deliveries</h3>
        {webhook.url && !webhook.disabledAt ? (
          <Form method="post">
            <SubmitButton intent="test-event" className="btn-secondary" pendingText="Sending...">
              Send test event
            </SubmitButton>
          </Form>
        ) : null}
      </div>
      <DeliveriesInFlight count={deliveries.filter((d) => d.status === 'pending').length} hydrated={hydrated} />
      <DataTable
        label="Recent deliveries table"
        className="mt-3"
        testId="deliveries"
        gap="pr-3"
        columns={[
          'Time',
          'Event',
          'HTTP status',
          'Duration',
          'Error',
          <span key="actions" className="sr-only">
            Actions
          </span>,
        ]}
        empty={deliveries.length === 0 ? 'No deliveries yet.' : null}
      >
        {deliveries.map((d) => (
          <tr
            key={d.id}
            className="border-b border-slate-100 align-top"
            data-testid="delivery-row"
            data-status={d.status}
          >
            <td className="whitespace-nowrap py-2 pr-3" data-label="Time">
              {dateTime(d.createdAt)}
            </td>
            <td className="py-2 pr-3 font-mono text-xs" data-label="Event">
              {d.eventType}
            </td>
            <td className="py-2 pr-3" data-label="HTTP status">
              <span
                className={
                  d.status === 'delivered'
                    ? 'text-green-700'
                    : d.status === 'failed'
                      ? 'text-red-700'
                      : 'text-slate-700'
                }
              >
                {d.lastStatusCode ?? '—'}
              </span>
              <span className="block text-xs text-slate-600">
                {d.status === 'delivered'
                  ? 'Delivered'
                  : d.status === 'failed'
                    ? 'Failed'
                    : d.nextAttemptAt
                      ? `Retrying (attempt ${d.attempts + 1})`
                      : 'Sending'}
              </span>
            </td>
            <td className="whitespace-nowrap py-2 pr-3 tabular-nums" data-label="Duration">
              {d.lastDurationMs === null ? '—' : `${d.lastDurationMs} ms`}
            </td>
            <td
              className="max-w-xs py-2 pr-3 text-xs text-slate-700 [overflow-wrap:anywhere]"
              data-label="Error"
              data-wide
            >
              {d.lastError ?? ''}
            </td>
            <td className="py-2" data-wide>
              {d.status !== 'pending' && !webhook.disabledAt ? (
                <ActionButton
                  field={['deliveryId', d.id]}
                  intent="redeliver"
                  className="btn-secondary px-3 py-1.5 text-xs"
                  pendingText="..."
                >
                  Redeliver
                </ActionButton>
              ) : null}
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  )
}
