import { readForm } from '#app/platform/http/body.server'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useRouteError,
  type ClientActionFunctionArgs,
} from '@remix-run/react'
import { useEffect, type ReactNode } from 'react'
import { showToast } from '#app/ui/toaster'
import {
  clientFailureOf,
  failureMessage,
  guardServerAction,
  revalidateUnlessFailed,
  withoutFailure,
} from '#app/ui/client-failure'
import { FormMessage } from '#app/ui/form-message'
import { DataCard, PasswordCard, SessionsCard } from '#app/features/accounts/components/account-security'
import { RankingsCard } from '#app/features/rankings/components/rankings-card'
import { SubscriptionCard } from '#app/features/billing/components/subscription-card'
import { cancelSubscriptionNow } from '#app/features/billing/billing.server'
import { revokeSearchConsoleGrant } from '#app/features/rankings/search-console.server'
import { PageHeader } from '#app/ui/page-header'
import { CustomerFields, MarketSelects, WebsiteField } from '#app/features/accounts/components/business-fields'
import { Field } from '#app/ui/field'
import { SubmitButton } from '#app/ui/submit-button'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { useSchemaForm } from '#app/ui/form'
import { businessValues, PROFILE_MESSAGES, profileFormSchema } from '#app/features/accounts/account-schemas'
import { profileFields, updateProfile } from '#app/features/accounts/profile.server'
import { SECURITY_INTENTS, securityAction, type SecurityIntent } from '#app/features/accounts/profile-security.server'
import { profilePageData } from '#app/features/rankings/profile-page.server'
import { setDigestEnabled } from '#app/features/rankings/rankings-insights.server'
import { getSessionId, requireUser } from '#app/features/accounts/session.server'
import { isSecondFactorIntent, secondFactorAction } from '#app/features/accounts/second-factor-actions.server'
import { SecondFactorCard, type SecondFactorAnswers } from '#app/features/accounts/components/second-factor-card'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'
import { gettingStartedProgress } from '#app/features/autopilot/getting-started.server'
import { GettingStartedCard, ShowGettingStarted } from '#app/features/autopilot/components/getting-started'
import { apiKeyAction, isApiKeyIntent } from '#app/features/accounts/api-key-actions.server'
import { ApiKeysCard } from '#app/features/accounts/components/api-keys-card'

export const meta: MetaFunction = () => [{ title: 'Profile | Rankwell' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  // Two statements side by side (issue 39: there were four, one after another): the page's (the subscription, the
  // Rankings card, the session list, the second factor of issue 34 and the API keys of issue 38) and the 'Get
  // started' checklist's (issue 35: after onboarding, until every step is done).
  const [page, started] = await Promise.all([
    getSessionId(request).then((sessionId) => profilePageData(user, sessionId)),
    gettingStartedProgress(user.id),
  ])
  const { secondFactor, apiKeys } = page
  const { stripeCustomerId: _hidden, ...summary } = page.summary
  return json(
    {
      profile: profileFields(user),
      security: { sessions: page.sessions, hasPassword: Boolean(user.passwordHash), secondFactor },
      summary,
      rankings: page.rankings,
      aiChecks: page.aiChecks,
      editing: new URL(request.url).searchParams.get('edit') === '1',
      gettingStarted: started && started.done < started.total ? started : null,
      apiKeys,
    },
    // The key of a second factor being set up is on the page: never kept by a cache.
    secondFactor.status === 'pending' ? { headers: { 'Cache-Control': 'no-store' } } : undefined,
  )
}

/** The profile form's answer on failure: Conform's reply (errors by field, the values to show again). */
type ProfileActionData = { intent: 'update-profile'; result: SubmissionResult<string[]> }

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const form = await readForm(request)
  if (form.get('intent') === 'rankings-digest') {
    const on = form.get('digest') === 'on'
    await setDigestEnabled(user.id, on)
    return toast().redirectWithSuccess('/profile', {
      message: on ? 'You will get the weekly rankings e-mail.' : 'Weekly rankings e-mail turned off.',
      duration: TOAST_MS,
    })
  }
  const intent = form.get('intent')
  if (isSecondFactorIntent(intent)) return secondFactorAction(request, user, intent, form)
  if (isApiKeyIntent(intent)) return apiKeyAction(request, user, intent, form) // issue 38
  if (SECURITY_INTENTS.includes(intent as SecurityIntent))
    return securityAction(request, user, intent as SecurityIntent, form, {
      cancelSubscription: cancelSubscriptionNow,
      revokeSearchConsole: revokeSearchConsoleGrant,
    })
  if (intent !== 'update-profile') return json(null, { status: 400 })
  const submission = parseSubmission(form, profileFormSchema)
  if (submission.status !== 'success')
    return json<ProfileActionData>({ intent, result: submission.reply() }, { status: 400 })
  try {
    await updateProfile(user.id, submission.value)
  } catch (error) {
    console.error('[profile] update failed', error)
    return json<ProfileActionData>(
      { intent, result: submission.reply({ formErrors: [PROFILE_MESSAGES.failed] }) },
      { status: 500 },
    )
  }
  return toast().redirectWithSuccess('/profile', { message: PROFILE_MESSAGES.updated, duration: TOAST_MS })
}

/**
 * With JavaScript (issue 12): a save whose request fails stays in edit mode with the edits and shows the server's
 * message, else 'Failed to update profile.'; the page's other forms get a toast.
 */
export const clientAction = (args: ClientActionFunctionArgs) => guardServerAction<typeof action>(args)
export const shouldRevalidate = revalidateUnlessFailed

/** Issue 34: the action's last answer, when it was about the two-step sign-in card. */
function twoStepAnswers(answer: unknown): SecondFactorAnswers {
  if (!answer || typeof answer !== 'object' || !('intent' in answer)) return {}
  const a = answer as {
    intent: string
    result?: SecondFactorAnswers['start']
    recoveryCodes?: string[]
    message?: string
  }
  switch (a.intent) {
    case '2fa-start':
      return { start: a.result }
    case '2fa-confirm':
      return { confirm: a.result }
    case '2fa-recovery-codes':
      return { regenerate: a.result }
    case '2fa-disable':
      return { disable: a.result }
    case '2fa-codes':
      return a.recoveryCodes && a.message ? { codes: { recoveryCodes: a.recoveryCodes, message: a.message } } : {}
    default:
      return {}
  }
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 font-medium text-slate-900 [overflow-wrap:anywhere]">
        {children || <span className="font-normal text-slate-500">Not set</span>}
      </dd>
    </div>
  )
}

/**
 * The profile's edit form, mounted while editing (so that it opens with the saved profile every time). `result` is
 * the action's reply to it; `failed`, the message of a save whose request failed in the browser (the edits stay).
 */
function ProfileForm({
  profile,
  result,
  failed,
}: {
  profile: Parameters<typeof businessValues>[0] & { name: string }
  result: SubmissionResult<string[]> | undefined
  failed: string | undefined
}) {
  const { fields, formProps, message } = useSchemaForm({
    id: 'profile',
    schema: profileFormSchema,
    lastResult: result,
    defaultValue: { name: profile.name, ...businessValues(profile) },
  })
  return (
    <Form method="post" className="mt-6 space-y-5" aria-label="Edit profile" {...formProps}>
      <FormMessage message={failed ?? message} tone="error" />
      <Field label="Name" required maxLength={100} autoComplete="name" meta={fields.name} />
      <CustomerFields fields={fields} marketSegment={{ hint: 'Your market segment: who you sell to.' }} />
      <fieldset id="business-details" className="space-y-5 rounded-xl border border-slate-200 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-800">Business details (used by Auto Pilot)</legend>
        <WebsiteField meta={fields.website} />
        <MarketSelects fields={fields} />
      </fieldset>
      <div className="flex justify-end gap-3">
        <Link to="/profile" preventScrollReset className="btn-secondary">
          Cancel
        </Link>
        <SubmitButton intent="update-profile" pendingText="Saving...">
          Save
        </SubmitButton>
      </div>
    </Form>
  )
}

export default function Profile() {
  const { profile, security, summary, editing, rankings, aiChecks, gettingStarted, apiKeys } =
    useLoaderData<typeof loader>()
  const response = useActionData<typeof clientAction>()
  const failure = clientFailureOf(response)
  const answer = withoutFailure(response)
  useEffect(() => {
    if (failure && failure.intent !== 'update-profile')
      showToast({ type: 'error', message: failureMessage(failure, 'That did not go through. Please try again.') })
  }, [failure])
  const failedSave = failure?.intent === 'update-profile' ? failureMessage(failure, PROFILE_MESSAGES.failed) : undefined
  const resultOf = (intent: 'update-profile' | 'change-password' | 'delete-account') =>
    answer && answer.intent === intent && 'result' in answer ? answer.result : undefined
  const profileResult = resultOf('update-profile')
  const secondFactorAnswers = twoStepAnswers(answer)
  const isEditing = editing || Boolean(profileResult) || Boolean(failedSave)

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <PageHeader title="Your Profile" subtitle="Your account, your business details and your subscription." />
      {gettingStarted && !gettingStarted.hidden ? <GettingStartedCard data={gettingStarted} /> : null}
      {gettingStarted?.hidden ? (
        <div className="mb-6">
          <ShowGettingStarted data={gettingStarted} />
        </div>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <section className="card lg:col-span-2" aria-labelledby="profile-title" data-testid="profile-card">
          <div className="flex items-start justify-between gap-4">
            <div>
              <h2 id="profile-title" className="text-lg font-semibold">
                {profile.name || 'Your account'}
              </h2>
              <p className="text-sm text-slate-600">{profile.email}</p>
            </div>
            {isEditing ? null : (
              <Link to="/profile?edit=1" preventScrollReset className="btn-secondary">
                Edit
              </Link>
            )}
          </div>

          {isEditing ? (
            <ProfileForm profile={profile} result={profileResult} failed={failedSave} />
          ) : (
            <>
              <dl className="mt-6 grid gap-5 sm:grid-cols-2">
                <Detail label="Name">{profile.name}</Detail>
                <Detail label="Email">{profile.email}</Detail>
                <Detail label="Ideal Customer">{profile.marketSegment}</Detail>
                <Detail label="Product/Service">{profile.productService}</Detail>
              </dl>
              <h3 id="business-details" className="mt-8 text-sm font-semibold uppercase tracking-wide text-slate-500">
                Business details (used by Auto Pilot)
              </h3>
              <dl className="mt-3 grid gap-5 sm:grid-cols-3">
                <Detail label="Website">{profile.website}</Detail>
                <Detail label="Country">{profile.country?.name}</Detail>
                <Detail label="Language">{profile.language?.name}</Detail>
              </dl>
            </>
          )}
        </section>

        <div className="space-y-6">
          <section className="card" aria-labelledby="settings-title" data-testid="settings-card">
            <h2 id="settings-title" className="text-lg font-semibold">
              Settings
            </h2>
            <ul className="mt-3 space-y-2 text-sm">
              <li>
                <Link to="/settings/content" className="font-semibold text-brand-700 hover:underline">
                  Content settings
                </Link>
                <span className="block text-slate-600">Value proposition, call to action, tone, writing sample.</span>
              </li>
              <li>
                <Link to="/settings/publishing" className="font-semibold text-brand-700 hover:underline">
                  Publishing settings
                </Link>
                <span className="block text-slate-600">WordPress, Ghost and Webflow destinations.</span>
              </li>
            </ul>
          </section>
          <SubscriptionCard summary={summary} />
          <RankingsCard
            tracked={rankings.tracked}
            limit={rankings.limit}
            digestEnabled={rankings.digestEnabled}
            aiChecks={aiChecks}
          />
          <SessionsCard
            sessions={security.sessions}
            message={answer?.intent === 'end-session' && 'message' in answer ? answer.message : undefined}
          />
          <SecondFactorCard
            view={security.secondFactor}
            hasPassword={security.hasPassword}
            answers={secondFactorAnswers}
          />
          <ApiKeysCard keys={apiKeys} secondFactor={security.secondFactor.status === 'on'} answer={answer} />
          <PasswordCard
            hasPassword={security.hasPassword}
            secondFactor={security.secondFactor.status === 'on'}
            result={resultOf('change-password')}
          />
          <DataCard
            hasPassword={security.hasPassword}
            secondFactor={security.secondFactor.status === 'on'}
            result={resultOf('delete-account')}
          />
        </div>
      </div>
    </div>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const data = isRouteErrorResponse(error) ? (error.data as { message?: unknown } | string | undefined) : undefined
  const message =
    typeof data === 'object' && data && typeof data.message === 'string' ? data.message : PROFILE_MESSAGES.loadFailed
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-bold">Profile</h1>
      <p className="mt-4 text-red-700" role="alert">
        {message}
      </p>
      <Link to="/profile" className="btn-primary mt-8">
        Try again
      </Link>
    </div>
  )
}
