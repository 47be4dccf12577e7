/**
 * Plans and limits: the one place that says what each plan allows. The server enforces these numbers
 * (app/server/quota.server.ts) and every screen that mentions them reads them from here.
 */
export const TRIAL_DAYS = 7

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
  { id: 'monthly', title: 'Premium Monthly', description: 'Billed every month. Cancel anytime.', price: 49.9, period: 'per month', months: 1, envKey: 'STRIPE_PRICE_MONTHLY' },
  { id: 'quarterly', title: 'Premium Every 3 Months', description: 'Billed every 3 months.', price: 129.9, period: 'per 3 months', months: 3, envKey: 'STRIPE_PRICE_QUARTERLY' },
  { id: 'yearly', title: 'Premium Yearly', description: 'Billed once a year. Best value.', price: 499.9, period: 'per year', months: 12, envKey: 'STRIPE_PRICE_YEARLY' },
]

/**
 * What a Premium plan includes. The limits are per billing period (they reset at each renewal), so they are
 * worded by the plan's period: 'a month' for the monthly plan, 'every 3 months', 'a year'.
 */
export function premiumFeaturesFor(plan: { months: number }) {
  const per = plan.months === 1 ? 'a month' : plan.months === 12 ? 'a year' : `every ${plan.months} months`
  return [
    `${LIMITS.premium.keywordSearches} keyword analyses ${per}`,
    `${LIMITS.premium.blogPosts} AI-generated blog posts ${per}`,
    'Auto Pilot mode',
    'Priority support',
  ]
}

/** The monthly plan's features: what the landing page's Pro Plan card lists. */
export const PREMIUM_FEATURES = premiumFeaturesFor({ months: 1 })

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
  blogPosts: 'You have reached your trial limit for blog posts. Please go to your profile to upgrade your subscription.',
}
