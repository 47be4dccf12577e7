import { readForm } from '#app/platform/http/body.server'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { SubmitButton } from '#app/ui/submit-button'
import { useSchemaForm } from '#app/ui/form'
import { firstMessage, parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { BILLING_MESSAGES, formatMoney } from '#app/features/billing/billing'
import {
  INTEGRATIONS,
  LIMITS,
  PLAN_INCLUDES,
  PLANS,
  PREMIUM_FEATURES,
  TRIAL_DAYS,
  TRIAL_FEATURES,
  planValue,
  type PlanId,
} from '#app/features/billing/plans'
import { TRACKED_KEYWORD_LIMITS } from '#app/features/rankings/rankings'
import { capabilities } from '#app/platform/capabilities.server'
import {
  BillingError,
  billingAvailability,
  createCheckoutSession,
  trialBillingNotice,
} from '#app/features/billing/billing.server'
import { getUsageSummary } from '#app/features/billing/quota.server'
import { getUser } from '#app/features/accounts/session.server'
import { publicPage } from '#app/platform/http/cache'

/** Cacheable by a CDN for anonymous visitors (issue 17). */
export const handle = publicPage

export const meta: MetaFunction = () => [
  { title: 'Pricing: Rankwell Premium plans' },
  {
    name: 'description',
    content:
      'Premium Monthly $49.90, Every 3 Months $129.90 ($43.30 a month) or Yearly $499.90 ($41.66 a month), each with 500 keyword analyses and 100 AI-generated blog posts a month, Auto Pilot and publishing to WordPress, Ghost and Webflow. Cancel any time.',
  },
]

const SIGN_IN_URL = `/signin?${new URLSearchParams({ redirectTo: '/pricing' })}`

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request)
  const summary = user ? await getUsageSummary(user.id) : null
  const availability = billingAvailability()
  const can = capabilities()
  return json({
    signedIn: Boolean(user),
    configured: availability.configured,
    plans: PLANS.map((p) => {
      const value = planValue(p)
      return {
        id: p.id,
        title: p.title,
        description: p.description,
        price: formatMoney(value.priceCents),
        period: p.period,
        months: value.months,
        // The 3-month and yearly plans: what they come to a month and what they save against paying monthly.
        value:
          value.months > 1
            ? {
                perMonth: formatMoney(value.perMonthCents),
                saved: formatMoney(value.savedCents),
                savedPercent: value.savedPercent,
                monthlyTotal: formatMoney(value.monthlyTotalCents),
              }
            : null,
        features: PREMIUM_FEATURES,
        available: availability.plans[p.id],
      }
    }),
    monthlyPrice: formatMoney(planValue(PLANS[0]!).priceCents),
    // What this server can do for rankings: a plan lists only what will run (daily checks need a search-results
    // provider, Search Console a Google sign-in).
    rankTracking: can.rankTracking,
    searchConsole: can.searchConsole,
    current: summary && (summary.status === 'active' || summary.status === 'past_due') ? summary.plan : null,
    // Decision 0191: paying during the trial starts billing today; the trial's remaining days are not kept.
    trialNotice:
      summary && summary.status === 'trial' && !summary.trialExpired ? trialBillingNotice(summary.trialEndsAt) : null,
  })
}

/** Each plan's 'Get Started' form: the plan (a hidden field) and the button's intent; anything else is refused. */
const choosePlan = { errorMap: () => ({ message: 'Choose one of the plans below.' }) }
const checkoutForm = z.object({
  intent: z.literal('checkout', choosePlan),
  plan: z.enum(PLANS.map((p) => p.id) as [PlanId, ...PlanId[]], choosePlan),
})

/**
 * Starts Stripe Checkout for the chosen plan. The answer is Conform's reply (decision 0311) with the plan it was for:
 * a refusal (Stripe away, a plan not sold) is that plan's form error, a form that names no plan the page's banner.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await getUser(request)
  if (!user) return redirect(SIGN_IN_URL, 303)
  const submission = parseSubmission(await readForm(request), checkoutForm)
  if (submission.status !== 'success') return json({ plan: null, result: submission.reply() }, { status: 400 })
  const { plan } = submission.value
  try {
    const session = await createCheckoutSession(user, plan)
    return redirect(session.url, 303)
  } catch (error) {
    if (error instanceof BillingError)
      return json(
        { plan, result: submission.reply({ formErrors: [error.message] }) },
        {
          status: error.status,
          headers: error.retryAfterSeconds ? { 'Retry-After': String(error.retryAfterSeconds) } : undefined,
        },
      )
    throw error
  }
}

type Plan = SerializeFrom<typeof loader>['plans'][number]

/** What cancelling does and the refund policy, word for word as the FAQ and the decision record (0354) state them. */
export const CANCEL_TEXT =
  'Cancel any time with Cancel Subscription on your profile. Nothing is charged again, and you keep Premium until the end of the month, 3 months or year you have already paid for. After that, keyword searches and new posts stop until you subscribe again; your keywords and posts stay in your account.'
export const REFUND_TEXT =
  'Payments are not refunded, in full or in part: when you cancel, you keep Premium until the period you paid for ends. The one exception: if the same account is ever charged twice for a subscription, the duplicate is cancelled at once and refunded in full, without you asking.'

function Included({ children }: { children: React.ReactNode }) {
  return (
    <li className="flex gap-2">
      <span aria-hidden="true" className="text-brand-600">
        ✓
      </span>
      <span>{children}</span>
    </li>
  )
}

/** The trial and Premium side by side: limits, Auto Pilot, publishing and rankings (only what this server runs). */
function PlanIncludes({ rankTracking, searchConsole }: { rankTracking: boolean; searchConsole: boolean }) {
  const integrations = `Publish to ${INTEGRATIONS.slice(0, -1).join(', ')} or ${INTEGRATIONS[INTEGRATIONS.length - 1]}`
  const tracking = (limit: number) => `Rank tracking: the Google position of up to ${limit} keywords, checked every day`
  const console =
    'Google Search Console: the clicks, impressions and average position of your posts, once you connect it'
  return (
    <section aria-labelledby="included-title" className="mt-16">
      <h2 id="included-title" className="text-center text-2xl font-bold text-slate-900">
        What each plan includes
      </h2>
      <div className="mt-8 grid gap-6 md:grid-cols-2">
        <section aria-labelledby="included-trial" className="card" data-testid="included-trial">
          <h3 id="included-trial" className="text-lg font-semibold text-slate-900">
            Free trial
          </h3>
          <ul className="mt-4 space-y-2 text-sm text-slate-700">
            <Included>{PLAN_INCLUDES.trial.length}</Included>
            <Included>{PLAN_INCLUDES.trial.keywordSearches}</Included>
            <Included>{PLAN_INCLUDES.trial.blogPosts}</Included>
            <Included>Auto Pilot mode, during the trial</Included>
            <Included>{integrations}</Included>
            {rankTracking ? <Included>{tracking(TRACKED_KEYWORD_LIMITS.trial)}</Included> : null}
            {searchConsole ? <Included>{console}</Included> : null}
            <Included>{TRIAL_FEATURES[TRIAL_FEATURES.length - 1]}</Included>
          </ul>
          <p className="mt-4 text-xs text-slate-600">
            When the trial ends nothing is charged: searching and writing pause until you choose a plan.
          </p>
        </section>
        <section aria-labelledby="included-premium" className="card" data-testid="included-premium">
          <h3 id="included-premium" className="text-lg font-semibold text-slate-900">
            Premium, on every billing period
          </h3>
          <ul className="mt-4 space-y-2 text-sm text-slate-700">
            <Included>{PLAN_INCLUDES.premium.keywordSearches}</Included>
            <Included>{PLAN_INCLUDES.premium.blogPosts}</Included>
            <Included>Auto Pilot mode: picks keywords, writes and publishes on your schedule</Included>
            <Included>{integrations}</Included>
            {rankTracking ? <Included>{tracking(TRACKED_KEYWORD_LIMITS.premium)}</Included> : null}
            {searchConsole ? <Included>{console}</Included> : null}
            <Included>{PREMIUM_FEATURES[PREMIUM_FEATURES.length - 1]}</Included>
          </ul>
          <p className="mt-4 text-xs text-slate-600">
            The allowance renews every month, also on the 3-month and yearly plans; what is left at the end of a month
            does not carry over.
          </p>
        </section>
      </div>
    </section>
  )
}

/** Cancelling, refunds and the other questions asked before paying. Plain text: it reads the same without JavaScript. */
function PricingQuestions({ monthlyPrice }: { monthlyPrice: string }) {
  const questions: Array<[string, string]> = [
    ['How do I cancel?', CANCEL_TEXT],
    ['Can I get a refund?', REFUND_TEXT],
    [
      'What happens if I subscribe during my free trial?',
      'Billing starts the day you subscribe: the rest of the trial ends and the Premium allowance applies at once.',
    ],
    [
      'What if a payment fails?',
      'Premium keeps working while the payment is tried again over the next days, and every page shows a banner to update your payment method. If it cannot be collected, Premium ends; your keywords and posts stay.',
    ],
    [
      'Can I switch between monthly, 3-month and yearly billing?',
      `Yes: use Manage Payment on your profile. Paying every 3 months or yearly costs less than ${monthlyPrice} a month, and the allowance is the same.`,
    ],
  ]
  return (
    <section aria-labelledby="questions-title" className="mx-auto mt-16 max-w-3xl" data-testid="pricing-questions">
      <h2 id="questions-title" className="text-center text-2xl font-bold text-slate-900">
        Cancelling, refunds and other questions
      </h2>
      <div className="mt-8 space-y-6">
        {questions.map(([question, answer]) => (
          <div key={question}>
            <h3 className="font-semibold text-slate-900">{question}</h3>
            <p className="mt-1 text-sm text-slate-700">{answer}</p>
          </div>
        ))}
      </div>
    </section>
  )
}

/**
 * A plan's button: 'Get Started' posts the plan (its own form, `checkoutForm`), disabled with the reason when it
 * cannot be bought, a link to sign in for visitors; the refusal of its last checkout below it.
 */
function PlanAction({
  plan,
  signedIn,
  configured,
  disabled,
  current,
  lastResult,
}: {
  plan: Plan
  signedIn: boolean
  configured: boolean
  disabled: boolean
  current: boolean
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const { form, fields, formProps, message } = useSchemaForm({
    id: `checkout-${plan.id}`,
    schema: checkoutForm,
    lastResult,
  })
  const navigation = useNavigation()
  const pending =
    navigation.state !== 'idle' &&
    Boolean(navigation.formAction?.startsWith('/pricing')) &&
    navigation.formData?.get(fields.plan.name) === plan.id
  return (
    <div className="mt-8">
      {signedIn && disabled ? (
        <button type="button" className="btn-primary w-full" disabled aria-describedby={`plan-${plan.id}-note`}>
          {current ? 'Current Plan' : 'Get Started'}
        </button>
      ) : signedIn ? (
        <Form method="post" action="/pricing" {...formProps}>
          <input type="hidden" name={fields.plan.name} value={plan.id} />
          <SubmitButton
            name={fields.intent.name}
            value="checkout"
            className="btn-primary w-full"
            pending={pending}
            pendingText="Redirecting to checkout..."
            aria-describedby={message ? form.errorId : undefined}
          >
            Get Started
          </SubmitButton>
        </Form>
      ) : (
        <Link to={SIGN_IN_URL} className="btn-primary w-full">
          Get Started
        </Link>
      )}
      {message ? (
        <p id={form.errorId} role="alert" className="field-error">
          {message}
        </p>
      ) : null}
      {signedIn && disabled ? (
        <p id={`plan-${plan.id}-note`} className="mt-2 text-xs text-slate-600">
          {!configured
            ? 'Payments are unavailable right now.'
            : !plan.available
              ? BILLING_MESSAGES.planUnavailable
              : 'To change plan, use Manage Payment on your profile.'}
        </p>
      ) : !plan.available && configured ? (
        <p className="mt-2 text-xs text-slate-600">{BILLING_MESSAGES.planUnavailable}</p>
      ) : null}
    </div>
  )
}

export default function Pricing() {
  const { signedIn, configured, plans, current, trialNotice, rankTracking, searchConsole, monthlyPrice } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  // A form that named no plan of ours (not one of the page's buttons): the banner above the plans says so.
  const refused = actionData && !actionData.plan ? firstMessage(actionData.result) : undefined
  const currentTitle = plans.find((p) => p.id === current)?.title
  return (
    <div className="mx-auto max-w-6xl px-4 py-16">
      <div className="mx-auto max-w-2xl text-center">
        <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">Choose Your Growth Plan</h1>
        <p className="mt-4 text-lg text-slate-600">
          {`Every Premium plan includes Auto Pilot and ${LIMITS.premium.keywordSearches} keyword analyses and ${LIMITS.premium.blogPosts} AI-generated blog posts a month, also when you pay every 3 months or yearly.`}{' '}
          Cancel any time: you keep Premium until the end of the period you paid for.
        </p>
      </div>

      {!configured ? (
        <p
          role="alert"
          className="mx-auto mt-8 max-w-2xl rounded-xl border border-yellow-200 bg-yellow-50 p-4 text-sm text-yellow-900"
        >
          {BILLING_MESSAGES.notConfigured}
        </p>
      ) : null}
      {trialNotice && configured ? (
        <p
          className="mx-auto mt-8 max-w-2xl rounded-xl border border-brand-100 bg-brand-50 p-4 text-sm text-slate-800"
          data-testid="trial-notice"
        >
          {trialNotice}
        </p>
      ) : null}
      {currentTitle ? (
        <p
          role="status"
          className="mx-auto mt-8 max-w-2xl rounded-xl border border-green-200 bg-green-50 p-4 text-sm text-green-900"
        >
          You are on {currentTitle}. Manage your subscription from your{' '}
          <Link to="/profile" className="font-semibold underline">
            profile
          </Link>
          .
        </p>
      ) : null}
      {refused ? (
        <p role="alert" className="field-error mx-auto mt-8 max-w-2xl text-center">
          {refused}
        </p>
      ) : null}

      <div className="mt-12 grid gap-6 md:grid-cols-3">
        {plans.map((plan) => {
          const disabled = !plan.available || Boolean(currentTitle)
          return (
            <section
              key={plan.id}
              className="card flex flex-col"
              aria-labelledby={`plan-${plan.id}`}
              data-testid={`plan-${plan.id}`}
            >
              <h2 id={`plan-${plan.id}`} className="text-lg font-semibold text-slate-900">
                {plan.title}
              </h2>
              <p className="mt-2 text-sm text-slate-600">{plan.description}</p>
              <p className="mt-6">
                <span className="text-4xl font-bold text-slate-900">{plan.price}</span>{' '}
                <span className="text-sm text-slate-600">{plan.period}</span>
              </p>
              {plan.value ? (
                <div className="mt-2 text-sm text-slate-700" data-testid={`plan-${plan.id}-value`}>
                  <p>
                    <span className="font-semibold text-slate-900">{plan.value.perMonth} a month</span>
                    {' · '}
                    <span className="rounded-full bg-green-50 px-2 py-0.5 font-semibold text-green-800">
                      Save {plan.value.savedPercent}%
                    </span>
                  </p>
                  <p className="mt-1 text-xs text-slate-600">
                    {plan.value.saved} less than {plan.months} months of Premium Monthly ({plan.value.monthlyTotal}).
                  </p>
                </div>
              ) : (
                <p className="mt-2 text-sm text-slate-700" data-testid={`plan-${plan.id}-value`}>
                  No commitment: pay month by month.
                </p>
              )}
              <ul className="mt-6 flex-1 space-y-2 text-sm text-slate-700">
                {plan.features.map((f) => (
                  <li key={f} className="flex gap-2">
                    <span aria-hidden="true" className="text-brand-600">
                      ✓
                    </span>
                    {f}
                  </li>
                ))}
              </ul>
              <PlanAction
                plan={plan}
                signedIn={signedIn}
                configured={configured}
                disabled={disabled}
                current={current === plan.id}
                lastResult={actionData?.plan === plan.id ? actionData.result : undefined}
              />
            </section>
          )
        })}
      </div>

      <PlanIncludes rankTracking={rankTracking} searchConsole={searchConsole} />
      <PricingQuestions monthlyPrice={monthlyPrice} />

      {!signedIn ? (
        <p className="mt-10 text-center text-sm text-slate-600">
          Not ready yet?{' '}
          <Link to="/signup" className="font-semibold text-brand-700 underline">
            Start your {TRIAL_DAYS}-day free trial
          </Link>
          : no credit card required.
        </p>
      ) : null}
    </div>
  )
}
