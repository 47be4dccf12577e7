import { z } from 'zod'
import { safeText } from '#app/platform/security/safe-text'
import { LIMITS, QUOTA_MESSAGES, type QuotaKind } from './plans'

/**
 * Pure billing display logic shared by the pricing page and the profile's subscription card.
 * Prices and limits themselves live in ./plans.
 */

// Formatters are built once (issue 17: a new Intl formatter per call was a measurable part of rendering /profile).
const moneyFormats = new Map<string, Intl.NumberFormat>()
function moneyFormat(currency: string) {
  let format = moneyFormats.get(currency)
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency })
    if (moneyFormats.size < 50) moneyFormats.set(currency, format)
  }
  return format
}

/** `$49.90` for 4990 cents in USD (any ISO currency; zero-decimal currencies are not used here). */
export function formatMoney(cents: number, currency = 'usd') {
  try {
    return moneyFormat(currency.toUpperCase()).format(cents / 100)
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`
  }
}

/** A plan's price per month, in cents, rounded to the cent: 12990 every 3 months → 4330, 49990 a year → 4166. */
export function monthlyCostCents(amountCents: number, interval: string | null | undefined, intervalCount = 1) {
  const count = intervalCount > 0 ? intervalCount : 1
  const months = interval === 'year' ? 12 * count : interval === 'month' ? count : null
  if (months === null) {
    // Week or day plans are not sold; convert them by their average length so the label stays per month.
    const days = interval === 'week' ? 7 * count : count
    return Math.round((amountCents * 30.4375) / days)
  }
  return Math.round(amountCents / months)
}

/** 'MMM D, YYYY' (e.g. 'Mar 5, 2026'), in UTC so that the server and the browser render the same text. */
export function formatShortDate(iso: string | Date | null | undefined) {
  if (!iso) return null
  const date = typeof iso === 'string' ? new Date(iso) : iso
  if (Number.isNaN(date.getTime())) return null
  return SHORT_DATE.format(date)
}
const SHORT_DATE = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
})

/** What the user reads when billing fails or succeeds (the spec's wording where it has one). */
export const BILLING_MESSAGES = {
  notConfigured: 'Payments are not available right now. Please try again later.',
  planUnavailable: 'This plan is not available right now. Please choose another plan or try again later.',
  alreadySubscribed:
    'You already have an active Premium subscription. To change plan, use Manage Payment on your profile.',
  checkoutFailed: 'We could not start the checkout. Please try again.',
  portalFailed: 'Failed to access payment methods. Please try again.',
  noBillingAccount: 'There are no payment methods to manage yet. Choose a plan first.',
  cancelFailed: 'Failed to cancel subscription. Please try again.',
  cancelSucceeded: 'Subscription canceled successfully.',
  nothingToCancel: 'You have no active subscription to cancel.',
  alreadyCanceled: 'Your subscription is already set to cancel at the end of the billing period.',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
} as const

/** The question of the cancel confirm step. */
export function cancelConfirmMessage(endsOn: string | null) {
  return `Are you sure you want to cancel your subscription? You keep Premium${endsOn ? ` until ${endsOn}` : ' until the end of the billing period'}; after that, keyword searches and new posts stop until you subscribe again.`
}

/** A billing period as API clients show it: 'every month', 'every 3 months', 'every year'. Null without a plan. */
export function billingIntervalOf(interval: string | null | undefined, intervalCount: number | null | undefined) {
  if (interval !== 'day' && interval !== 'week' && interval !== 'month' && interval !== 'year') return null
  const count = intervalCount && intervalCount > 0 ? intervalCount : 1
  return { interval, intervalCount: count, label: count === 1 ? `every ${interval}` : `every ${count} ${interval}s` }
}

/**
 * The refusal when a quota is used up, in the words that fit the plan (issue 19): the spec's copy for trial users;
 * a Premium user is told the month's allowance and when it renews; a former subscriber, how to subscribe again.
 */
export function quotaMessage(
  kind: QuotaKind,
  summary: {
    status: 'trial' | 'active' | 'past_due' | 'canceled'
    usageResetsAt: string | null
    endedReason?: string | null
  },
) {
  if (summary.status === 'trial') return QUOTA_MESSAGES[kind]
  const noun = kind === 'keywordSearches' ? 'keyword searches' : 'blog posts'
  if (summary.status === 'active' || summary.status === 'past_due') {
    const renews = formatShortDate(summary.usageResetsAt)
    return `You have used this month's ${LIMITS.premium[kind]} ${noun}. ${renews ? `They renew on ${renews}.` : 'They renew next month.'}`
  }
  const why =
    summary.endedReason === 'payment_failed'
      ? 'Your Premium subscription ended because the payment could not be collected.'
      : 'Your Premium subscription has ended.'
  const what = kind === 'keywordSearches' ? 'search for keywords' : 'write new posts'
  return `${why} Your keywords and posts are kept and readable. Subscribe again on the pricing page to ${what}.`
}

/**
 * The same news as `quotaMessage`, worded for the profile page itself (issue 35: the spec's 'Please go to your
 * profile' is required copy where the refusal happens, never on the profile, where the upgrade is right below).
 */
export function profileQuotaNote(
  kind: QuotaKind,
  summary: {
    status: 'trial' | 'active' | 'past_due' | 'canceled'
    usageResetsAt: string | null
    endedReason?: string | null
  },
) {
  if (summary.status !== 'trial') return quotaMessage(kind, summary)
  const noun = kind === 'keywordSearches' ? 'keyword searches' : 'blog posts'
  return `You have used the ${LIMITS.trial[kind]} ${noun} of your free trial. Upgrade below to keep going.`
}

/** POST /api/create-checkout-session's body: the Stripe price of one of our plans. */
export const checkoutSchema = z.object({
  priceId: safeText({ required_error: 'priceId is required.' }).trim().min(1, 'priceId is required.'),
})
