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

export function limitsFor(status: 'trial' | 'active' | 'past_due' | 'canceled') {
  return status === 'active' || status === 'past_due' ? LIMITS.premium : LIMITS.trial
}

export const QUOTA_MESSAGES: Record<QuotaKind, string> = {
  keywordSearches:
    'You have reached your trial limit for keyword searches. Please go to your profile to upgrade your subscription.',
  blogPosts:
    'You have reached your trial limit for blog posts. Please go to your profile to upgrade your subscription.',
}
