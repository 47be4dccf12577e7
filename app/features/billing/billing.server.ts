import { isUuid } from '#app/platform/security/ids'
import { and, eq, isNull } from 'drizzle-orm'
import { BILLING_MESSAGES, formatMoney, formatShortDate } from './billing'
import { PLANS, type PlanId } from './plans'
import { db, schema } from '#app/platform/db/client.server'
import { getEnv } from '#app/platform/env.server'
import { sendMail } from '#app/platform/mail/mail.server'
import { hit } from '#app/platform/security/rate-limit.server'
import { Stripe, STRIPE_RETRIES, STRIPE_TIMEOUT_MS, stripeClient } from './stripe.server'

/**
 * Plans and billing through Stripe: Checkout for new subscriptions, the Customer Portal for payment methods and plan
 * changes, cancel at period end, and the webhook that keeps each user's subscription row in step with Stripe.
 * Quotas themselves are counted in quota.server.ts; this module only moves the row between plans and periods.
 *
 * Rule of this module (docs/decisions/0190-billing-no-stripe-in-transactions.md): no Stripe call is ever made while
 * a database transaction, a row lock or a pooled connection is held. Stripe is read first; then the row is locked
 * and written in a short transaction. A state read from Stripe is applied only when no read that began later has
 * been applied already (`stripe_state_at`), so events handled concurrently and out of order still end on Stripe's
 * latest state.
 */

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0]
type SubscriptionRow = typeof schema.subscriptions.$inferSelect
type Status = SubscriptionRow['status']

/** A business error with the status and message the user sees (never 403: clients sign out on 403). */
export class BillingError extends Error {
  constructor(
    public status: number,
    message: string,
    /** Seconds for a Retry-After header (a 503: Stripe did not answer). */
    public retryAfterSeconds?: number,
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

/** Total time a page (or a webhook) may spend on Stripe calls. */
const STRIPE_BUDGET_MS = 10_000
/**
 * Starting a checkout is a click someone waits on, and it may take several Stripe calls (customer, subscriptions,
 * open sessions, expiring stale ones, the session): the whole checkout has one deadline of 4.5 s from its start.
 * Each call gets the time that is left (one attempt, no retry), and the answer never waits past the deadline, so a
 * Stripe that does not answer gives a 503 with Retry-After within 5 s (issue 20).
 */
const CHECKOUT_DEADLINE_MS = 4_500

/**
 * Runs a checkout's Stripe calls under one deadline: `opts` gives each call what is left, and when the deadline
 * passes first the checkout fails with STRIPE_BUDGET_USED_UP (a 503) at once. A call still running then ends by its
 * own timeout, which is never later than the deadline; its result is not used.
 */
async function beforeDeadline<T>(deadline: number, work: (opts: Budget) => Promise<T>): Promise<T> {
  const running = work(stripeBudget(deadline - Date.now(), { timeoutMs: CHECKOUT_DEADLINE_MS, retries: 0 }))
  running.catch(() => {})
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(STRIPE_BUDGET_USED_UP)), Math.max(0, deadline - Date.now()))
  })
  try {
    return await Promise.race([running, late])
  } finally {
    clearTimeout(timer)
  }
}

/** Stripe did not answer within the budget (a timeout or a connection failure), as opposed to answering an error. */
function stripeUnreachable(error: unknown) {
  return (
    error instanceof Stripe.errors.StripeConnectionError ||
    (error instanceof Error && error.message === STRIPE_BUDGET_USED_UP)
  )
}
const STRIPE_BUDGET_USED_UP = 'Stripe time budget used up'

/**
 * Request options that keep a sequence of Stripe calls within one budget: each call gets what is left (at most one
 * attempt of STRIPE_TIMEOUT_MS, and a retry only while the budget still has room for it).
 */
function stripeBudget(totalMs = STRIPE_BUDGET_MS, call = { timeoutMs: STRIPE_TIMEOUT_MS, retries: STRIPE_RETRIES }) {
  const deadline = Date.now() + totalMs
  return (extra: Stripe.RequestOptions = {}): Stripe.RequestOptions => {
    const left = deadline - Date.now()
    if (left <= 250) throw new Error(STRIPE_BUDGET_USED_UP)
    return {
      timeout: Math.min(call.timeoutMs, left),
      maxNetworkRetries: left > call.timeoutMs * 1.6 ? call.retries : 0,
      ...extra,
    }
  }
}
type Budget = ReturnType<typeof stripeBudget>

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

/** What the signed-in layout shows about billing on every page: the failed-payment banner. One indexed read. */
export async function billingBanner(userId: string): Promise<{ pastDue: boolean }> {
  const [row] = await db
    .select({ status: schema.subscriptions.status })
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.userId, userId))
    .limit(1)
  return { pastDue: row?.status === 'past_due' }
}

// ---------------------------------------------------------------------------
// Checkout, portal, cancel
// ---------------------------------------------------------------------------

/** The user's Stripe customer: created once, on the first checkout, and reused ever after. */
async function ensureCustomer(
  stripe: Stripe,
  user: { id: string; email: string; name: string },
  row: SubscriptionRow,
  opts: Budget,
) {
  if (row.stripeCustomerId) return row.stripeCustomerId
  const customer = await stripe.customers.create(
    { email: user.email, name: user.name || undefined, metadata: { userId: user.id } },
    opts({ idempotencyKey: `customer-${user.id}` }),
  )
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

const LIVE_STRIPE: Stripe.Subscription.Status[] = ['active', 'trialing', 'past_due']

/** The customer's subscriptions that Stripe still bills (or retries), oldest first. */
async function liveSubscriptions(stripe: Stripe, customer: string, opts: Budget) {
  const list = await stripe.subscriptions.list({ customer, limit: 100 }, opts())
  return list.data
    .filter((s) => LIVE_STRIPE.includes(s.status))
    .sort((a, b) => a.created - b.created || a.id.localeCompare(b.id))
}

/** The notice shown on /pricing and in Checkout to a user still in the free trial (decision 0191). */
export function trialBillingNotice(trialEndsAt: Date | string) {
  const ends = formatShortDate(trialEndsAt)
  return `Billing starts today: subscribing ends your free trial${ends ? ` (which would run until ${ends})` : ''} and Premium limits apply at once.`
}

/**
 * A Stripe Checkout session in subscription mode for one plan. Returns its id and the hosted page's URL.
 * One open session per user: an open session for the same plan is reused, every other open one is expired first,
 * so that two tabs or a change of mind can never be paid twice (a duplicate that still slips through is refunded
 * by the webhook). A live subscriber changes plan in the Customer Portal, never through a second checkout.
 */
export async function createCheckoutSession(user: { id: string; email: string; name: string }, plan: PlanId) {
  const deadline = Date.now() + CHECKOUT_DEADLINE_MS
  const stripe = requireStripe()
  const price = priceIdFor(plan)
  if (!price) throw new BillingError(503, BILLING_MESSAGES.planUnavailable)
  const row = await subscriptionRow(user.id)
  if (PREMIUM.includes(row.status) && row.stripeSubscriptionId)
    throw new BillingError(409, BILLING_MESSAGES.alreadySubscribed)
  await limitSessions('checkout', user.id)
  const appUrl = getEnv().APP_URL.replace(/\/+$/, '')
  try {
    return await beforeDeadline(deadline, async (opts) => {
      const customer = await ensureCustomer(stripe, user, row, opts)
      // A customer created just now has no subscription and no open session yet: the first checkout makes two calls.
      // Otherwise both are read at once. The webhook of a payment made a moment ago may still be on its way: Stripe
      // knows first.
      const [live, open] = row.stripeCustomerId
        ? await Promise.all([
            liveSubscriptions(stripe, customer, opts),
            stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 }, opts()),
          ])
        : [[], { data: [] as Stripe.Checkout.Session[] }]
      if (live.length > 0) throw new BillingError(409, BILLING_MESSAGES.alreadySubscribed)
      const soon = Math.floor(Date.now() / 1000) + 30 * 60
      const reusable = open.data.find(
        (s) =>
          s.mode === 'subscription' &&
          s.metadata?.plan === plan &&
          s.client_reference_id === user.id &&
          s.url &&
          s.expires_at > soon,
      )
      await Promise.all(
        open.data.filter((other) => other.id !== reusable?.id).map((other) => expireSession(stripe, other.id, opts)),
      )
      if (reusable?.url) return { sessionId: reusable.id, url: reusable.url }
      const inTrial = row.status === 'trial' && row.trialEndsAt.getTime() > Date.now()
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer,
          line_items: [{ price, quantity: 1 }],
          client_reference_id: user.id,
          metadata: { userId: user.id, plan },
          subscription_data: { metadata: { userId: user.id, plan } },
          ...(inTrial ? { custom_text: { submit: { message: trialBillingNotice(row.trialEndsAt) } } } : {}),
          success_url: `${appUrl}/checkout-success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${appUrl}/pricing`,
        },
        opts(),
      )
      if (!session.url) throw new Error('Stripe returned a checkout session without a URL')
      return { sessionId: session.id, url: session.url }
    })
  } catch (error) {
    if (error instanceof BillingError) throw error
    console.error('[billing] checkout failed', error instanceof Error ? error.message : error)
    // Stripe away (no answer before the deadline) is an outage: 503 with Retry-After; an error Stripe answered is a 502.
    if (stripeUnreachable(error)) throw new BillingError(503, BILLING_MESSAGES.checkoutFailed, 30)
    throw new BillingError(502, BILLING_MESSAGES.checkoutFailed)
  }
}

/** Expires an open Checkout Session; one that completed or expired meanwhile is left as it is. */
async function expireSession(stripe: Stripe, id: string, opts: Budget) {
  try {
    await stripe.checkout.sessions.expire(id, {}, opts({ idempotencyKey: `expire-${id}` }))
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError) return
    throw error
  }
}

/** A Customer Portal session where the user manages payment methods, invoices and the plan. Returns its URL. */
export async function createPortalSession(userId: string) {
  const stripe = requireStripe()
  const row = await subscriptionRow(userId)
  if (!row.stripeCustomerId) throw new BillingError(400, BILLING_MESSAGES.noBillingAccount)
  await limitSessions('portal', userId)
  try {
    const session = await stripe.billingPortal.sessions.create(
      { customer: row.stripeCustomerId, return_url: `${getEnv().APP_URL.replace(/\/+$/, '')}/profile` },
      stripeBudget()(),
    )
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
  const readAt = new Date()
  let updated: Stripe.Subscription
  try {
    updated = await stripe.subscriptions.update(
      row.stripeSubscriptionId,
      { cancel_at_period_end: true },
      stripeBudget()(),
    )
  } catch (error) {
    console.error('[billing] cancel failed', error instanceof Error ? error.message : error)
    throw new BillingError(502, BILLING_MESSAGES.cancelFailed)
  }
  // Stripe's answer is its current state: applied without another call, in a short transaction.
  await db.transaction(async (tx) => {
    const locked = await lockRow(tx, eq(schema.subscriptions.userId, userId))
    if (locked) await applySubscription(tx, locked, updated, readAt)
  })
  const after = await subscriptionRow(userId)
  return { message: BILLING_MESSAGES.cancelSucceeded, endsAt: after.currentPeriodEnd?.toISOString() ?? null }
}

const CHECKOUT_SESSION_ID = /^cs_[A-Za-z0-9_]{1,200}$/

export type CheckoutConfirmation = 'complete' | 'open' | 'invalid' | 'unknown'

/**
 * On return from Checkout: 'complete' only when Stripe confirms that the session is this user's and complete (it
 * is then applied at once, as the webhook may still be on its way), or, while Stripe cannot be reached, when the
 * webhook has already recorded this very session for the user. 'unknown' while neither can confirm it, 'open' for a
 * session not paid yet, 'invalid' for a session that is not this user's or does not exist.
 */
export async function confirmCheckout(userId: string, sessionId: string): Promise<CheckoutConfirmation> {
  const stripe = stripeClient()
  if (!stripe || !CHECKOUT_SESSION_ID.test(sessionId)) return 'invalid'
  const readAt = new Date()
  let session: Stripe.Checkout.Session
  try {
    session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ['subscription'] }, stripeBudget()())
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError) return 'invalid'
    console.error('[billing] could not read checkout session', error instanceof Error ? error.message : error)
    const row = await subscriptionRow(userId)
    return row.lastCheckoutSessionId === sessionId && PREMIUM.includes(row.status) ? 'complete' : 'unknown'
  }
  if (sessionOwner(session) !== userId) return 'invalid'
  // The session's customer must be the user's own Stripe customer once they have one (a session made for another
  // customer and tagged with this user's id is not their payment).
  const { stripeCustomerId } = await subscriptionRow(userId)
  const customer = idOf(session.customer)
  if (stripeCustomerId && customer && customer !== stripeCustomerId) return 'invalid'
  if (session.status === 'expired') return 'invalid'
  if (session.status !== 'complete') return 'open'
  const subscription = typeof session.subscription === 'object' ? session.subscription : null
  try {
    await db.transaction(async (tx) => {
      const row = await lockRow(tx, eq(schema.subscriptions.userId, userId))
      if (!row) return
      await attachCustomer(tx, row, idOf(session.customer), session.id)
      if (subscription) await applySubscription(tx, row, subscription, readAt)
    })
  } catch (error) {
    console.error('[billing] could not apply checkout on return', error instanceof Error ? error.message : error)
  }
  return 'complete'
}

// ---------------------------------------------------------------------------
// Webhooks
// ---------------------------------------------------------------------------

export type WebhookResult = {
  status: number
  body: { received?: boolean; duplicate?: boolean; ignored?: boolean; message?: string }
}

const HANDLED = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
])

/** What an event asks for, worked out from Stripe before anything is locked. */
type Plan = {
  userId: string
  customerId: string | null
  checkoutSessionId: string | null
  subscription: Stripe.Subscription | null
  readAt: Date
  refunded: Stripe.Subscription[]
}

/**
 * Verifies and applies one Stripe webhook. Stripe is read first (with the page budget: a Stripe that cannot be
 * reached makes the event fail fast with 503, and Stripe redelivers it); then, in one short transaction, the event
 * id is stored (a redelivery conflicts and is skipped) and the user's row is locked and written. Events that are
 * well signed but not ours (a Payment Link, another integration on the same account) are acknowledged with 200.
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
  const [seen] = await db
    .select({ id: schema.stripeEvents.id })
    .from(schema.stripeEvents)
    .where(eq(schema.stripeEvents.id, event.id))
    .limit(1)
  if (seen) return { status: 200, body: { received: true, duplicate: true } }

  let plan: Plan | null
  try {
    plan = await planEvent(stripe, event, stripeBudget())
  } catch (error) {
    console.error(`[billing] webhook ${event.id} (${event.type}): Stripe could not be read`, errorText(error))
    return { status: 503, body: { message: 'Stripe could not be reached. Stripe will retry this event.' } }
  }
  if (!plan) console.info(`[billing] webhook ${event.id} (${event.type}) is not for one of our users: acknowledged`)

  const outcome = await db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(schema.stripeEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: schema.stripeEvents.id })
    if (!stored) return { duplicate: true, paymentFailed: false }
    if (!plan) return { duplicate: false, paymentFailed: false }
    const row = await lockRow(tx, eq(schema.subscriptions.userId, plan.userId))
    if (!row) return { duplicate: false, paymentFailed: false }
    await attachCustomer(tx, row, plan.customerId, plan.checkoutSessionId)
    const paymentFailed = plan.subscription ? await applySubscription(tx, row, plan.subscription, plan.readAt) : false
    return { duplicate: false, paymentFailed }
  })
  if (plan && !outcome.duplicate) await sendNotices(plan, outcome.paymentFailed)
  return {
    status: 200,
    body: outcome.duplicate
      ? { received: true, duplicate: true }
      : plan
        ? { received: true }
        : { received: true, ignored: true },
  }
}

/** The user an event is about, and Stripe's current state of its subscription; null when it is not ours. */
async function planEvent(stripe: Stripe, event: Stripe.Event, opts: Budget): Promise<Plan | null> {
  const readAt = new Date()
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object
      if (session.mode !== 'subscription') return null
      const customerId = idOf(session.customer)
      const owner = await findOwner(sessionOwner(session), customerId)
      if (!owner) return null
      const subscriptionId = idOf(session.subscription)
      // The other open checkouts of this user can no longer be paid.
      if (customerId) {
        const open = await stripe.checkout.sessions.list({ customer: customerId, status: 'open', limit: 100 }, opts())
        for (const other of open.data) await expireSession(stripe, other.id, opts)
      }
      const { subscription, refunded } = await keepOneSubscription(
        stripe,
        customerId,
        subscriptionId ? await currentSubscription(stripe, subscriptionId, opts) : null,
        opts,
      )
      return { userId: owner, customerId, checkoutSessionId: session.id, subscription, readAt, refunded }
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = event.data.object
      const customerId = idOf(sub.customer)
      const owner = await findOwner(sub.metadata?.userId, customerId)
      if (!owner) return null
      const current = await currentSubscription(stripe, sub.id, opts, sub)
      const { subscription, refunded } = await keepOneSubscription(stripe, customerId, current, opts)
      return { userId: owner, customerId, checkoutSessionId: null, subscription, readAt, refunded }
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object
      const subscriptionId = invoiceSubscriptionId(invoice)
      if (!subscriptionId) return null
      const customerId = idOf(invoice.customer)
      const owner = await findOwner(invoice.parent?.subscription_details?.metadata?.userId, customerId)
      if (!owner) return null
      const subscription = await currentSubscription(stripe, subscriptionId, opts)
      return { userId: owner, customerId, checkoutSessionId: null, subscription, readAt, refunded: [] }
    }
    default:
      return null
  }
}

/**
 * A customer keeps one live subscription. When Stripe bills two (two checkouts paid), every one but the oldest is
 * canceled at once and its payment refunded in full; the e-mail follows once the event is stored. Returns the
 * subscription to apply (the one kept, when the given one was the duplicate) and the ones refunded now.
 */
async function keepOneSubscription(
  stripe: Stripe,
  customerId: string | null,
  given: Stripe.Subscription | null,
  opts: Budget,
): Promise<{ subscription: Stripe.Subscription | null; refunded: Stripe.Subscription[] }> {
  if (!customerId || !given) return { subscription: given, refunded: [] }
  const live = await liveSubscriptions(stripe, customerId, opts)
  // A subscription that ended (a refunded duplicate, say) never hides the one the customer still pays for.
  if (!LIVE_STRIPE.includes(given.status)) return { subscription: live[0] ?? given, refunded: [] }
  if (live.length <= 1) return { subscription: given, refunded: [] }
  const [kept, ...duplicates] = live
  const refunded: Stripe.Subscription[] = []
  for (const duplicate of duplicates) {
    await refundLatestInvoice(stripe, duplicate, opts)
    const canceled = await stripe.subscriptions.cancel(
      duplicate.id,
      {
        prorate: false,
        invoice_now: false,
        cancellation_details: { comment: 'Duplicate subscription: canceled at once and refunded in full.' },
      },
      opts({ idempotencyKey: `cancel-duplicate-${duplicate.id}` }),
    )
    refunded.push(canceled)
    console.warn(`[billing] customer ${customerId}: duplicate subscription ${duplicate.id} canceled and refunded`)
  }
  return { subscription: duplicates.some((d) => d.id === given.id) ? kept! : given, refunded }
}

/** Refunds every payment of a subscription's latest invoice in full (once: the refund's idempotency key). */
async function refundLatestInvoice(stripe: Stripe, sub: Stripe.Subscription, opts: Budget) {
  const invoiceId = idOf(sub.latest_invoice)
  if (!invoiceId) return
  const payments = await stripe.invoicePayments.list({ invoice: invoiceId, limit: 10 }, opts())
  for (const payment of payments.data) {
    if (payment.status !== 'paid') continue
    const paymentIntent = idOf(payment.payment.payment_intent)
    const charge = idOf(payment.payment.charge)
    if (!paymentIntent && !charge) continue
    try {
      await stripe.refunds.create(
        {
          ...(paymentIntent ? { payment_intent: paymentIntent } : { charge: charge! }),
          reason: 'duplicate',
          metadata: { subscription: sub.id },
        },
        opts({ idempotencyKey: `refund-duplicate-${payment.id}` }),
      )
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'charge_already_refunded') continue
      throw error
    }
  }
}

/** Our user for the ids an event carries: a valid user id that exists, else the owner of the Stripe customer. */
async function findOwner(userId: string | null | undefined, customerId: string | null): Promise<string | null> {
  if (userId && isUuid(userId)) {
    const [row] = await db
      .select({ userId: schema.subscriptions.userId, customer: schema.subscriptions.stripeCustomerId })
      .from(schema.subscriptions)
      .where(eq(schema.subscriptions.userId, userId))
      .limit(1)
    // A user id paired with another user's customer is not trusted.
    if (row && (!customerId || !row.customer || row.customer === customerId)) return row.userId
  }
  if (!customerId) return null
  const [byCustomer] = await db
    .select({ userId: schema.subscriptions.userId })
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.stripeCustomerId, customerId))
    .limit(1)
  return byCustomer?.userId ?? null
}

/** E-mails after the event is stored: a refunded duplicate, and the first failed payment of a past-due episode. */
async function sendNotices(plan: Plan, paymentFailed: boolean) {
  if (plan.refunded.length === 0 && !paymentFailed) return
  const [user] = await db
    .select({ email: schema.users.email, name: schema.users.name })
    .from(schema.users)
    .where(eq(schema.users.id, plan.userId))
    .limit(1)
  if (!user) return
  const appUrl = getEnv().APP_URL.replace(/\/+$/, '')
  const hello = user.name ? `Hi ${user.name},` : 'Hi,'
  for (const sub of plan.refunded) {
    // Once per duplicate, whichever event found it (the id is stored like an event's).
    const [first] = await db
      .insert(schema.stripeEvents)
      .values({ id: `duplicate_refunded:${sub.id}`, type: 'rankwell.duplicate_refunded' })
      .onConflictDoNothing()
      .returning({ id: schema.stripeEvents.id })
    if (!first) continue
    const price = sub.items?.data?.[0]?.price
    const amount = price?.unit_amount != null ? formatMoney(price.unit_amount, price.currency) : 'the payment'
    await mail({
      to: user.email,
      subject: 'We refunded a second Rankwell subscription',
      text: [
        hello,
        '',
        `You paid for Rankwell Premium twice (two checkouts were completed). We kept your first subscription, canceled the second one at once and refunded ${amount} in full to the same card. The refund can take 5 to 10 business days to appear on your statement.`,
        '',
        `To change plan, use Manage Payment on your profile: ${appUrl}/profile`,
        '',
        'The Rankwell team',
      ].join('\n'),
    })
  }
  if (paymentFailed) {
    await mail({
      to: user.email,
      subject: 'Your Rankwell payment failed',
      text: [
        hello,
        '',
        'We could not collect the payment for your Rankwell Premium subscription. Stripe will try again over the next days; Premium stays active meanwhile.',
        '',
        `Please update your payment method (Profile → Manage Payment): ${appUrl}/profile`,
        '',
        'If the payment cannot be collected, your account returns to the free plan: every keyword and post you saved stays readable.',
        '',
        'The Rankwell team',
      ].join('\n'),
    })
  }
}

async function mail(message: { to: string; subject: string; text: string }) {
  try {
    await sendMail(message)
  } catch (error) {
    console.error(`[billing] could not send '${message.subject}'`, errorText(error))
  }
}

function errorText(error: unknown) {
  return error instanceof Error ? error.message : String(error)
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

async function lockRow(tx: Tx, where: ReturnType<typeof eq>) {
  const [row] = await tx.select().from(schema.subscriptions).where(where).limit(1).for('update')
  return row ?? null
}

async function attachCustomer(
  tx: Tx,
  row: SubscriptionRow,
  customerId: string | null,
  checkoutSessionId?: string | null,
) {
  const values: Partial<typeof schema.subscriptions.$inferInsert> = {}
  if (customerId && !row.stripeCustomerId) values.stripeCustomerId = customerId
  if (checkoutSessionId && row.lastCheckoutSessionId !== checkoutSessionId)
    values.lastCheckoutSessionId = checkoutSessionId
  if (Object.keys(values).length === 0) return
  await tx
    .update(schema.subscriptions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(schema.subscriptions.userId, row.userId))
  Object.assign(row, values)
}

/** Stripe's current state of a subscription; the given copy only when the API no longer knows it. */
async function currentSubscription(
  stripe: Stripe,
  id: string,
  opts: Budget,
  fallback?: Stripe.Subscription,
): Promise<Stripe.Subscription> {
  try {
    return await stripe.subscriptions.retrieve(id, {}, opts())
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

/** Why a subscription ended: a payment Stripe gave up on, or a cancellation. */
function endedReasonOf(sub: Stripe.Subscription): string | null {
  if (sub.status === 'unpaid') return 'payment_failed'
  return sub.cancellation_details?.reason ?? null
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
 * Moves the (locked) row to a subscription's state read from Stripe at `readAt`: status, plan, price, period,
 * cancel flag. A state read before the one already applied is stale and skipped. A new paid period (first
 * activation, a renewal, or the first paid period after a failed renewal) starts a fresh usage window at the
 * period's start, so the monthly windows of quota.server.ts line up with billing (a quarterly or yearly period's
 * later months roll over there, anchored on this date). A window that quota.server.ts has already rolled to the
 * period's start is not reset again. Returns true when the row just became past due and the 'payment failed'
 * e-mail of this episode has not gone out yet (it is then marked as sent).
 */
async function applySubscription(tx: Tx, row: SubscriptionRow, sub: Stripe.Subscription, readAt: Date) {
  const status = statusFor(sub.status)
  if (!status) return false
  if (row.stripeStateAt && row.stripeStateAt.getTime() > readAt.getTime()) return false
  const live = status === 'active' || status === 'past_due'
  // Another subscription of the same customer that has ended must not override the one in use.
  if (row.stripeSubscriptionId && row.stripeSubscriptionId !== sub.id && !live && PREMIUM.includes(row.status))
    return false
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
    endedReason: status === 'canceled' ? endedReasonOf(sub) : null,
    stripeStateAt: readAt,
    updatedAt: new Date(),
  }
  const wasPremium = PREMIUM.includes(row.status) && row.stripeSubscriptionId === sub.id
  const newPeriod = start !== null && start.getTime() > row.usagePeriodStart.getTime()
  if (status === 'active' && (!wasPremium || newPeriod)) {
    values.keywordSearchCount = 0
    values.blogPostCount = 0
    values.usagePeriodStart = start ?? new Date()
  }
  const notifyPaymentFailed = status === 'past_due' && !row.paymentFailedNotifiedAt
  if (notifyPaymentFailed) values.paymentFailedNotifiedAt = new Date()
  else if (status !== 'past_due') values.paymentFailedNotifiedAt = null
  await tx.update(schema.subscriptions).set(values).where(eq(schema.subscriptions.userId, row.userId))
  Object.assign(row, values)
  return notifyPaymentFailed
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
