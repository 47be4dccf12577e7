import { Form, Link, useFetcher, useNavigation } from '@remix-run/react'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import {
  cancelConfirmMessage,
  formatMoney,
  formatShortDate,
  monthlyCostCents,
  profileQuotaNote,
} from '#app/features/billing/billing'
import { PLANS } from '#app/features/billing/plans'
import type { UsageSummary } from '#app/features/billing/quota.server'
import { Dialog } from '#app/ui/dialog'

const STATUS_LABEL: Record<UsageSummary['status'], string> = {
  trial: 'Free Trial',
  active: 'Active',
  past_due: 'Past Due',
  canceled: 'Canceled',
}

type Summary = Omit<UsageSummary, 'stripeCustomerId'>

function Item({
  label,
  children,
  testId,
  note,
}: {
  label: string
  children: ReactNode
  testId?: string
  /** A line of explanation under the value. */
  note?: string
}) {
  return (
    <div>
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-medium text-slate-900" data-testid={testId}>
        {children}
      </dd>
      {note ? <dd className="mt-0.5 text-xs text-slate-500">{note}</dd> : null}
    </div>
  )
}

/**
 * The profile's subscription card: status, usage as count/limit (of this month for Premium, with the date the
 * allowance renews), the cost per month, the renewal date, and the billing actions. 'Manage Payment' and
 * 'Cancel Subscription' are form posts to /billing/portal and /billing/cancel (the cancel link opens a confirm
 * page without JavaScript, a dialog with it); 'Upgrade Now' appears for users without Premium who reached a quota.
 */
export function SubscriptionCard({ summary }: { summary: Summary }) {
  const premium = summary.status === 'active' || summary.status === 'past_due'
  const plan = PLANS.find((p) => p.id === summary.plan)
  const monthly =
    premium && summary.amountCents != null
      ? formatMoney(
          monthlyCostCents(summary.amountCents, summary.interval, summary.intervalCount ?? 1),
          summary.currency ?? 'usd',
        )
      : formatMoney(0)
  const renewal = formatShortDate(summary.renewalDate)
  const usageResets = formatShortDate(summary.usageResetsAt)
  const trialEnds = formatShortDate(summary.trialEndsAt)
  const canCancel = summary.status === 'active' && !summary.cancelAtPeriodEnd
  const showUpgrade = !premium && summary.reachedQuota
  // The same words as the refusal the user met: the spec's for trials, the month's allowance for Premium.
  const exhausted = (['keywordSearches', 'blogPosts'] as const).filter(
    (kind) => (kind === 'keywordSearches' ? summary.keywordSearchCount : summary.blogPostCount) >= summary.limits[kind],
  )
  const quotaNotes =
    premium || summary.status === 'trial' ? exhausted.map((kind) => profileQuotaNote(kind, summary)) : []

  const navigation = useNavigation()
  const portalPending = navigation.state !== 'idle' && navigation.formAction === '/billing/portal'
  const cancel = useFetcher()
  const [confirming, setConfirming] = useState(false)
  const wasBusy = useRef(false)
  useEffect(() => {
    if (cancel.state !== 'idle') wasBusy.current = true
    else if (wasBusy.current) {
      wasBusy.current = false
      setConfirming(false)
    }
  }, [cancel.state])
  useEffect(() => {
    if (!confirming) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setConfirming(false)
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [confirming])

  return (
    <section className="card" aria-labelledby="subscription-title" data-testid="subscription-card">
      <h2 id="subscription-title" className="text-lg font-semibold">
        Subscription
      </h2>
      <dl className="mt-4 grid grid-cols-2 gap-4 text-sm">
        <Item label="Status" testId="subscription-status">
          {STATUS_LABEL[summary.status]}
        </Item>
        <Item label="Plan" testId="subscription-plan">
          {premium && plan ? plan.title : summary.status === 'trial' ? 'Free Trial' : 'None'}
        </Item>
        <Item
          label="Keyword searches"
          testId="usage-keyword-searches"
          note="A results page, a topic grouping or a domain check counts as one search, once a day."
        >
          {summary.keywordSearchCount}/{summary.limits.keywordSearches}
        </Item>
        <Item label="Blog posts" testId="usage-blog-posts">
          {summary.blogPostCount}/{summary.limits.blogPosts}
        </Item>
        <Item label="Monthly Cost" testId="monthly-cost">
          {monthly}
        </Item>
        {premium ? (
          <Item label="Renewal Date" testId="renewal-date">
            {renewal ?? '—'}
          </Item>
        ) : summary.status === 'trial' ? (
          <Item label="Trial Ends" testId="trial-ends">
            {trialEnds ?? '—'}
          </Item>
        ) : null}
      </dl>
      {premium ? (
        <p className="mt-3 text-sm text-slate-600">To change plan or payment method, use Manage Payment.</p>
      ) : null}
      {premium && usageResets ? (
        <p className="mt-3 text-sm text-slate-600" data-testid="usage-resets">
          {`Your allowance renews monthly: usage resets on ${usageResets}.`}
        </p>
      ) : null}

      {summary.status === 'active' && summary.cancelAtPeriodEnd ? (
        <p className="mt-4 rounded-lg bg-slate-50 p-3 text-sm text-slate-700" data-testid="subscription-notice">
          Your subscription is canceled{renewal ? ` and ends on ${renewal}` : ''}. You keep Premium until then.
        </p>
      ) : summary.status === 'past_due' ? (
        <p className="mt-4 rounded-lg bg-yellow-50 p-3 text-sm text-yellow-900" data-testid="subscription-notice">
          Your last payment failed. Update your payment method with Manage Payment to keep Premium.
        </p>
      ) : summary.trialExpired ? (
        <p className="mt-4 rounded-lg bg-slate-50 p-3 text-sm text-slate-700" data-testid="subscription-notice">
          Your free trial has ended. Upgrade to keep finding keywords and writing posts.
        </p>
      ) : summary.status === 'canceled' ? (
        <p className="mt-4 rounded-lg bg-slate-50 p-3 text-sm text-slate-700" data-testid="subscription-notice">
          {summary.endedReason === 'payment_failed'
            ? 'Your Premium subscription ended because the payment could not be collected. '
            : 'Your Premium subscription has ended. '}
          Your keywords and posts are kept and readable. Subscribe again to keep finding keywords and writing posts.
        </p>
      ) : null}
      {quotaNotes.map((note) => (
        <p key={note} className="mt-3 text-sm text-slate-700" data-testid="quota-notice">
          {note}
        </p>
      ))}

      {premium || showUpgrade ? (
        <div className="mt-6 flex flex-wrap gap-3">
          {premium ? (
            <Form method="post" action="/billing/portal">
              <button
                type="submit"
                className="btn-secondary"
                disabled={portalPending}
                aria-busy={portalPending || undefined}
              >
                {portalPending ? 'Opening...' : 'Manage Payment'}
              </button>
            </Form>
          ) : null}
          {canCancel ? (
            <Link
              to="/billing/cancel"
              className="btn-danger"
              onClick={(e) => {
                e.preventDefault()
                setConfirming(true)
              }}
            >
              Cancel Subscription
            </Link>
          ) : null}
          {showUpgrade ? (
            <Link to="/pricing" className="btn-primary">
              Upgrade Now
            </Link>
          ) : null}
        </div>
      ) : (
        <p className="mt-6 text-sm text-slate-600">
          Need more?{' '}
          <Link to="/pricing" className="font-semibold text-brand-700 underline">
            Compare Premium plans
          </Link>
        </p>
      )}

      {confirming && canCancel ? (
        <Dialog
          open
          onClose={() => setConfirming(false)}
          labelledBy="cancel-dialog-title"
          describedBy="cancel-dialog-message"
        >
          <div className="p-6">
            <h2 id="cancel-dialog-title" className="text-lg font-semibold">
              Cancel Subscription
            </h2>
            <p id="cancel-dialog-message" className="mt-2 text-slate-700" data-testid="dialog-message">
              {cancelConfirmMessage(renewal)}
            </p>
            <cancel.Form method="post" action="/billing/cancel" className="mt-6 flex flex-wrap justify-end gap-3">
              <button type="button" className="btn-secondary" onClick={() => setConfirming(false)} data-autofocus>
                Close
              </button>
              <button
                type="submit"
                className="btn-danger"
                disabled={cancel.state !== 'idle'}
                aria-busy={cancel.state !== 'idle' || undefined}
              >
                {cancel.state !== 'idle' ? 'Canceling...' : 'Cancel Subscription'}
              </button>
            </cancel.Form>
          </div>
        </Dialog>
      ) : null}
    </section>
  )
}
