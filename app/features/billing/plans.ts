import { TRIAL_DAYS } from '#app/features/accounts/trial'
/**
 * Plans and limits: the one place that says what each plan allows. The server enforces these numbers
 * (app/server/quota.server.ts) and every screen that mentions them reads them from here.
 */
export { TRIAL_DAYS }

export const LIMITS = {
  trial: { keywordSearches: 10, blogPosts: 5 },
  premium: { keywordSearches: 500, blogPosts: 100 },
} as const

export type QuotaKind = 'keywordSearches' | 'blogPosts'
export type PlanId = 'monthly' | 'quarterly' | 'yearly'

export const PLANS: Array<{
  id: PlanId
  title: string
  description: string
  price: number
  period: string
  months: number
  envKey: 'STRIPE_PRICE_MONTHLY' | 'STRIPE_PRICE_QUARTERLY' | 'STRIPE_PRICE_YEARLY'
}> = [
  {
    id: 'monthly',
    title: 'Premium Monthly',
    description: 'Billed every month. Cancel anytime.',
    price: 49.9,
    period: 'per month',
    months: 1,
    envKey: 'STRIPE_PRICE_MONTHLY',
  },
  {
    id: 'quarterly',
    title: 'Premium Every 3 Months',
    description: 'Billed every 3 months.',
    price: 129.9,
    period: 'per 3 months',
    months: 3,
    envKey: 'STRIPE_PRICE_QUARTERLY',
  },
  {
    id: 'yearly',
    title: 'Premium Yearly',
    description: 'Billed once a year. Best value.',
    price: 499.9,
    period: 'per year',
    months: 12,
    envKey: 'STRIPE_PRICE_YEARLY',
  },
]

/**
 * What every Premium plan includes. The allowance is monthly on every plan, whatever the billing period (the
 * quarterly and yearly plans only bill less often): app/server/quota.server.ts starts a new usage month every month
 * from the subscription's start. Listed by the landing page's Pro Plan card, the pricing cards and the JSON-LD offers.
 */
export const PREMIUM_FEATURES = [
  `${LIMITS.premium.keywordSearches} keyword analyses a month`,
  `${LIMITS.premium.blogPosts} AI-generated blog posts a month`,
  'Auto Pilot mode',
  'Priority support',
]

export const TRIAL_FEATURES = [
  `${LIMITS.trial.keywordSearches} keyword analyses`,
  `${LIMITS.trial.blogPosts} AI-generated blog posts`,
  'Basic support',
]

/**
 * What a plan costs a month, and what it saves against paying monthly for the same months, from the prices above (never
 * typed in by hand). Amounts are whole cents rounded to the nearest cent ($499.90 / 12 = $41.658 → $41.66); the
 * percentage is the saving over the monthly plan's price times the months, rounded to the nearest whole percent
 * ($98.90 of $598.80 = 16.5% → 17%), and is shown beside the saving in dollars so nobody has to trust the rounding.
 */
export function planValue(plan: { price: number; months: number }, monthly: { price: number } = PLANS[0]!) {
  const priceCents = Math.round(plan.price * 100)
  const months = plan.months > 0 ? plan.months : 1
  const monthlyTotalCents = Math.round(monthly.price * 100) * months
  const savedCents = Math.max(0, monthlyTotalCents - priceCents)
  return {
    months,
    priceCents,
    perMonthCents: Math.round(priceCents / months),
    /** What the same months cost on the monthly plan. */
    monthlyTotalCents,
    savedCents,
    savedPercent: monthlyTotalCents > 0 ? Math.round((savedCents * 100) / monthlyTotalCents) : 0,
  }
}

/** Where Premium articles go: the destinations /settings/publishing connects and the Auto Pilot webhook. */
export const INTEGRATIONS = ['WordPress', 'Ghost', 'Webflow', 'a webhook to any other system']

/**
 * What the trial and Premium include, as the pricing page states them (the numbers are the ones the server enforces:
 * quota.server.ts). Rank tracking (its limits are in rankings.ts) is listed by the page, which knows whether this
 * server checks positions.
 */
export const PLAN_INCLUDES = {
  trial: {
    length: `${TRIAL_DAYS} days, no credit card`,
    keywordSearches: `${LIMITS.trial.keywordSearches} keyword analyses in total`,
    blogPosts: `${LIMITS.trial.blogPosts} AI-generated blog posts in total`,
  },
  premium: {
    keywordSearches: `${LIMITS.premium.keywordSearches} keyword analyses a month`,
    blogPosts: `${LIMITS.premium.blogPosts} AI-generated blog posts a month`,
  },
} as const

export function limitsFor(status: 'trial' | 'active' | 'past_due' | 'canceled') {
  return status === 'active' || status === 'past_due' ? LIMITS.premium : LIMITS.trial
}

export const QUOTA_MESSAGES: Record<QuotaKind, string> = {
  keywordSearches:
    'You have reached your trial limit for keyword searches. Please go to your profile to upgrade your subscription.',
  blogPosts:
    'You have reached your trial limit for blog posts. Please go to your profile to upgrade your subscription.',
}
