import { and, eq, isNull } from 'drizzle-orm'
import { BILLING_MESSAGES } from '#app/lib/billing'
import { PLANS, type PlanId } from '#app/lib/plans'
import { db, schema } from './db.server'
import { getEnv } from './env.server'
import { hit } from './rate-limit.server'
import { Stripe, stripeClient } from './stripe.server'

/**
 * Plans and billing through Stripe: Checkout for new subscriptions, the Customer Portal for payment methods,
 * cancel at period end, and the webhook that keeps each user's subscription row in step with Stripe.
 * Quotas themselves are counted in quota.server.ts; this module only moves the row between plans and periods.
 */

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0]
type SubscriptionRow = typeof schema.subscriptions.$inferSelect
type Status = SubscriptionRow['status']

/** A business error with the status and message the user sees (never 403: clients sign out on 403). */
export class BillingError extends Error {
  constructor(
    public status: number,
    message: string,
  ) {
    super(message)
  }
}

/** Each checkout or portal session is a Stripe API call: 20 per user per 10 minutes is plenty for a person. */
async function limitSessions(kind: 'checkout' | 'portal', userId: string) {
  const result = await hit(`billing-${kind}:${userId}`, { limit: 20, windowSeconds: 600, failOpen: true })
  if (!result.allowed) throw new BillingError(429, BILLING_MESSAGES.tooManyAttempts)
}

function requireStripe() {
  const client = stripeClient()
  if (!client) throw new BillingError(503, BILLING_MESSAGES.notConfigured)
  return client
}

/** The Stripe price id of each plan, from the environment (STRIPE_PRICE_MONTHLY, _QUARTERLY, _YEARLY). */
export function priceIdFor(plan: PlanId): string | undefined {
  const entry = PLANS.find((p) => p.id === plan)
  return entry ? getEnv()[entry.envKey] : undefined
}

export function planForPriceId(priceId: string | null | undefined): PlanId | null {
  if (!priceId) return null
  return PLANS.find((p) => getEnv()[p.envKey] === priceId)?.id ?? null
}

/** Whether checkout works at all, and which plans have a price id. */
export function billingAvailability() {
  const configured = Boolean(stripeClient())
  return {
    configured,
    plans: Object.fromEntries(PLANS.map((p) => [p.id, configured && Boolean(priceIdFor(p.id))])) as Record<
      PlanId,
      boolean
    >,
  }
}

async function subscriptionRow(userId: string) {
  const [row] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId)).limit(1)
  if (!row) throw new Error(`no subscription row for user ${userId}`)
  return row
}

const PREMIUM: Status[] = ['active', 'past_due']

/** Auto Pilot is for Premium users (active, or past due while Stripe retries the payment) and users in their trial. */
export async function canUseAutopilot(userId: string): Promise<boolean> {
  const [row] = await db
    .select({ status: schema.subscriptions.status, trialEndsAt: schema.subscriptions.trialEndsAt })
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.userId, userId))
    .limit(1)
  if (!row) return false
  if (PREMIUM.includes(row.status)) return true
  return row.status === 'trial' && row.trialEndsAt.getTime() > Date.now()
}

// ---------------------------------------------------------------------------
// Checkout, portal, cancel
// ---------------------------------------------------------------------------

/** The user's Stripe customer: created once, on the first checkout, and reused ever after. */
async function ensureCustomer(stripe: Stripe, user: { id: string; email: string; name: string }, row: SubscriptionRow) {
  if (row.stripeCustomerId) return row.stripeCustomerId
  const customer = await stripe.customers.create({
    email: user.email,
    name: user.name || undefined,
    metadata: { userId: user.id },
  })
  const [saved] = await db
    .update(schema.subscriptions)
    .set({ stripeCustomerId: customer.id, updatedAt: new Date() })
    .where(and(eq(schema.subscriptions.userId, user.id), isNull(schema.subscriptions.stripeCustomerId)))
    .returning({ id: schema.subscriptions.stripeCustomerId })
  if (saved?.id) return saved.id
  // A concurrent checkout saved its customer first: use that one.
  const current = await subscriptionRow(user.id)
  return current.stripeCustomerId ?? customer.id
}

/** A Stripe Checkout session in subscription mode for one plan. Returns its id and the hosted page's URL. */
export async function createCheckoutSession(user: { id: string; email: string; name: string }, plan: PlanId) {
  const stripe = requireStripe()
  const price = priceIdFor(plan)
  if (!price) throw new BillingError(503, BILLING_MESSAGES.planUnavailable)
  const row = await subscriptionRow(user.id)
  if (PREMIUM.includes(row.status) && row.stripeSubscriptionId)
    throw new BillingError(409, BILLING_MESSAGES.alreadySubscribed)
  await limitSessions('checkout', user.id)
  const appUrl = getEnv().APP_URL.replace(/\/+$/, '')
  try {
    const customer = await ensureCustomer(stripe, user, row)
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      line_items: [{ price, quantity: 1 }],
      client_reference_id: user.id,
      metadata: { userId: user.id, plan },
      subscription_data: { metadata: { userId: user.id, plan } },
      success_url: `${appUrl}/checkout-success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${appUrl}/pricing`,
    })
    if (!session.url) throw new Error('Stripe returned a checkout session without a URL')
    return { sessionId: session.id, url: session.url }
  } catch (error) {
    console.error('[billing] checkout failed', error instanceof Error ? error.message : error)
    throw new BillingError(502, BILLING_MESSAGES.checkoutFailed)
  }
}

/** A Customer Portal session where the user manages payment methods and invoices. Returns its URL. */
export async function createPortalSession(userId: string) {
  const stripe = requireStripe()
  const row = await subscriptionRow(userId)
  if (!row.stripeCustomerId) throw new BillingError(400, BILLING_MESSAGES.noBillingAccount)
  await limitSessions('portal', userId)
  try {
    const session = await stripe.billingPortal.sessions.create({
      customer: row.stripeCustomerId,
      return_url: `${getEnv().APP_URL.replace(/\/+$/, '')}/profile`,
    })
    return session.url
  } catch (error) {
    console.error('[billing] portal failed', error instanceof Error ? error.message : error)
    throw new BillingError(502, BILLING_MESSAGES.portalFailed)
  }
}

/** Cancels at the end of the current period: Premium stays until then. Applies Stripe's answer at once. */
export async function cancelSubscription(userId: string) {
  const stripe = requireStripe()
  const row = await subscriptionRow(userId)
  if (!PREMIUM.includes(row.status) || !row.stripeSubscriptionId)
    throw new BillingError(400, BILLING_MESSAGES.nothingToCancel)
  if (row.cancelAtPeriodEnd)
    return { message: BILLING_MESSAGES.alreadyCanceled, endsAt: row.currentPeriodEnd?.toISOString() ?? null }
  let updated: Stripe.Subscription
  try {
    updated = await stripe.subscriptions.update(row.stripeSubscriptionId, { cancel_at_period_end: true })
  } catch (error) {
    console.error('[billing] cancel failed', error instanceof Error ? error.message : error)
    throw new BillingError(502, BILLING_MESSAGES.cancelFailed)
  }
  await db.transaction(async (tx) => {
    const locked = await lockRow(tx, eq(schema.subscriptions.userId, userId))
    if (locked) await applySubscription(tx, locked, await currentSubscription(stripe, updated.id, updated))
  })
  const after = await subscriptionRow(userId)
  return { message: BILLING_MESSAGES.cancelSucceeded, endsAt: after.currentPeriodEnd?.toISOString() ?? null }
}

/**
 * On return from Checkout: checks that the session belongs to the user and has been paid, and applies the
 * subscription right away (the webhook may still be on its way).
 */
export async function confirmCheckout(
  userId: string,
  sessionId: string,
): Promise<'complete' | 'open' | 'invalid' | 'unknown'> {
  const stripe = stripeClient()
  if (!stripe) return 'invalid'
  let session: Stripe.Checkout.Session
  try {
    session = await stripe.checkout.sessions.retrieve(sessionId)
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) return 'invalid'
    if (error instanceof Stripe.errors.StripeInvalidRequestError) return 'invalid'
    console.error('[billing] could not read checkout session', error instanceof Error ? error.message : error)
    return 'unknown'
  }
  if (sessionOwner(session) !== userId) return 'invalid'
  if (session.status !== 'complete') return 'open'
  const subscriptionId = idOf(session.subscription)
  try {
    await db.transaction(async (tx) => {
      const row = await lockRow(tx, eq(schema.subscriptions.userId, userId))
      if (!row) return
      await attachCustomer(tx, row, idOf(session.customer))
      if (subscriptionId) await applySubscription(tx, row, await currentSubscription(stripe, subscriptionId))
    })
  } catch (error) {
    console.error('[billing] could not apply checkout on return', error instanceof Error ? error.message : error)
  }
  return 'complete'
}

// ---------------------------------------------------------------------------
// Webhooks
// ---------------------------------------------------------------------------

export type WebhookResult = { status: number; body: { received?: boolean; duplicate?: boolean; message?: string } }

const HANDLED = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
])

/**
 * Verifies and applies one Stripe webhook. The event id is stored in the same transaction as the change, so a
 * redelivered event is skipped; the subscription's state is re-read from the API under a row lock, so events
 * that arrive out of order can only move the row to Stripe's current state.
 */
export async function handleStripeWebhook(payload: string, signature: string | null): Promise<WebhookResult> {
  const stripe = stripeClient()
  const secret = getEnv().STRIPE_WEBHOOK_SECRET
  if (!stripe || !secret)
    return { status: 503, body: { message: 'Stripe webhooks are not configured on this server.' } }
  if (!signature) return { status: 400, body: { message: 'Missing Stripe-Signature header.' } }
  let event: Stripe.Event
  try {
    event = stripe.webhooks.constructEvent(payload, signature, secret)
  } catch (error) {
    return {
      status: 400,
      body: {
        message: `Webhook signature verification failed: ${error instanceof Error ? error.message : 'invalid signature'}`,
      },
    }
  }
  if (!HANDLED.has(event.type)) return { status: 200, body: { received: true } }
  const applied = await db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(schema.stripeEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: schema.stripeEvents.id })
    if (!stored) return false
    await applyEvent(tx, stripe, event)
    return true
  })
  return { status: 200, body: applied ? { received: true } : { received: true, duplicate: true } }
}

async function applyEvent(tx: Tx, stripe: Stripe, event: Stripe.Event) {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object
      if (session.mode !== 'subscription') return
      const userId = sessionOwner(session)
      const row = userId
        ? await lockRow(tx, eq(schema.subscriptions.userId, userId))
        : await rowForCustomer(tx, idOf(session.customer))
      if (!row) return
      await attachCustomer(tx, row, idOf(session.customer))
      const subscriptionId = idOf(session.subscription)
      if (subscriptionId) await applySubscription(tx, row, await currentSubscription(stripe, subscriptionId))
      return
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = event.data.object
      const row = (await rowForCustomer(tx, idOf(sub.customer))) ?? (await rowForUser(tx, sub.metadata?.userId))
      if (!row) return
      await applySubscription(tx, row, await currentSubscription(stripe, sub.id, sub))
      return
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object
      const subscriptionId = invoiceSubscriptionId(invoice)
      if (!subscriptionId) return
      const row =
        (await rowForCustomer(tx, idOf(invoice.customer))) ??
        (await rowForUser(tx, invoice.parent?.subscription_details?.metadata?.userId))
      if (!row) return
      await applySubscription(tx, row, await currentSubscription(stripe, subscriptionId))
      return
    }
    default:
      return
  }
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null
  return typeof value === 'string' ? value : value.id
}

function sessionOwner(session: Stripe.Checkout.Session): string | null {
  return session.client_reference_id ?? session.metadata?.userId ?? null
}

function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const fromParent = idOf(invoice.parent?.subscription_details?.subscription)
  if (fromParent) return fromParent
  // Events of API versions before 2025-03-31 carry the subscription on the invoice itself.
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription
  return idOf(legacy)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

async function lockRow(tx: Tx, where: ReturnType<typeof eq>) {
  const [row] = await tx.select().from(schema.subscriptions).where(where).limit(1).for('update')
  return row ?? null
}

async function rowForCustomer(tx: Tx, customerId: string | null) {
  return customerId ? lockRow(tx, eq(schema.subscriptions.stripeCustomerId, customerId)) : null
}

async function rowForUser(tx: Tx, userId: string | null | undefined) {
  return userId && UUID.test(userId) ? lockRow(tx, eq(schema.subscriptions.userId, userId)) : null
}

async function attachCustomer(tx: Tx, row: SubscriptionRow, customerId: string | null) {
  if (!customerId || row.stripeCustomerId) return
  await tx
    .update(schema.subscriptions)
    .set({ stripeCustomerId: customerId, updatedAt: new Date() })
    .where(eq(schema.subscriptions.userId, row.userId))
  row.stripeCustomerId = customerId
}

/** Stripe's current state of a subscription; the given copy only when the API no longer knows it. */
async function currentSubscription(
  stripe: Stripe,
  id: string,
  fallback?: Stripe.Subscription,
): Promise<Stripe.Subscription> {
  try {
    return await stripe.subscriptions.retrieve(id)
  } catch (error) {
    if (fallback && error instanceof Stripe.errors.StripeError && error.statusCode === 404) return fallback
    throw error
  }
}

/** Our status for a Stripe subscription status; null for states that change nothing (checkout not paid yet). */
function statusFor(stripeStatus: Stripe.Subscription.Status): Status | null {
  switch (stripeStatus) {
    case 'active':
    case 'trialing':
      return 'active'
    case 'past_due':
      return 'past_due'
    case 'canceled':
    case 'unpaid':
    case 'paused':
      return 'canceled'
    default:
      return null
  }
}

/** The billing period of a subscription: since the 2025-03-31 API it lives on the items. */
function periodOf(sub: Stripe.Subscription) {
  const items = sub.items?.data ?? []
  const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number }
  const starts = items.map((i) => i.current_period_start).filter((n): n is number => typeof n === 'number')
  const ends = items.map((i) => i.current_period_end).filter((n): n is number => typeof n === 'number')
  const start = starts.length ? Math.max(...starts) : legacy.current_period_start
  const end = ends.length ? Math.min(...ends) : legacy.current_period_end
  return {
    start: typeof start === 'number' ? new Date(start * 1000) : null,
    end: typeof end === 'number' ? new Date(end * 1000) : null,
  }
}

/**
 * Moves the (locked) row to a subscription's state: status, plan, price, period, cancel flag. A new paid period
 * (first activation, a renewal, or the first paid period after a failed renewal) starts a fresh usage window at the
 * period's start, so the monthly windows of quota.server.ts line up with billing (a quarterly or yearly period's
 * later months roll over there, anchored on this date). A window that quota.server.ts has already rolled to the
 * period's start is not reset again.
 */
async function applySubscription(tx: Tx, row: SubscriptionRow, sub: Stripe.Subscription) {
  const status = statusFor(sub.status)
  if (!status) return
  const live = status === 'active' || status === 'past_due'
  // Another subscription of the same customer that has ended must not override the one in use.
  if (row.stripeSubscriptionId && row.stripeSubscriptionId !== sub.id && !live && PREMIUM.includes(row.status)) return
  const item = sub.items?.data?.[0]
  const price = item?.price
  const { start, end } = periodOf(sub)
  const values: Partial<typeof schema.subscriptions.$inferInsert> = {
    status,
    stripeSubscriptionId: sub.id,
    stripeCustomerId: row.stripeCustomerId ?? idOf(sub.customer),
    stripePriceId: price?.id ?? row.stripePriceId,
    plan: planForPriceId(price?.id) ?? row.plan,
    amountCents: price?.unit_amount != null ? price.unit_amount * (item?.quantity ?? 1) : row.amountCents,
    currency: price?.currency ?? sub.currency ?? row.currency,
    interval: price?.recurring?.interval ?? row.interval,
    intervalCount: price?.recurring?.interval_count ?? row.intervalCount,
    currentPeriodStart: start ?? row.currentPeriodStart,
    currentPeriodEnd: end ?? row.currentPeriodEnd,
    cancelAtPeriodEnd: status === 'canceled' ? false : Boolean(sub.cancel_at_period_end || sub.cancel_at),
    stripeStateAt: new Date(),
    updatedAt: new Date(),
  }
  const wasPremium = PREMIUM.includes(row.status) && row.stripeSubscriptionId === sub.id
  const newPeriod = start !== null && start.getTime() > row.usagePeriodStart.getTime()
  if (status === 'active' && (!wasPremium || newPeriod)) {
    values.keywordSearchCount = 0
    values.blogPostCount = 0
    values.usagePeriodStart = start ?? new Date()
  }
  await tx.update(schema.subscriptions).set(values).where(eq(schema.subscriptions.userId, row.userId))
  Object.assign(row, values)
}

/**
 * Issue 13 (account deletion): cancels a live Stripe subscription at once, without proration or a refund of the
 * period. Nothing to do without one. Throws a BillingError when Stripe refuses, so the account is not deleted while
 * it would still be charged.
 */
export async function cancelSubscriptionNow(userId: string) {
  const [row] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId)).limit(1)
  if (!row?.stripeSubscriptionId || row.status === 'canceled') return
  const stripe = requireStripe()
  try {
    await stripe.subscriptions.cancel(row.stripeSubscriptionId)
  } catch (error) {
    if ((error as { code?: string }).code === 'resource_missing') return
    console.error('[billing] immediate cancel failed', error instanceof Error ? error.message : error)
    throw new BillingError(502, BILLING_MESSAGES.cancelFailed)
  }
}
