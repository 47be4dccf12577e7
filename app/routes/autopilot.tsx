import { readForm } from '#app/platform/http/body.server'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from '@remix-run/node'
import { ACCOUNT_MESSAGES } from '#app/features/accounts/account-schemas'
import { json } from '@remix-run/node'
import {
  Form,
  Link,
  useActionData,
  useFetcher,
  useNavigation,
  useRevalidator,
  type ClientActionFunctionArgs,
  type ClientLoaderFunctionArgs,
} from '@remix-run/react'
import { useEffect, useMemo, useRef, useState } from 'react'
import { DataTable } from '#app/features/autopilot/components/data-table'
import {
  WebhookSection,
  type AutopilotActionData as ActionData,
} from '#app/features/autopilot/components/webhook-section'
import { PageHeader } from '#app/ui/page-header'
import {
  clientFailureOf,
  guardServerAction,
  guardServerLoader,
  revalidateUnlessFailed,
  useKeptLoaderData,
  type ClientFailure,
} from '#app/ui/client-failure'
import { SelectField } from '#app/ui/field'
import { SubmitButton } from '#app/ui/submit-button'
import { Toaster, type Toast } from '#app/ui/toaster'
import { ReviewSection, type ReviewSectionData } from '#app/features/publishing/components/review-section'
import { publishingOverview, reviewAction } from '#app/features/autopilot/autopilot-review.server'
import { AUTOPILOT_MESSAGES, CADENCE_OPTIONS, parseCadence } from '#app/features/autopilot/settings/autopilot'
import { difficultyBand } from '#app/features/keywords/difficulty'
import { formatVolume } from '#app/features/keywords/keywords'
import { canUseAutopilot, getStatusList } from '#app/features/autopilot/autopilot.server'
import {
  getSettings,
  reenableWebhook,
  rotateWebhookSecret,
  saveWebhookUrl,
  setAutopilotEnabled,
  setCadence,
} from '#app/features/autopilot/settings/settings.server'
import { hit } from '#app/platform/security/rate-limit.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { listDeliveries, redeliver, sendTestEvent } from '#app/features/autopilot/settings/webhooks.server'

export const meta: MetaFunction = () => [{ title: 'Auto Pilot | Rankwell' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const business = {
    website: user.website ?? '',
    marketSegment: user.marketSegment ?? '',
    productService: user.productService ?? '',
    country: user.countryName ?? '',
    language: user.languageName ?? '',
  }
  let settings: Awaited<ReturnType<typeof getSettings>> | null = null
  let allowed = false
  try {
    ;[settings, allowed] = await Promise.all([getSettings(user.id), canUseAutopilot(user.id)])
  } catch (error) {
    console.error('[autopilot] could not load settings', error)
  }
  let status: Awaited<ReturnType<typeof getStatusList>> = []
  let deliveries: Awaited<ReturnType<typeof listDeliveries>> = []
  let statusFailed = false
  if (settings?.enabled) {
    try {
      ;[status, deliveries] = await Promise.all([getStatusList(user.id), listDeliveries(user.id)])
    } catch (error) {
      console.error('[autopilot] could not load the status', error)
      statusFailed = true
    }
  }
  const publishing = settings ? await publishingOverview(user.id).catch(() => null) : null
  return json(
    {
      publishing,
      business,
      loaded: Boolean(settings),
      allowed,
      enabled: settings?.enabled ?? false,
      cadenceDays: settings?.cadenceDays ?? 1,
      notice: settings?.notice ?? null,
      webhook: settings?.enabled
        ? {
            url: settings.webhookUrl ?? '',
            secret: settings.webhookSecret ?? '',
            disabledAt: settings.webhookDisabledAt?.toISOString() ?? null,
            disabledReason: settings.webhookDisabledReason,
          }
        : null,
      deliveries: deliveries.map((d) => ({
        id: d.id,
        eventType: d.eventType,
        status: d.status,
        attempts: d.attempts,
        lastStatusCode: d.lastStatusCode,
        lastError: d.lastError,
        lastDurationMs: d.lastDurationMs,
        nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
        createdAt: d.createdAt.toISOString(),
      })),
      status,
      loadError: !settings ? AUTOPILOT_MESSAGES.userFailed : statusFailed ? AUTOPILOT_MESSAGES.statusFailed : null,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { onboarded: true })
  const form = await readForm(request)
  const intent = String(form.get('intent') ?? '')
  const ok = (message: string) => toast().redirectWithSuccess('/autopilot', { message, duration: TOAST_MS })
  // A 503 (the schedule could not be changed while Redis is away) says when to try again, as every outage answer does.
  const fail = (data: ActionData, message: string, status = 400, description?: string) =>
    json<ActionData>(
      { ...data, toast: { type: 'error', message, duration: TOAST_MS, ...(description ? { description } : {}) } },
      { status, ...(status === 503 ? { headers: { 'Retry-After': '5' } } : {}) },
    )

  switch (intent) {
    case 'toggle': {
      const enabled = form.get('enabled') === 'true'
      const result = await setAutopilotEnabled(user.id, enabled).catch((error: unknown) => {
        console.error('[autopilot] toggle failed', error)
        return { ok: false as const, reason: 'unavailable' as const }
      })
      if (result.ok) return ok(result.enabled ? AUTOPILOT_MESSAGES.enabled : AUTOPILOT_MESSAGES.disabled)
      if (result.reason === 'unverified')
        return fail({ intent }, ACCOUNT_MESSAGES.unverifiedAutopilot, 409, ACCOUNT_MESSAGES.unverifiedAutopilot)
      return result.reason === 'plan'
        ? fail({ intent }, AUTOPILOT_MESSAGES.toggleFailed, 402, AUTOPILOT_MESSAGES.planRequired)
        : fail({ intent }, AUTOPILOT_MESSAGES.toggleFailed, 503)
    }
    case 'cadence': {
      const cadence = parseCadence(form.get('cadenceDays'))
      if (!cadence)
        return json<ActionData>(
          { intent, errors: { cadenceDays: 'Choose how often Auto Pilot writes.' } },
          { status: 400 },
        )
      try {
        await setCadence(user.id, cadence)
      } catch (error) {
        console.error('[autopilot] cadence failed', error)
        return fail({ intent }, 'Failed to save the Auto Pilot schedule.', 503)
      }
      return ok('Auto Pilot schedule saved.')
    }
    case 'save-webhook': {
      const value = String(form.get('webhookUrl') ?? '')
      try {
        const result = await saveWebhookUrl(user.id, value)
        if (!result.ok)
          return json<ActionData>(
            { intent, errors: { webhookUrl: result.error }, values: { webhookUrl: value } },
            { status: 400 },
          )
      } catch (error) {
        console.error('[autopilot] could not save the webhook URL', error)
        return fail({ intent, values: { webhookUrl: value } }, AUTOPILOT_MESSAGES.webhookFailed, 500)
      }
      return ok(AUTOPILOT_MESSAGES.webhookSaved)
    }
    case 'rotate-secret':
      await rotateWebhookSecret(user.id)
      return ok('Signing secret rotated. Update it in your receiver.')
    case 'reenable':
      await reenableWebhook(user.id)
      return ok('Webhook re-enabled.')
    case 'test-event':
    case 'redeliver': {
      const limit = await hit(`webhook-send:${user.id}`, { limit: 20, windowSeconds: 60, failOpen: true })
      if (!limit.allowed)
        return fail({ intent }, `Too many deliveries at once. Try again in ${limit.retryAfterSeconds} seconds.`, 429)
      const result =
        intent === 'test-event'
          ? await sendTestEvent(user.id)
          : await redeliver(user.id, String(form.get('deliveryId') ?? ''))
      if (!result.ok) return fail({ intent }, result.message)
      return ok(intent === 'test-event' ? 'Test event sent. It appears under Recent deliveries.' : 'Redelivery queued.')
    }
    case 'review-settings':
    case 'approve':
    case 'reject': {
      const result = await reviewAction(user.id, intent, form)
      if (result.ok) return ok(result.message)
      return result.errors
        ? json<ActionData>({ intent, errors: result.errors }, { status: 400 })
        : fail({ intent }, result.message, result.status)
    }
    default:
      return json<ActionData>({ intent }, { status: 400 })
  }
}

/**
 * With JavaScript (issue 12): a toggle, save or other form whose request fails in the browser shows its failure
 * toast and keeps what was typed; a refresh of the status that fails keeps the last status and says so.
 */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const clientLoader = (args: ClientLoaderFunctionArgs) => guardServerLoader<typeof loader>(args)
export const shouldRevalidate = revalidateUnlessFailed

const FAILED_ACTIONS: Record<string, string> = {
  toggle: AUTOPILOT_MESSAGES.toggleFailed,
  'save-webhook': AUTOPILOT_MESSAGES.webhookFailed,
  cadence: 'Failed to save the Auto Pilot schedule.',
}

/** A failed request as the action's own failure answer: its toast, and the typed webhook URL kept. */
function failedAction(failure: ClientFailure): ActionData {
  const intent = failure.intent ?? ''
  return {
    intent,
    values: intent === 'save-webhook' ? { webhookUrl: failure.values.webhookUrl ?? '' } : undefined,
    toast: {
      type: 'error',
      message: FAILED_ACTIONS[intent] ?? 'Auto Pilot could not do that just now. Please try again.',
      duration: 8000,
    },
  }
}

function asActionData(answer: unknown): ActionData | undefined {
  const failure = clientFailureOf(answer)
  return failure ? failedAction(failure) : (answer as ActionData | undefined)
}

export default function AutopilotPage() {
  const { data: loaded, failure: refreshFailure } = useKeptLoaderData<SerializeFrom<typeof loader>>()
  const data = refreshFailure ? { ...loaded, loadError: AUTOPILOT_MESSAGES.statusFailed } : loaded
  const answer = useActionData<typeof clientAction>()
  const actionData = useMemo(() => asActionData(answer), [answer])
  const toggle = useFetcher<typeof clientAction>()
  const toggleData = useMemo(() => asActionData(toggle.data), [toggle.data])
  const [clientToast, setClientToast] = useState<Toast | null>(
    actionData?.toast ?? (data.loadError ? { type: 'error', message: data.loadError } : null),
  )
  // One toast when refreshing starts failing (the periodic refresh keeps trying; the alert stays until it works).
  const refreshFailing = refreshFailure !== null
  useEffect(() => {
    if (refreshFailing) setClientToast({ type: 'error', message: AUTOPILOT_MESSAGES.statusFailed, duration: 8000 })
  }, [refreshFailing])
  useEffect(() => {
    if (actionData?.toast) setClientToast(actionData.toast)
  }, [actionData])
  useEffect(() => {
    if (toggleData?.toast) setClientToast(toggleData.toast)
  }, [toggleData])
  const revalidator = useRevalidator()

  const optimisticEnabled = toggle.formData ? toggle.formData.get('enabled') === 'true' : data.enabled
  const showSections = optimisticEnabled && data.enabled

  // While something is on its way (the first run, a post being written, a delivery being retried), refresh now and then.
  const waiting =
    data.enabled &&
    (data.status.length === 0 ||
      data.status.some((r) => !r.blogPost._id && r.postStatus !== 'failed') ||
      data.deliveries.some((d) => d.status === 'pending'))
  // Never refresh while a form is on its way or just answered: a refresh racing the action's redirect would read
  // (and so swallow) the toast that the redirect carries.
  const navigation = useNavigation()
  const lastBusyAt = useRef(0)
  if (navigation.state !== 'idle' || toggle.state !== 'idle') lastBusyAt.current = Date.now()
  useEffect(() => {
    if (!waiting) return
    const timer = setInterval(() => {
      const quiet = Date.now() - lastBusyAt.current > 10_000
      if (quiet && revalidator.state === 'idle' && document.visibilityState === 'visible') revalidator.revalidate()
    }, 5000)
    return () => clearInterval(timer)
  }, [waiting, revalidator])

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <PageHeader
        title="Auto Pilot"
        subtitle="Rankwell picks a keyword, writes the post and publishes it to your site, on its own."
      />
      <Toaster toast={clientToast} />

      {data.loadError ? (
        <p role="alert" className="mb-6 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          {data.loadError}
        </p>
      ) : null}
      {data.notice && data.enabled ? (
        <p
          role="status"
          data-testid="autopilot-notice"
          className="mb-6 rounded-xl border border-yellow-200 bg-yellow-50 p-4 text-sm text-yellow-900"
        >
          {data.notice}
        </p>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <section className="card" aria-labelledby="business-heading">
          <div className="flex items-start justify-between gap-4">
            <h2 id="business-heading" className="text-lg font-semibold text-slate-900">
              Business Details
            </h2>
            <Link to="/profile" className="text-sm font-semibold text-brand-700 hover:underline">
              Edit in profile
            </Link>
          </div>
          <dl className="mt-4 grid gap-3 text-sm">
            {(
              [
                ['Website', data.business.website],
                ['Ideal Customer', data.business.marketSegment],
                ['Product/Service', data.business.productService],
                ['Country', data.business.country],
                ['Language', data.business.language],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="grid gap-0.5 sm:grid-cols-3 sm:gap-2">
                <dt className="font-medium text-slate-600">{label}</dt>
                <dd className="min-w-0 text-slate-900 [overflow-wrap:anywhere] sm:col-span-2">
                  {value || <span className="text-slate-500">Not set</span>}
                </dd>
              </div>
            ))}
          </dl>
        </section>

        <section className="card" aria-labelledby="toggle-heading">
          <h2 id="toggle-heading" className="text-lg font-semibold text-slate-900">
            Auto Pilot
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            While it is on, Auto Pilot researches keywords from your business details, writes a post for the best unused
            one and sends it to your webhook. Posts count against your plan&apos;s blog posts.
          </p>
          <toggle.Form method="post" className="mt-4 flex items-center gap-3">
            <input type="hidden" name="intent" value="toggle" />
            <input type="hidden" name="enabled" value={optimisticEnabled ? 'false' : 'true'} />
            <button
              type="submit"
              role="switch"
              aria-checked={optimisticEnabled}
              aria-label="Auto Pilot"
              disabled={!data.loaded || (!data.allowed && !optimisticEnabled)}
              className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition disabled:cursor-not-allowed disabled:opacity-50 ${optimisticEnabled ? 'bg-brand-600' : 'bg-slate-300'}`}
            >
              <span
                className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${optimisticEnabled ? 'translate-x-6' : 'translate-x-1'}`}
              />
            </button>
            <span className="text-sm font-semibold text-slate-900" data-testid="autopilot-state">
              {optimisticEnabled ? 'On' : 'Off'}
            </span>
          </toggle.Form>
          {!data.allowed && data.loaded ? (
            <p className="mt-3 text-sm text-slate-700">
              {AUTOPILOT_MESSAGES.planRequired}{' '}
              <Link to="/profile" className="font-semibold text-brand-700 underline">
                Upgrade Now
              </Link>
            </p>
          ) : null}
          <Form method="post" className="mt-6 flex flex-wrap items-end gap-3">
            <SelectField
              label="How often"
              name="cadenceDays"
              defaultValue={String(data.cadenceDays)}
              options={[...CADENCE_OPTIONS]}
              error={actionData?.intent === 'cadence' ? actionData.errors?.cadenceDays : undefined}
              className="min-w-[14rem] flex-1"
            />
            <SubmitButton intent="cadence" className="btn-secondary" pendingText="Saving...">
              Save schedule
            </SubmitButton>
          </Form>
        </section>
      </div>

      {showSections && data.webhook ? (
        <WebhookSection
          webhook={data.webhook}
          deliveries={data.deliveries}
          actionData={actionData}
          onToast={setClientToast}
        />
      ) : null}

      {showSections ? (
        <section className="card mt-6" aria-labelledby="status-heading">
          <div className="flex items-center justify-between gap-4">
            <h2 id="status-heading" className="text-lg font-semibold text-slate-900">
              Auto Pilot Status
            </h2>
            <Link to="/autopilot" className="text-sm font-semibold text-brand-700 hover:underline" preventScrollReset>
              Refresh
            </Link>
          </div>
          <DataTable
            label="Auto Pilot status table"
            className="mt-4"
            gap="pr-4"
            columns={['Keyword', 'Searches/Month', 'Difficulty', 'Blog Post']}
            empty={data.status.length === 0 ? 'No keywords yet. Auto Pilot picks one at its next run.' : null}
          >
            {data.status.map((row, i) => {
              const band = difficultyBand(row.difficultyScore)
              return (
                <tr key={`${row.keyword}-${i}`} className="border-b border-slate-100" data-testid="status-row">
                  <td className="py-3 pr-4 font-medium text-slate-900" data-label="Keyword" data-wide>
                    {row.keyword}
                  </td>
                  <td className="py-3 pr-4 tabular-nums" data-label="Searches/Month">
                    {formatVolume(row.avgMonthlySearches)}
                  </td>
                  <td className="py-3 pr-4" data-label="Difficulty">
                    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${band.className}`}>
                      {row.difficultyScore ?? ''} {band.label}
                    </span>
                  </td>
                  <td className="py-3" data-label="Blog Post" data-wide>
                    {row.blogPost._id ? (
                      <Link
                        to={`/blogpost/${row.blogPost._id}`}
                        className="font-semibold text-brand-700 hover:underline"
                      >
                        View Post
                      </Link>
                    ) : row.postStatus === 'failed' ? (
                      <span className="text-red-700">Failed</span>
                    ) : (
                      <span className="text-slate-600">Pending</span>
                    )}
                  </td>
                </tr>
              )
            })}
          </DataTable>
        </section>
      ) : null}
      {data.publishing ? (
        <ReviewSection
          data={data.publishing as ReviewSectionData}
          errors={actionData?.intent === 'review-settings' ? actionData.errors : undefined}
        />
      ) : null}
    </div>
  )
}
