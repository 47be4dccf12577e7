import { readForm } from '#app/platform/http/body.server'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from '@remix-run/node'
import { ACCOUNT_MESSAGES } from '#app/features/accounts/account-schemas'
import { json } from '@remix-run/node'
import {
  useActionData,
  useFetcher,
  type ClientActionFunctionArgs,
  type ClientLoaderFunctionArgs,
} from '@remix-run/react'
import { useMemo } from 'react'
import { WebhookSection } from '#app/features/autopilot/components/webhook-section'
import { PageHeader } from '#app/ui/page-header'
import { guardServerAction, guardServerLoader, revalidateUnlessFailed, useKeptLoaderData } from '#app/ui/client-failure'
import { Toaster } from '#app/ui/toaster'
import { ReviewSection, type ReviewSectionData } from '#app/features/publishing/components/review-section'
import { PUBLISHING_MESSAGES, reviewSettingsForm } from '#app/features/publishing/publishing'
import { saveReviewSettings } from '#app/features/publishing/review.server'
import { publishingOverview, reviewAction } from '#app/features/autopilot/autopilot-review.server'
import { AUTOPILOT_MESSAGES, cadenceForm, webhookUrlForm } from '#app/features/autopilot/settings/autopilot'
import { canUseAutopilot, getStatusList } from '#app/features/autopilot/autopilot.server'
import { autopilotPause } from '#app/features/autopilot/autopilot-pause.server'
import { PauseNotice } from '#app/features/autopilot/components/pause-notice'
import {
  getSettings,
  reenableWebhook,
  rotateWebhookSecret,
  saveWebhookUrl,
  setAutopilotEnabled,
  setCadence,
  webhookSecretOf,
} from '#app/features/autopilot/settings/settings.server'
import { parseSubmission } from '#app/platform/forms/submission'
import { hit } from '#app/platform/security/rate-limit.server'
import { requireUser } from '#app/features/accounts/session.server'
import { toast, TOAST_MS } from '#app/platform/http/toast.server'
import { listDeliveries, redeliver, sendTestEvent } from '#app/features/autopilot/settings/webhooks.server'
import { asActionData, replyTo, type AutopilotActionData as ActionData } from './action-data'
import { BusinessDetails } from './business-details'
import { StatusSection } from './status-section'
import { SwitchCard } from './switch-card'
import { usePageToast } from './use-page-toast'
import { useRefreshWhileWaiting } from '#app/ui/use-refresh-while-waiting'
import { deliveriesRefreshMs } from '#app/features/autopilot/components/webhook-section'

/** How often the page refreshes while Auto Pilot's run or post is on its way. */
const STATUS_REFRESH_MS = 5_000

/**
 * /autopilot: the business details, the switch and schedule, the webhook, the status of Auto Pilot's runs, and the
 * review of its drafts. The page's pieces are the files beside this one; the forms are Conform's (decision 0311):
 * each answer names its form (`intent`) and carries that form's reply.
 */
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
  /** The signing secret as the user copies it; blank (Rotate secret makes a new one) when it can no longer be read. */
  const readableSecret = (row: Awaited<ReturnType<typeof getSettings>>) => {
    try {
      return webhookSecretOf(row) ?? ''
    } catch (error) {
      console.error('[autopilot] the webhook signing secret could not be decrypted', error)
      return ''
    }
  }
  let settings: Awaited<ReturnType<typeof getSettings>> | null = null
  let allowed = false
  let pause: Awaited<ReturnType<typeof autopilotPause>> = null
  try {
    ;[settings, allowed, pause] = await Promise.all([
      getSettings(user.id),
      canUseAutopilot(user.id),
      autopilotPause(user.id),
    ])
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
      // Decision 0353: 'Paused: …' (posts used, trial ended) instead of promising posts that will not be written.
      pause: settings?.enabled ? pause : null,
      enabled: settings?.enabled ?? false,
      cadenceDays: settings?.cadenceDays ?? 1,
      notice: settings?.notice ?? null,
      webhook: settings?.enabled
        ? {
            url: settings.webhookUrl ?? '',
            secret: readableSecret(settings),
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
      const submission = parseSubmission(form, cadenceForm)
      if (submission.status !== 'success')
        return json<ActionData>({ intent, result: submission.reply() }, { status: 400 })
      try {
        await setCadence(user.id, submission.value.cadenceDays)
      } catch (error) {
        console.error('[autopilot] cadence failed', error)
        return fail({ intent }, 'Failed to save the Auto Pilot schedule.', 503)
      }
      return ok('Auto Pilot schedule saved.')
    }
    case 'save-webhook': {
      const submission = parseSubmission(form, webhookUrlForm)
      if (submission.status !== 'success')
        return json<ActionData>({ intent, result: submission.reply() }, { status: 400 })
      try {
        await saveWebhookUrl(user.id, submission.value.webhookUrl)
      } catch (error) {
        console.error('[autopilot] could not save the webhook URL', error)
        // The typed URL is shown again (the reply's kept value) under the failure's toast.
        return fail({ intent, result: submission.reply() }, AUTOPILOT_MESSAGES.webhookFailed, 500)
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
    case 'review-settings': {
      const submission = parseSubmission(form, reviewSettingsForm)
      if (submission.status !== 'success')
        return json<ActionData>({ intent, result: submission.reply() }, { status: 400 })
      await saveReviewSettings(user.id, submission.value)
      return ok(PUBLISHING_MESSAGES.reviewSaved)
    }
    case 'approve':
    case 'reject': {
      const result = await reviewAction(user.id, intent, form)
      return result.ok ? ok(result.message) : fail({ intent }, result.message, result.status)
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

export default function AutopilotPage() {
  const { data: loaded, failure: refreshFailure } = useKeptLoaderData<SerializeFrom<typeof loader>>()
  const data = refreshFailure ? { ...loaded, loadError: AUTOPILOT_MESSAGES.statusFailed } : loaded
  const answer = useActionData<typeof clientAction>()
  const actionData = useMemo(() => asActionData(answer), [answer])
  const toggle = useFetcher<typeof clientAction>()
  const toggleData = useMemo(() => asActionData(toggle.data), [toggle.data])
  const [clientToast, setClientToast] = usePageToast({
    actionData,
    toggleData,
    loadError: data.loadError,
    refreshFailing: refreshFailure !== null,
  })

  const optimisticEnabled = toggle.formData ? toggle.formData.get('enabled') === 'true' : data.enabled
  const showSections = optimisticEnabled && data.enabled

  // While Auto Pilot's run or post is on its way, and while a webhook delivery is being sent or retried (around its
  // next attempt), the page refreshes itself (with JavaScript, while the tab is visible).
  const statusWaiting =
    data.enabled && (data.status.length === 0 || data.status.some((r) => !r.blogPost._id && r.postStatus !== 'failed'))
  const deliveriesMs = data.enabled ? deliveriesRefreshMs(data.deliveries, Date.now()) : null
  const refreshMs = statusWaiting ? Math.min(STATUS_REFRESH_MS, deliveriesMs ?? Infinity) : deliveriesMs
  useRefreshWhileWaiting(refreshMs, toggle.state !== 'idle')

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
      {data.pause ? <PauseNotice pause={data.pause} /> : null}
      {data.notice && data.enabled && !data.pause ? (
        <p
          role="status"
          data-testid="autopilot-notice"
          className="mb-6 rounded-xl border border-yellow-200 bg-yellow-50 p-4 text-sm text-yellow-900"
        >
          {data.notice}
        </p>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <BusinessDetails business={data.business} />
        <SwitchCard
          toggle={toggle}
          enabled={optimisticEnabled}
          loaded={data.loaded}
          allowed={data.allowed}
          cadenceDays={data.cadenceDays}
          cadenceResult={replyTo(actionData, 'cadence')}
          paused={Boolean(data.pause)}
        />
      </div>

      {showSections && data.webhook ? (
        <WebhookSection
          webhook={data.webhook}
          deliveries={data.deliveries}
          lastResult={replyTo(actionData, 'save-webhook')}
          onToast={setClientToast}
        />
      ) : null}

      {showSections ? <StatusSection status={data.status} /> : null}
      {data.publishing ? (
        <ReviewSection
          data={data.publishing as ReviewSectionData}
          lastResult={replyTo(actionData, 'review-settings')}
        />
      ) : null}
    </div>
  )
}
