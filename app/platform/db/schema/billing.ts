/**
 * Billing: plans, subscriptions and usage (one row per user), and the Stripe events already handled.
 */
import { boolean, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { updatedAt } from './columns'
import { users } from './accounts'

export const subscriptionStatus = pgEnum('subscription_status', ['trial', 'active', 'past_due', 'canceled'])

export const subscriptions = pgTable(
  'subscriptions',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: subscriptionStatus('status').notNull().default('trial'),
    plan: text('plan', { enum: ['monthly', 'quarterly', 'yearly'] }),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }).notNull(),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    stripePriceId: text('stripe_price_id'),
    amountCents: integer('amount_cents'),
    currency: text('currency'),
    interval: text('interval'),
    intervalCount: integer('interval_count'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /**
     * Start of the current usage window: the trial counts as one; Premium windows are one month long (rolled over
     * by quota.server.ts) and start afresh at each renewal.
     */
    usagePeriodStart: timestamp('usage_period_start', { withTimezone: true }).notNull().defaultNow(),
    keywordSearchCount: integer('keyword_search_count').notNull().default(0),
    blogPostCount: integer('blog_post_count').notNull().default(0),
    /** When the Stripe read behind the applied state began: a state read earlier than this is stale and skipped. */
    stripeStateAt: timestamp('stripe_state_at', { withTimezone: true }),
    // Issue 19: billing (migration 0010_billing.sql)
    /** The last Checkout Session a webhook or the return page saw completed: /checkout-success trusts it offline. */
    lastCheckoutSessionId: text('last_checkout_session_id'),
    /** When the 'payment failed' e-mail went out for the current past-due episode (cleared once paid again). */
    paymentFailedNotifiedAt: timestamp('payment_failed_notified_at', { withTimezone: true }),
    /** Why Premium ended, from Stripe's cancellation_details.reason ('payment_failed', 'cancellation_requested'…). */
    endedReason: text('ended_reason'),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_customer_idx').on(t.stripeCustomerId),
    index('subscriptions_stripe_sub_idx').on(t.stripeSubscriptionId),
  ],
)

export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
})
