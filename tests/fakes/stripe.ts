/**
 * Fake Stripe API (the subset a subscription SaaS uses through the `stripe` Node SDK)
 * plus hosted Checkout / Customer Portal pages and signed webhook delivery.
 *
 * API (form-encoded bodies, `Authorization: Bearer sk_...`, JSON responses, `Request-Id`,
 * `Idempotency-Key` replay):
 *   POST/GET /v1/customers, GET/POST/DELETE /v1/customers/:id, GET /v1/customers/search
 *   GET/POST /v1/prices, GET /v1/prices/:id, GET /v1/products/:id
 *   POST /v1/checkout/sessions, GET /v1/checkout/sessions/:id(/line_items), POST .../:id/expire
 *   GET /v1/subscriptions, GET/POST/DELETE /v1/subscriptions/:id
 *   GET /v1/invoices, GET /v1/invoices/:id, GET /v1/invoice_payments(?invoice=), GET /v1/invoice_payments/:id
 *   POST/GET /v1/refunds, GET /v1/refunds/:id (a paid invoice's PaymentIntent, refundable once in full or in parts)
 *   GET /v1/checkout/sessions filters customer, status and subscription
 *   POST /v1/billing_portal/sessions
 * Browser pages: GET /checkout/:id, POST /checkout/:id/pay, GET /portal/:id, POST /portal/:id/subscriptions/:sub/cancel
 *   (also /renew, and /switch {price}: the portal's plan switch between the recurring prices)
 * Control: POST /__control/webhook {url, secret}; POST /__control/subscriptions/:id/renew;
 *   POST /__control/subscriptions/:id/payment_failed; POST /__control/subscriptions/:id/give_up (Stripe stops
 *   retrying: canceled with cancellation_details.reason 'payment_failed'); POST /__control/hang {on} (hold every
 *   API request unanswered, like a Stripe that does not respond); POST /__control/checkout/:id/complete;
 *   POST /__control/send-event {type, object, previous_attributes?}; GET /__control/events;
 *   POST /__control/resend/:eventId; GET /__control/objects
 */
import { createHmac, randomBytes } from 'node:crypto'
import {
  basicCredentials,
  bearerToken,
  escapeHtml,
  isRecord,
  randomAlnum,
  redirect,
  sendHtml,
  sendJson,
  startFakeServer,
  str,
  type FakeHandle,
  type FakeOptions,
  type FakeRequest,
} from './http'

export const STRIPE_EVENT_API_VERSION = '2025-03-31.basil'

/** Value for a `Stripe-Signature` header: `t=<ts>,v1=<hex hmac_sha256(secret, ts + "." + payload)>`. */
export function signStripePayload(
  payload: string,
  secret: string,
  timestamp: number = Math.floor(Date.now() / 1000),
): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex')
  return `t=${timestamp},v1=${signature}`
}

export interface StripeFakeOptions extends FakeOptions {
  /** When set, only this secret key is accepted (else any sk_test_/sk_live_/rk_ key). */
  secretKey?: string
  webhookUrl?: string
  webhookSecret?: string
}

export interface Delivery {
  eventId: string
  type: string
  /** HTTP status the webhook receiver answered; null when not delivered (no webhook / network error). */
  status: number | null
  error?: string
}

export interface StoredEvent {
  id: string
  type: string
  created: number
  payload: string
  deliveries: Array<{ at: string; status: number | null; error?: string }>
}

export type StripeFakeHandle = FakeHandle & {
  setWebhook(url: string | null, secret?: string): void
  completeCheckout(
    sessionId: string,
    details?: { email?: string; name?: string },
  ): Promise<{ session: CheckoutSession; deliveries: Delivery[] }>
  renewSubscription(subscriptionId: string): Promise<{ subscription: Subscription; deliveries: Delivery[] }>
  failPayment(subscriptionId: string): Promise<{ subscription: Subscription; deliveries: Delivery[] }>
  sendEvent(
    type: string,
    object: Record<string, unknown>,
    previousAttributes?: Record<string, unknown>,
  ): Promise<Delivery>
  resendEvent(eventId: string): Promise<Delivery>
  events(): StoredEvent[]
}

// ---------------------------------------------------------------------------
// Object shapes (subset of the real ones, names as on the wire)

type Metadata = Record<string, string>
type Interval = 'day' | 'week' | 'month' | 'year'

export interface Price {
  id: string
  object: 'price'
  active: boolean
  billing_scheme: 'per_unit'
  created: number
  currency: string
  custom_unit_amount: null
  livemode: false
  lookup_key: string | null
  metadata: Metadata
  nickname: string | null
  product: string
  recurring: {
    interval: Interval
    interval_count: number
    meter: null
    trial_period_days: null
    usage_type: 'licensed'
  } | null
  tax_behavior: 'unspecified'
  tiers_mode: null
  transform_quantity: null
  type: 'recurring' | 'one_time'
  unit_amount: number
  unit_amount_decimal: string
}

export interface Customer {
  id: string
  object: 'customer'
  address: null
  balance: number
  created: number
  currency: string | null
  default_source: null
  delinquent: boolean
  description: string | null
  email: string | null
  invoice_prefix: string
  invoice_settings: {
    custom_fields: null
    default_payment_method: string | null
    footer: null
    rendering_options: null
  }
  livemode: false
  metadata: Metadata
  name: string | null
  phone: string | null
  preferred_locales: string[]
  shipping: null
  tax_exempt: 'none'
  test_clock: null
}

interface LineItemInput {
  price: string
  quantity: number
}

export interface CheckoutSession {
  id: string
  object: 'checkout.session'
  allow_promotion_codes: boolean | null
  amount_subtotal: number
  amount_total: number
  billing_address_collection: null
  cancel_url: string | null
  client_reference_id: string | null
  client_secret: null
  created: number
  currency: string
  customer: string | null
  customer_creation: 'always' | 'if_required' | null
  customer_details: {
    email: string | null
    name: string | null
    address: null
    phone: null
    tax_exempt: 'none'
    tax_ids: []
  } | null
  customer_email: string | null
  expires_at: number
  invoice: string | null
  livemode: false
  locale: string | null
  metadata: Metadata
  mode: 'subscription' | 'payment' | 'setup'
  payment_intent: string | null
  payment_method_types: string[]
  payment_status: 'paid' | 'unpaid' | 'no_payment_required'
  return_url: string | null
  setup_intent: null
  status: 'open' | 'complete' | 'expired'
  submit_type: null
  subscription: string | null
  success_url: string | null
  ui_mode: string
  url: string | null
}

export interface SubscriptionItem {
  id: string
  object: 'subscription_item'
  created: number
  current_period_end: number
  current_period_start: number
  discounts: []
  metadata: Metadata
  price: Price
  quantity: number
  subscription: string
  tax_rates: []
}

export interface Subscription {
  id: string
  object: 'subscription'
  application: null
  automatic_tax: { disabled_reason: null; enabled: false; liability: null }
  billing_cycle_anchor: number
  cancel_at: number | null
  cancel_at_period_end: boolean
  canceled_at: number | null
  cancellation_details: { comment: string | null; feedback: string | null; reason: string | null }
  collection_method: 'charge_automatically'
  created: number
  currency: string
  current_period_end: number
  current_period_start: number
  customer: string
  default_payment_method: string | null
  description: string | null
  discounts: []
  ended_at: number | null
  items: { object: 'list'; data: SubscriptionItem[]; has_more: false; total_count: number; url: string }
  latest_invoice: string | null
  livemode: false
  metadata: Metadata
  pause_collection: null
  quantity: number
  start_date: number
  status: 'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'paused'
  trial_end: number | null
  trial_start: number | null
}

export interface Invoice {
  id: string
  object: 'invoice'
  account_country: string
  amount_due: number
  amount_paid: number
  amount_remaining: number
  attempt_count: number
  attempted: boolean
  auto_advance: boolean
  billing_reason: string
  collection_method: 'charge_automatically'
  created: number
  currency: string
  customer: string
  customer_email: string | null
  customer_name: string | null
  hosted_invoice_url: string
  invoice_pdf: string
  lines: { object: 'list'; data: Array<Record<string, unknown>>; has_more: false; total_count: number; url: string }
  livemode: false
  metadata: Metadata
  next_payment_attempt: number | null
  number: string
  parent: {
    quote_details: null
    subscription_details: { metadata: Metadata; subscription: string }
    type: 'subscription_details'
  }
  period_end: number
  period_start: number
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void'
  status_transitions: {
    finalized_at: number | null
    marked_uncollectible_at: null
    paid_at: number | null
    voided_at: null
  }
  subtotal: number
  total: number
}

export interface InvoicePayment {
  id: string
  object: 'invoice_payment'
  amount_paid: number
  amount_requested: number
  created: number
  currency: string
  invoice: string
  is_default: boolean
  livemode: false
  payment: { payment_intent: string; type: 'payment_intent' }
  status: 'paid' | 'open' | 'canceled'
  status_transitions: { canceled_at: number | null; paid_at: number | null }
}

export interface Refund {
  id: string
  object: 'refund'
  amount: number
  balance_transaction: string
  charge: string
  created: number
  currency: string
  destination_details: { card: { reference_status: string; reference_type: string }; type: 'card' }
  metadata: Metadata
  payment_intent: string
  reason: string | null
  receipt_number: null
  source_transfer_reversal: null
  status: 'succeeded'
  transfer_reversal: null
}

interface PortalSession {
  id: string
  object: 'billing_portal.session'
  configuration: string
  created: number
  customer: string
  flow: null
  livemode: false
  locale: string | null
  on_behalf_of: null
  return_url: string | null
  url: string
}

class StripeApiError extends Error {
  constructor(
    public status: number,
    public type: string,
    message: string,
    public code?: string,
    public param?: string,
  ) {
    super(message)
  }
  body(): Record<string, unknown> {
    const docCode = this.code?.replace(/_/g, '-')
    return {
      error: {
        ...(this.code ? { code: this.code, doc_url: `https://stripe.com/docs/error-codes/${docCode}` } : {}),
        message: this.message,
        ...(this.param ? { param: this.param } : {}),
        request_log_url: `https://dashboard.stripe.com/test/logs/${randomAlnum('req_', 14)}`,
        type: this.type,
      },
    }
  }
}

const missing = (kind: string, id: string, param?: string): StripeApiError =>
  new StripeApiError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', param ?? 'id')
const paramMissing = (param: string): StripeApiError =>
  new StripeApiError(400, 'invalid_request_error', `Missing required param: ${param}.`, 'parameter_missing', param)
const invalid = (message: string, param?: string): StripeApiError =>
  new StripeApiError(400, 'invalid_request_error', message, param ? 'parameter_invalid_empty' : undefined, param)

// ---------------------------------------------------------------------------
// helpers

const now = (): number => Math.floor(Date.now() / 1000)

function addInterval(ts: number, interval: Interval, count: number): number {
  const d = new Date(ts * 1000)
  if (interval === 'day') d.setUTCDate(d.getUTCDate() + count)
  else if (interval === 'week') d.setUTCDate(d.getUTCDate() + 7 * count)
  else if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + count)
  else d.setUTCFullYear(d.getUTCFullYear() + count)
  return Math.floor(d.getTime() / 1000)
}

function toBool(v: unknown): boolean | undefined {
  if (v === true || v === 'true') return true
  if (v === false || v === 'false') return false
  return undefined
}

function toInt(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v)
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v)
  return undefined
}

function toMetadata(v: unknown): Metadata {
  const out: Metadata = {}
  if (Array.isArray(v)) v.forEach((x, i) => typeof x === 'string' && (out[String(i)] = x))
  else if (isRecord(v))
    for (const [k, x] of Object.entries(v)) if (typeof x === 'string' || typeof x === 'number') out[k] = String(x)
  return out
}

function mergeMetadata(current: Metadata, update: unknown): Metadata {
  if (update === '') return {}
  const next = { ...current }
  for (const [k, v] of Object.entries(toMetadata(update))) {
    if (v === '') delete next[k]
    else next[k] = v
  }
  return next
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T
}

function formatAmount(amount: number, currency: string): string {
  const zeroDecimal = ['jpy', 'krw', 'vnd', 'clp'].includes(currency)
  const value = zeroDecimal ? amount : amount / 100
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(value)
  } catch {
    return `${value.toFixed(2)} ${currency.toUpperCase()}`
  }
}

function describeRecurring(p: Price): string {
  if (!p.recurring) return 'one time'
  const { interval, interval_count: n } = p.recurring
  return n === 1 ? `per ${interval}` : `every ${n} ${interval}s`
}

function pageShell(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f6f9fc;margin:0;padding:40px 16px;color:#30313d}
main{max-width:460px;margin:0 auto;background:#fff;border-radius:10px;padding:32px;box-shadow:0 2px 6px rgba(0,0,0,.08)}
h1{font-size:20px;margin:0 0 16px}.price{font-size:32px;font-weight:600;margin:8px 0}.muted{color:#6a7383;font-size:14px}
label{display:block;font-size:13px;margin:16px 0 4px}input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #d5dbe1;border-radius:6px;font-size:15px}
button{margin-top:20px;width:100%;padding:12px;border:0;border-radius:6px;background:#635bff;color:#fff;font-size:16px;cursor:pointer}
button.secondary{background:#fff;color:#df1b41;border:1px solid #df1b41;width:auto;padding:8px 14px;font-size:14px;margin-top:8px}
a{color:#635bff}ul{padding-left:18px}li{margin:10px 0}
</style></head><body><main>${body}</main></body></html>`
}

// ---------------------------------------------------------------------------

export async function startStripe(opts: StripeFakeOptions = {}): Promise<StripeFakeHandle> {
  const PRODUCT_ID = 'prod_fake_rankwell'
  let customers = new Map<string, Customer>()
  let prices = new Map<string, Price>()
  let products = new Map<string, Record<string, unknown>>()
  let sessions = new Map<
    string,
    CheckoutSession & { _lineItems: LineItemInput[]; _subscriptionData: { metadata: Metadata; trialDays?: number } }
  >()
  let subscriptions = new Map<string, Subscription>()
  let invoices = new Map<string, Invoice>()
  let portalSessions = new Map<string, PortalSession>()
  let invoicePayments = new Map<string, InvoicePayment>()
  let paymentIntents = new Map<
    string,
    { id: string; amount: number; currency: string; customer: string; charge: string; refunded: number }
  >()
  let refunds = new Map<string, Refund>()
  /** While true every API request is held unanswered (a Stripe that does not answer): POST /__control/hang. */
  let hanging = false
  let events: StoredEvent[] = []
  let idempotency = new Map<
    string,
    { rawBody: string; path: string; status: number; body: unknown; requestId: string }
  >()
  let webhook: { url: string; secret: string } | null = opts.webhookUrl
    ? { url: opts.webhookUrl, secret: opts.webhookSecret ?? 'whsec_fake_local_secret' }
    : null
  let invoiceCounter = 0

  function seed(): void {
    customers = new Map()
    prices = new Map()
    products = new Map()
    sessions = new Map()
    subscriptions = new Map()
    invoices = new Map()
    portalSessions = new Map()
    invoicePayments = new Map()
    paymentIntents = new Map()
    refunds = new Map()
    hanging = false
    events = []
    idempotency = new Map()
    invoiceCounter = 0
    const created = 1735689600
    products.set(PRODUCT_ID, {
      id: PRODUCT_ID,
      object: 'product',
      active: true,
      created,
      default_price: 'price_monthly',
      description: 'Rankwell subscription',
      images: [],
      livemode: false,
      metadata: {},
      name: 'Rankwell Pro',
      tax_code: null,
      type: 'service',
      updated: created,
      url: null,
    })
    const mk = (id: string, amount: number, interval: Interval, count: number, nickname: string): Price => ({
      id,
      object: 'price',
      active: true,
      billing_scheme: 'per_unit',
      created,
      currency: 'usd',
      custom_unit_amount: null,
      livemode: false,
      lookup_key: id.replace(/^price_/, 'rankwell_'),
      metadata: {},
      nickname,
      product: PRODUCT_ID,
      recurring: { interval, interval_count: count, meter: null, trial_period_days: null, usage_type: 'licensed' },
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: 'recurring',
      unit_amount: amount,
      unit_amount_decimal: String(amount),
    })
    prices.set('price_monthly', mk('price_monthly', 4990, 'month', 1, 'Monthly'))
    prices.set('price_quarterly', mk('price_quarterly', 12990, 'month', 3, 'Quarterly'))
    prices.set('price_yearly', mk('price_yearly', 49990, 'year', 1, 'Yearly'))
  }
  seed()

  // --- events -------------------------------------------------------------

  async function deliver(ev: StoredEvent): Promise<Delivery> {
    if (!webhook) {
      ev.deliveries.push({ at: new Date().toISOString(), status: null, error: 'no webhook configured' })
      return { eventId: ev.id, type: ev.type, status: null, error: 'no webhook configured' }
    }
    try {
      const res = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signStripePayload(ev.payload, webhook.secret),
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'cache-control': 'no-cache',
          accept: '*/*; q=0.5, application/xml',
        },
        body: ev.payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(15_000),
      })
      await res.arrayBuffer().catch(() => undefined)
      ev.deliveries.push({ at: new Date().toISOString(), status: res.status })
      return { eventId: ev.id, type: ev.type, status: res.status }
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err)
      ev.deliveries.push({ at: new Date().toISOString(), status: null, error })
      return { eventId: ev.id, type: ev.type, status: null, error }
    }
  }

  async function emit(
    type: string,
    object: unknown,
    previousAttributes?: Record<string, unknown>,
    request?: { id: string | null; idempotency_key: string | null },
  ): Promise<Delivery> {
    const created = now()
    const event = {
      id: randomAlnum('evt_', 24),
      object: 'event',
      api_version: STRIPE_EVENT_API_VERSION,
      created,
      data: {
        object: clone(object),
        ...(previousAttributes && Object.keys(previousAttributes).length > 0
          ? { previous_attributes: clone(previousAttributes) }
          : {}),
      },
      livemode: false,
      pending_webhooks: 1,
      request: request ?? { id: null, idempotency_key: null },
      type,
    }
    const stored: StoredEvent = { id: event.id, type, created, payload: JSON.stringify(event, null, 2), deliveries: [] }
    events.push(stored)
    return deliver(stored)
  }

  // --- object builders ----------------------------------------------------

  function getCustomer(id: string, param = 'id'): Customer {
    const c = customers.get(id)
    if (!c) throw missing('customer', id, param)
    return c
  }
  function getPrice(id: string, param = 'id'): Price {
    const p = prices.get(id)
    if (!p) throw missing('price', id, param)
    return p
  }
  function getSubscription(id: string): Subscription {
    const s = subscriptions.get(id)
    if (!s) throw missing('subscription', id)
    return s
  }

  function createCustomer(params: Record<string, unknown>): Customer {
    const id = randomAlnum('cus_', 14)
    const c: Customer = {
      id,
      object: 'customer',
      address: null,
      balance: 0,
      created: now(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: str(params.description) ?? null,
      email: str(params.email) ?? null,
      invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      metadata: toMetadata(params.metadata),
      name: str(params.name) ?? null,
      phone: str(params.phone) ?? null,
      preferred_locales: Array.isArray(params.preferred_locales)
        ? params.preferred_locales.filter((x): x is string => typeof x === 'string')
        : [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    }
    customers.set(id, c)
    return c
  }

  function buildInvoice(sub: Subscription, billingReason: string, paid: boolean, amountOverride?: number): Invoice {
    const item = sub.items.data[0]
    const customer = customers.get(sub.customer)
    const amount = amountOverride ?? item.price.unit_amount * item.quantity
    const id = randomAlnum('in_', 24)
    const ts = now()
    invoiceCounter++
    const inv: Invoice = {
      id,
      object: 'invoice',
      account_country: 'US',
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      amount_remaining: paid ? 0 : amount,
      attempt_count: 1,
      attempted: true,
      auto_advance: !paid,
      billing_reason: billingReason,
      collection_method: 'charge_automatically',
      created: ts,
      currency: sub.currency,
      customer: sub.customer,
      customer_email: customer?.email ?? null,
      customer_name: customer?.name ?? null,
      hosted_invoice_url: `https://invoice.stripe.com/i/fake/${id}`,
      invoice_pdf: `https://pay.stripe.com/invoice/fake/${id}/pdf`,
      lines: {
        object: 'list',
        data: [
          {
            id: randomAlnum('il_', 24),
            object: 'line_item',
            amount,
            currency: sub.currency,
            description: `${item.quantity} × Rankwell Pro (at ${formatAmount(item.price.unit_amount, item.price.currency)} / ${item.price.recurring?.interval ?? 'once'})`,
            discountable: true,
            discounts: [],
            invoice: id,
            livemode: false,
            metadata: {},
            parent: {
              invoice_item_details: null,
              subscription_item_details: {
                invoice_item: null,
                proration: false,
                proration_details: { credited_items: null },
                subscription: sub.id,
                subscription_item: item.id,
              },
              type: 'subscription_item_details',
            },
            period: { end: item.current_period_end, start: item.current_period_start },
            pricing: {
              price_details: { price: item.price.id, product: item.price.product },
              type: 'price_details',
              unit_amount_decimal: item.price.unit_amount_decimal,
            },
            quantity: item.quantity,
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/invoices/${id}/lines`,
      },
      livemode: false,
      metadata: {},
      next_payment_attempt: paid ? null : ts + 3 * 86400,
      number: `${customer?.invoice_prefix ?? 'FAKE'}-${String(invoiceCounter).padStart(4, '0')}`,
      parent: {
        quote_details: null,
        subscription_details: { metadata: { ...sub.metadata }, subscription: sub.id },
        type: 'subscription_details',
      },
      period_end: item.current_period_start,
      period_start: item.current_period_start,
      status: paid ? 'paid' : 'open',
      status_transitions: {
        finalized_at: ts,
        marked_uncollectible_at: null,
        paid_at: paid ? ts : null,
        voided_at: null,
      },
      subtotal: amount,
      total: amount,
    }
    invoices.set(id, inv)
    if (paid && amount > 0) recordPayment(inv)
    return inv
  }

  /** The card payment behind a paid invoice: a PaymentIntent with its charge, listed as the invoice's payment. */
  function recordPayment(inv: Invoice): void {
    const ts = now()
    const pi = {
      id: randomAlnum('pi_', 24),
      amount: inv.amount_paid,
      currency: inv.currency,
      customer: inv.customer,
      charge: randomAlnum('ch_', 24),
      refunded: 0,
    }
    paymentIntents.set(pi.id, pi)
    const payment: InvoicePayment = {
      id: randomAlnum('inpay_', 24),
      object: 'invoice_payment',
      amount_paid: inv.amount_paid,
      amount_requested: inv.amount_due,
      created: ts,
      currency: inv.currency,
      invoice: inv.id,
      is_default: true,
      livemode: false,
      payment: { payment_intent: pi.id, type: 'payment_intent' },
      status: 'paid',
      status_transitions: { canceled_at: null, paid_at: ts },
    }
    invoicePayments.set(payment.id, payment)
  }

  function buildSubscription(
    customerId: string,
    lineItems: LineItemInput[],
    metadata: Metadata,
    trialDays?: number,
  ): Subscription {
    const id = randomAlnum('sub_', 24)
    const start = now()
    const first = getPrice(lineItems[0].price)
    const interval = first.recurring?.interval ?? 'month'
    const count = first.recurring?.interval_count ?? 1
    const trialEnd = trialDays && trialDays > 0 ? start + trialDays * 86400 : null
    const periodEnd = trialEnd ?? addInterval(start, interval, count)
    const items: SubscriptionItem[] = lineItems.map((li) => ({
      id: randomAlnum('si_', 14),
      object: 'subscription_item',
      created: start,
      current_period_end: periodEnd,
      current_period_start: start,
      discounts: [],
      metadata: {},
      price: clone(getPrice(li.price)),
      quantity: li.quantity,
      subscription: id,
      tax_rates: [],
    }))
    const sub: Subscription = {
      id,
      object: 'subscription',
      application: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: trialEnd ?? start,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      created: start,
      currency: first.currency,
      current_period_end: periodEnd,
      current_period_start: start,
      customer: customerId,
      default_payment_method: randomAlnum('pm_', 24),
      description: null,
      discounts: [],
      ended_at: null,
      items: {
        object: 'list',
        data: items,
        has_more: false,
        total_count: items.length,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata,
      pause_collection: null,
      quantity: lineItems[0].quantity,
      start_date: start,
      status: trialEnd ? 'trialing' : 'active',
      trial_end: trialEnd,
      trial_start: trialEnd ? start : null,
    }
    subscriptions.set(id, sub)
    return sub
  }

  function setPeriod(sub: Subscription, start: number, end: number): void {
    sub.current_period_start = start
    sub.current_period_end = end
    for (const it of sub.items.data) {
      it.current_period_start = start
      it.current_period_end = end
    }
  }

  // --- flows --------------------------------------------------------------

  async function completeCheckout(
    sessionId: string,
    details: { email?: string; name?: string } = {},
  ): Promise<{ session: CheckoutSession; deliveries: Delivery[] }> {
    const session = sessions.get(sessionId)
    if (!session) throw missing('checkout.session', sessionId)
    if (session.status !== 'open')
      throw invalid(`This Checkout Session is no longer active (status: ${session.status}).`)
    let customer = session.customer ? customers.get(session.customer) : undefined
    if (!customer) {
      customer = createCustomer({
        email: session.customer_email ?? details.email ?? 'jane@example.com',
        name: details.name,
      })
    } else if (details.name && !customer.name) {
      customer.name = details.name
    }
    const deliveries: Delivery[] = []
    session.customer = customer.id
    session.customer_details = {
      email: customer.email,
      name: customer.name,
      address: null,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    }
    session.status = 'complete'
    if (session.mode === 'subscription') {
      const sub = buildSubscription(
        customer.id,
        session._lineItems,
        { ...session._subscriptionData.metadata },
        session._subscriptionData.trialDays,
      )
      const inv = buildInvoice(sub, 'subscription_create', true, sub.status === 'trialing' ? 0 : undefined)
      sub.latest_invoice = inv.id
      session.subscription = sub.id
      session.invoice = inv.id
      session.payment_status = inv.amount_due === 0 ? 'no_payment_required' : 'paid'
      deliveries.push(await emit('checkout.session.completed', publicSession(session)))
      deliveries.push(await emit('customer.subscription.created', sub))
      deliveries.push(await emit('invoice.paid', inv))
    } else {
      session.payment_status = session.mode === 'setup' ? 'no_payment_required' : 'paid'
      if (session.mode === 'payment') session.payment_intent = randomAlnum('pi_', 24)
      deliveries.push(await emit('checkout.session.completed', publicSession(session)))
    }
    return { session: publicSession(session), deliveries }
  }

  async function renewSubscription(id: string): Promise<{ subscription: Subscription; deliveries: Delivery[] }> {
    const sub = getSubscription(id)
    if (sub.status === 'canceled') throw invalid('This subscription is canceled and cannot be renewed.')
    const deliveries: Delivery[] = []
    if (sub.cancel_at_period_end) {
      const previous = { status: sub.status }
      sub.status = 'canceled'
      sub.ended_at = sub.current_period_end
      sub.canceled_at = sub.canceled_at ?? now()
      deliveries.push(await emit('customer.subscription.deleted', sub, previous))
      return { subscription: sub, deliveries }
    }
    const latest = sub.latest_invoice ? invoices.get(sub.latest_invoice) : undefined
    if (sub.status === 'past_due' && latest && latest.status === 'open') {
      // retrying the failed renewal invoice succeeds; the period already advanced
      latest.status = 'paid'
      latest.amount_paid = latest.amount_due
      latest.amount_remaining = 0
      latest.attempt_count += 1
      latest.status_transitions.paid_at = now()
      latest.next_payment_attempt = null
      if (latest.amount_paid > 0) recordPayment(latest)
      const previous = { status: sub.status }
      sub.status = 'active'
      deliveries.push(await emit('invoice.paid', latest))
      deliveries.push(await emit('customer.subscription.updated', sub, previous))
      return { subscription: sub, deliveries }
    }
    const item = sub.items.data[0]
    const interval = item.price.recurring?.interval ?? 'month'
    const count = item.price.recurring?.interval_count ?? 1
    const previous: Record<string, unknown> = {
      current_period_start: sub.current_period_start,
      current_period_end: sub.current_period_end,
      latest_invoice: sub.latest_invoice,
    }
    const start = sub.current_period_end
    setPeriod(sub, start, addInterval(start, interval, count))
    if (sub.status !== 'active') {
      previous.status = sub.status
      sub.status = 'active'
    }
    const inv = buildInvoice(sub, 'subscription_cycle', true)
    sub.latest_invoice = inv.id
    deliveries.push(await emit('invoice.paid', inv))
    deliveries.push(await emit('customer.subscription.updated', sub, previous))
    return { subscription: sub, deliveries }
  }

  async function failPayment(id: string): Promise<{ subscription: Subscription; deliveries: Delivery[] }> {
    const sub = getSubscription(id)
    if (sub.status === 'canceled') throw invalid('This subscription is canceled.')
    const item = sub.items.data[0]
    const interval = item.price.recurring?.interval ?? 'month'
    const count = item.price.recurring?.interval_count ?? 1
    const previous: Record<string, unknown> = { status: sub.status, latest_invoice: sub.latest_invoice }
    if (sub.status !== 'past_due') {
      previous.current_period_start = sub.current_period_start
      previous.current_period_end = sub.current_period_end
      const start = sub.current_period_end
      setPeriod(sub, start, addInterval(start, interval, count))
    }
    const inv = buildInvoice(sub, 'subscription_cycle', false)
    sub.latest_invoice = inv.id
    sub.status = 'past_due'
    const deliveries: Delivery[] = []
    deliveries.push(await emit('invoice.payment_failed', inv))
    deliveries.push(await emit('customer.subscription.updated', sub, previous))
    return { subscription: sub, deliveries }
  }

  // --- expansion & lists ----------------------------------------------------

  function lookup(id: string): unknown {
    if (id.startsWith('cus_')) return customers.get(id)
    if (id.startsWith('sub_')) return subscriptions.get(id)
    if (id.startsWith('in_')) return invoices.get(id)
    if (id.startsWith('price_')) return prices.get(id)
    if (id.startsWith('prod_')) return products.get(id)
    if (id.startsWith('cs_')) {
      const s = sessions.get(id)
      return s ? publicSession(s) : undefined
    }
    return undefined
  }

  function expandPath(obj: unknown, parts: string[]): unknown {
    if (parts.length === 0 || !isRecord(obj)) return obj
    const [head, ...rest] = parts
    if (head === 'data' && Array.isArray(obj.data)) {
      return { ...obj, data: obj.data.map((x) => expandPath(x, rest)) }
    }
    let value = obj[head]
    if (typeof value === 'string') value = clone(lookup(value) ?? value)
    return { ...obj, [head]: rest.length > 0 ? expandPath(value, rest) : value }
  }

  function expandParam(ctx: FakeRequest): string[] {
    const raw = (isRecord(ctx.body) ? ctx.body.expand : undefined) ?? ctx.query.expand
    if (Array.isArray(raw)) return raw.filter((x): x is string => typeof x === 'string')
    if (typeof raw === 'string') return [raw]
    return []
  }

  function withExpand<T>(ctx: FakeRequest, obj: T): unknown {
    let out: unknown = clone(obj)
    for (const path of expandParam(ctx)) {
      if (path === 'line_items' && isRecord(out) && out.object === 'checkout.session') {
        out = { ...out, line_items: lineItemsList(String(out.id)) }
        continue
      }
      out = expandPath(out, path.split('.'))
    }
    return out
  }

  function list<T extends { id: string; created: number }>(
    ctx: FakeRequest,
    url: string,
    all: T[],
  ): Record<string, unknown> {
    const limit = Math.max(1, Math.min(100, toInt(ctx.query.limit) ?? 10))
    const sorted = [...all].sort((a, b) => b.created - a.created)
    let start = 0
    const after = str(ctx.query.starting_after)
    if (after) start = sorted.findIndex((x) => x.id === after) + 1
    const page = sorted.slice(start, start + limit)
    return { object: 'list', data: page, has_more: start + limit < sorted.length, url }
  }

  function publicSession(s: CheckoutSession): CheckoutSession {
    const {
      _lineItems: _l,
      _subscriptionData: _s,
      ...rest
    } = s as CheckoutSession & { _lineItems?: unknown; _subscriptionData?: unknown }
    return clone(rest)
  }

  function lineItemsList(sessionId: string): Record<string, unknown> {
    const s = sessions.get(sessionId)
    if (!s) throw missing('checkout.session', sessionId)
    const data = s._lineItems.map((li) => {
      const p = getPrice(li.price)
      return {
        id: randomAlnum('li_', 24),
        object: 'item',
        amount_discount: 0,
        amount_subtotal: p.unit_amount * li.quantity,
        amount_tax: 0,
        amount_total: p.unit_amount * li.quantity,
        currency: p.currency,
        description: 'Rankwell Pro',
        price: clone(p),
        quantity: li.quantity,
      }
    })
    return { object: 'list', data, has_more: false, url: `/v1/checkout/sessions/${sessionId}/line_items` }
  }

  // --- API routes -----------------------------------------------------------

  interface ApiResult {
    status: number
    body: unknown
  }

  async function api(ctx: FakeRequest, requestId: string, idemKey: string | null): Promise<ApiResult> {
    const { method } = ctx
    const path = ctx.path.replace(/\/+$/, '')
    const p = isRecord(ctx.body) ? ctx.body : {}
    const seg = path.split('/').slice(2) // after /v1
    const reqInfo = { id: requestId, idempotency_key: idemKey }
    const ok = (body: unknown): ApiResult => ({ status: 200, body })

    // customers
    if (seg[0] === 'customers') {
      if (seg.length === 1 && method === 'POST') return ok(withExpand(ctx, createCustomer(p)))
      if (seg.length === 1 && method === 'GET') {
        let all = [...customers.values()]
        const email = str(ctx.query.email)
        if (email) all = all.filter((c) => c.email === email)
        return ok(list(ctx, '/v1/customers', all))
      }
      if (seg[1] === 'search' && method === 'GET') {
        const query = str(ctx.query.query) ?? ''
        const conditions = [...query.matchAll(/(\w+)(?:\[['"]([^'"]+)['"]\])?\s*:\s*['"]([^'"]*)['"]/g)]
        const data = [...customers.values()].filter((c) =>
          conditions.every(([, field, key, value]) => {
            if (field === 'metadata' && key) return c.metadata[key] === value
            if (field === 'email') return (c.email ?? '').toLowerCase() === value.toLowerCase()
            if (field === 'name') return (c.name ?? '').toLowerCase().includes(value.toLowerCase())
            return false
          }),
        )
        return ok({ object: 'search_result', data, has_more: false, next_page: null, url: '/v1/customers/search' })
      }
      if (seg.length === 2) {
        const c = getCustomer(seg[1])
        if (method === 'GET') return ok(withExpand(ctx, c))
        if (method === 'POST') {
          if (p.email !== undefined) c.email = str(p.email) || null
          if (p.name !== undefined) c.name = str(p.name) || null
          if (p.description !== undefined) c.description = str(p.description) || null
          if (p.phone !== undefined) c.phone = str(p.phone) || null
          if (p.metadata !== undefined) c.metadata = mergeMetadata(c.metadata, p.metadata)
          return ok(withExpand(ctx, c))
        }
        if (method === 'DELETE') {
          customers.delete(c.id)
          return ok({ id: c.id, object: 'customer', deleted: true })
        }
      }
    }

    // prices & products
    if (seg[0] === 'prices') {
      if (seg.length === 1 && method === 'GET') {
        let all = [...prices.values()]
        const keys = Array.isArray(ctx.query.lookup_keys) ? ctx.query.lookup_keys : undefined
        if (keys) all = all.filter((x) => x.lookup_key !== null && keys.includes(x.lookup_key))
        return ok(list(ctx, '/v1/prices', all))
      }
      if (seg.length === 1 && method === 'POST') {
        const currency = str(p.currency)
        if (!currency) throw paramMissing('currency')
        const amount = toInt(p.unit_amount)
        if (amount === undefined) throw paramMissing('unit_amount')
        let product = str(p.product)
        if (!product) {
          const pd = isRecord(p.product_data) ? p.product_data : undefined
          if (!pd || !str(pd.name)) throw paramMissing('product')
          product = randomAlnum('prod_', 14)
          products.set(product, {
            id: product,
            object: 'product',
            active: true,
            created: now(),
            name: str(pd.name),
            metadata: toMetadata(pd.metadata),
            livemode: false,
          })
        } else if (!products.has(product)) throw missing('product', product, 'product')
        const rec = isRecord(p.recurring) ? p.recurring : undefined
        const interval = rec ? (str(rec.interval) as Interval | undefined) : undefined
        if (rec && (!interval || !['day', 'week', 'month', 'year'].includes(interval)))
          throw invalid('Invalid recurring[interval]', 'recurring[interval]')
        const id = randomAlnum('price_', 24)
        const price: Price = {
          id,
          object: 'price',
          active: true,
          billing_scheme: 'per_unit',
          created: now(),
          currency: currency.toLowerCase(),
          custom_unit_amount: null,
          livemode: false,
          lookup_key: str(p.lookup_key) ?? null,
          metadata: toMetadata(p.metadata),
          nickname: str(p.nickname) ?? null,
          product,
          recurring:
            rec && interval
              ? {
                  interval,
                  interval_count: toInt(rec.interval_count) ?? 1,
                  meter: null,
                  trial_period_days: null,
                  usage_type: 'licensed',
                }
              : null,
          tax_behavior: 'unspecified',
          tiers_mode: null,
          transform_quantity: null,
          type: rec ? 'recurring' : 'one_time',
          unit_amount: amount,
          unit_amount_decimal: String(amount),
        }
        prices.set(id, price)
        return ok(withExpand(ctx, price))
      }
      if (seg.length === 2 && method === 'GET') return ok(withExpand(ctx, getPrice(seg[1])))
    }
    if (seg[0] === 'products' && seg.length === 2 && method === 'GET') {
      const prod = products.get(seg[1])
      if (!prod) throw missing('product', seg[1])
      return ok(prod)
    }

    // checkout sessions
    if (seg[0] === 'checkout' && seg[1] === 'sessions') {
      if (seg.length === 2 && method === 'POST') return ok(withExpand(ctx, createSession(ctx, p)))
      if (seg.length === 2 && method === 'GET') {
        let all = [...sessions.values()]
        const customer = str(ctx.query.customer)
        const status = str(ctx.query.status)
        const subscription = str(ctx.query.subscription)
        if (customer) all = all.filter((s) => s.customer === customer)
        if (status) all = all.filter((s) => s.status === status)
        if (subscription) all = all.filter((s) => s.subscription === subscription)
        return ok(list(ctx, '/v1/checkout/sessions', all.map(publicSession)))
      }
      if (seg.length >= 3) {
        const s = sessions.get(seg[2])
        if (!s) throw missing('checkout.session', seg[2])
        if (seg.length === 3 && method === 'GET') return ok(withExpand(ctx, publicSession(s)))
        if (seg[3] === 'line_items' && method === 'GET') return ok(lineItemsList(s.id))
        if (seg[3] === 'expire' && method === 'POST') {
          if (s.status !== 'open')
            throw invalid(
              `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`,
            )
          s.status = 'expired'
          s.url = null
          await emit('checkout.session.expired', publicSession(s), undefined, reqInfo)
          return ok(publicSession(s))
        }
      }
    }

    // subscriptions
    if (seg[0] === 'subscriptions') {
      if (seg.length === 1 && method === 'GET') {
        let all = [...subscriptions.values()]
        const customer = str(ctx.query.customer)
        const price = str(ctx.query.price)
        const status = str(ctx.query.status)
        if (customer) all = all.filter((s) => s.customer === customer)
        if (price) all = all.filter((s) => s.items.data.some((i) => i.price.id === price))
        if (status && status !== 'all') all = all.filter((s) => s.status === status)
        else if (!status) all = all.filter((s) => s.status !== 'canceled')
        return ok(withExpand(ctx, list(ctx, '/v1/subscriptions', all)))
      }
      if (seg.length === 2) {
        const sub = getSubscription(seg[1])
        if (method === 'GET') return ok(withExpand(ctx, sub))
        if (method === 'POST') return ok(withExpand(ctx, await updateSubscription(sub, p, reqInfo)))
        if (method === 'DELETE') {
          if (sub.status === 'canceled') throw invalid(`This subscription has already been canceled: '${sub.id}'`)
          const previous = { status: sub.status }
          const ts = now()
          sub.status = 'canceled'
          sub.canceled_at = ts
          sub.ended_at = ts
          sub.cancel_at = null
          sub.cancellation_details = { ...sub.cancellation_details, reason: 'cancellation_requested' }
          await emit('customer.subscription.deleted', sub, previous, reqInfo)
          return ok(withExpand(ctx, sub))
        }
      }
    }

    // invoices
    if (seg[0] === 'invoices') {
      if (seg.length === 1 && method === 'GET') {
        let all = [...invoices.values()]
        const customer = str(ctx.query.customer)
        const subscription = str(ctx.query.subscription)
        const status = str(ctx.query.status)
        if (customer) all = all.filter((i) => i.customer === customer)
        if (subscription) all = all.filter((i) => i.parent.subscription_details.subscription === subscription)
        if (status) all = all.filter((i) => i.status === status)
        return ok(list(ctx, '/v1/invoices', all))
      }
      if (seg.length === 2 && method === 'GET') {
        const inv = invoices.get(seg[1])
        if (!inv) throw missing('invoice', seg[1])
        return ok(withExpand(ctx, inv))
      }
    }

    // invoice payments (GET /v1/invoice_payments?invoice=in_...)
    if (seg[0] === 'invoice_payments') {
      if (seg.length === 1 && method === 'GET') {
        let all = [...invoicePayments.values()]
        const invoice = str(ctx.query.invoice)
        if (invoice) all = all.filter((x) => x.invoice === invoice)
        return ok(list(ctx, '/v1/invoice_payments', all))
      }
      if (seg.length === 2 && method === 'GET') {
        const found = invoicePayments.get(seg[1])
        if (!found) throw missing('invoice_payment', seg[1])
        return ok(found)
      }
    }

    // refunds (POST /v1/refunds {payment_intent | charge, amount?, reason?, metadata?})
    if (seg[0] === 'refunds') {
      if (seg.length === 1 && method === 'POST') return ok(await createRefund(p, reqInfo))
      if (seg.length === 1 && method === 'GET') {
        let all = [...refunds.values()]
        const pi = str(ctx.query.payment_intent)
        if (pi) all = all.filter((r) => r.payment_intent === pi)
        return ok(list(ctx, '/v1/refunds', all))
      }
      if (seg.length === 2 && method === 'GET') {
        const found = refunds.get(seg[1])
        if (!found) throw missing('refund', seg[1])
        return ok(found)
      }
    }

    // billing portal
    if (seg[0] === 'billing_portal' && seg[1] === 'sessions' && seg.length === 2 && method === 'POST') {
      const customer = str(p.customer)
      if (!customer) throw paramMissing('customer')
      getCustomer(customer, 'customer')
      const id = randomAlnum('bps_', 24)
      const ps: PortalSession = {
        id,
        object: 'billing_portal.session',
        configuration: 'bpc_fake_default',
        created: now(),
        customer,
        flow: null,
        livemode: false,
        locale: str(p.locale) ?? null,
        on_behalf_of: null,
        return_url: str(p.return_url) ?? null,
        url: `${ctx.baseUrl}/portal/${id}`,
      }
      portalSessions.set(id, ps)
      return ok(ps)
    }

    throw new StripeApiError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: ${ctx.path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    )
  }

  function createSession(ctx: FakeRequest, p: Record<string, unknown>): CheckoutSession {
    const mode = str(p.mode)
    if (!mode) throw paramMissing('mode')
    if (!['subscription', 'payment', 'setup'].includes(mode))
      throw invalid(`Invalid mode: must be one of payment, setup, or subscription`, 'mode')
    const customer = str(p.customer) ?? null
    if (customer) getCustomer(customer, 'customer')
    const customerEmail = str(p.customer_email) ?? null
    if (customer && customerEmail)
      throw invalid('You may only specify one of these parameters: customer, customer_email.', 'customer_email')
    const rawItems = Array.isArray(p.line_items) ? p.line_items : []
    const lineItems: LineItemInput[] = []
    rawItems.forEach((li, i) => {
      if (!isRecord(li)) return
      const price = str(li.price)
      if (!price) throw paramMissing(`line_items[${i}][price]`)
      getPrice(price, `line_items[${i}][price]`)
      lineItems.push({ price, quantity: toInt(li.quantity) ?? 1 })
    })
    if (mode !== 'setup' && lineItems.length === 0) throw paramMissing('line_items')
    if (mode === 'subscription' && !lineItems.some((li) => getPrice(li.price).recurring !== null)) {
      throw invalid(
        'You must provide at least one recurring price in `subscription` mode when using prices.',
        'line_items',
      )
    }
    const uiMode = str(p.ui_mode) ?? 'hosted'
    const successUrl = str(p.success_url) ?? null
    if (uiMode === 'hosted' && successUrl) {
      try {
        new URL(successUrl.replace('{CHECKOUT_SESSION_ID}', 'x'))
      } catch {
        throw invalid('Not a valid URL', 'success_url')
      }
    }
    const sd = isRecord(p.subscription_data) ? p.subscription_data : {}
    const amount = lineItems.reduce((s, li) => s + getPrice(li.price).unit_amount * li.quantity, 0)
    const id = `cs_test_${randomAlnum('', 58)}`
    const created = now()
    const session: CheckoutSession & {
      _lineItems: LineItemInput[]
      _subscriptionData: { metadata: Metadata; trialDays?: number }
    } = {
      id,
      object: 'checkout.session',
      allow_promotion_codes: toBool(p.allow_promotion_codes) ?? null,
      amount_subtotal: amount,
      amount_total: amount,
      billing_address_collection: null,
      cancel_url: str(p.cancel_url) ?? null,
      client_reference_id: str(p.client_reference_id) ?? null,
      client_secret: null,
      created,
      currency: lineItems.length > 0 ? getPrice(lineItems[0].price).currency : 'usd',
      customer,
      customer_creation: customer ? null : mode === 'payment' ? 'if_required' : 'always',
      customer_details: null,
      customer_email: customerEmail,
      expires_at: toInt(p.expires_at) ?? created + 24 * 3600,
      invoice: null,
      livemode: false,
      locale: str(p.locale) ?? null,
      metadata: toMetadata(p.metadata),
      mode: mode as CheckoutSession['mode'],
      payment_intent: null,
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      return_url: str(p.return_url) ?? null,
      setup_intent: null,
      status: 'open',
      submit_type: null,
      subscription: null,
      success_url: successUrl,
      ui_mode: uiMode,
      url: uiMode === 'hosted' ? `${ctx.baseUrl}/checkout/${id}` : null,
      _lineItems: lineItems,
      _subscriptionData: { metadata: toMetadata(sd.metadata), trialDays: toInt(sd.trial_period_days) },
    }
    sessions.set(id, session)
    return publicSession(session)
  }

  async function updateSubscription(
    sub: Subscription,
    p: Record<string, unknown>,
    reqInfo: { id: string; idempotency_key: string | null },
  ): Promise<Subscription> {
    if (sub.status === 'canceled') {
      const onlyMeta = Object.keys(p).every((k) => k === 'metadata' || k === 'expand' || k === 'cancellation_details')
      if (!onlyMeta) throw invalid('A canceled subscription can only update its cancellation_details and metadata.')
    }
    const previous: Record<string, unknown> = {}
    const cape = toBool(p.cancel_at_period_end)
    if (cape !== undefined && cape !== sub.cancel_at_period_end) {
      previous.cancel_at_period_end = sub.cancel_at_period_end
      previous.cancel_at = sub.cancel_at
      previous.canceled_at = sub.canceled_at
      previous.cancellation_details = { ...sub.cancellation_details }
      sub.cancel_at_period_end = cape
      sub.cancel_at = cape ? sub.current_period_end : null
      sub.canceled_at = cape ? now() : null
      sub.cancellation_details = { ...sub.cancellation_details, reason: cape ? 'cancellation_requested' : null }
    }
    if (p.cancel_at !== undefined) {
      const at = p.cancel_at === '' ? null : (toInt(p.cancel_at) ?? null)
      if (at !== sub.cancel_at) {
        previous.cancel_at = sub.cancel_at
        sub.cancel_at = at
      }
    }
    if (p.metadata !== undefined) {
      const next = mergeMetadata(sub.metadata, p.metadata)
      if (JSON.stringify(next) !== JSON.stringify(sub.metadata)) {
        previous.metadata = { ...sub.metadata }
        sub.metadata = next
      }
    }
    if (p.description !== undefined) {
      previous.description = sub.description
      sub.description = str(p.description) || null
    }
    if (p.default_payment_method !== undefined) {
      previous.default_payment_method = sub.default_payment_method
      sub.default_payment_method = str(p.default_payment_method) || null
    }
    if (isRecord(p.cancellation_details)) {
      const cd = p.cancellation_details
      previous.cancellation_details = { ...sub.cancellation_details }
      sub.cancellation_details = {
        ...sub.cancellation_details,
        ...(cd.comment !== undefined ? { comment: str(cd.comment) || null } : {}),
        ...(cd.feedback !== undefined ? { feedback: str(cd.feedback) || null } : {}),
      }
    }
    if (Array.isArray(p.items) && p.items.length > 0) {
      const before = clone(sub.items)
      let changed = false
      p.items.forEach((raw, i) => {
        if (!isRecord(raw)) return
        const itemId = str(raw.id)
        const item = itemId ? sub.items.data.find((x) => x.id === itemId) : (sub.items.data[i] ?? sub.items.data[0])
        if (itemId && !item) throw missing('subscription_item', itemId, `items[${i}][id]`)
        if (!item) return
        const priceId = str(raw.price)
        if (priceId && priceId !== item.price.id) {
          item.price = clone(getPrice(priceId, `items[${i}][price]`))
          changed = true
        }
        const q = toInt(raw.quantity)
        if (q !== undefined && q !== item.quantity) {
          item.quantity = q
          changed = true
        }
      })
      if (changed) {
        previous.items = before
        sub.quantity = sub.items.data[0].quantity
      }
    }
    if (Object.keys(previous).length > 0) await emit('customer.subscription.updated', sub, previous, reqInfo)
    return sub
  }

  async function createRefund(
    p: Record<string, unknown>,
    reqInfo: { id: string; idempotency_key: string | null },
  ): Promise<Refund> {
    const piId = str(p.payment_intent)
    const chargeId = str(p.charge)
    if (!piId && !chargeId)
      throw invalid('One of the following params should be provided for this request: payment_intent or charge.')
    const pi = piId ? paymentIntents.get(piId) : [...paymentIntents.values()].find((x) => x.charge === chargeId)
    if (!pi) throw piId ? missing('payment_intent', piId, 'payment_intent') : missing('charge', chargeId!, 'charge')
    const remaining = pi.amount - pi.refunded
    if (remaining <= 0)
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `Charge ${pi.charge} has already been refunded.`,
        'charge_already_refunded',
      )
    const amount = toInt(p.amount) ?? remaining
    if (amount <= 0 || amount > remaining)
      throw invalid(
        `Refund amount (${formatAmount(amount, pi.currency)}) is greater than unrefunded amount on charge (${formatAmount(remaining, pi.currency)})`,
        'amount',
      )
    pi.refunded += amount
    const reason = str(p.reason) ?? null
    if (reason && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(reason))
      throw invalid('Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer', 'reason')
    const refund: Refund = {
      id: randomAlnum('re_', 24),
      object: 'refund',
      amount,
      balance_transaction: randomAlnum('txn_', 24),
      charge: pi.charge,
      created: now(),
      currency: pi.currency,
      destination_details: {
        card: { reference_status: 'pending', reference_type: 'acquirer_reference_number' },
        type: 'card',
      },
      metadata: toMetadata(p.metadata),
      payment_intent: pi.id,
      reason,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    }
    refunds.set(refund.id, refund)
    await emit('refund.created', refund, undefined, reqInfo)
    return refund
  }

  /** Stripe gives up on a past-due subscription (Billing settings: cancel after all retries fail). */
  async function giveUp(id: string): Promise<{ subscription: Subscription; deliveries: Delivery[] }> {
    const sub = getSubscription(id)
    if (sub.status === 'canceled') throw invalid(`This subscription has already been canceled: '${sub.id}'`)
    const previous = { status: sub.status }
    const ts = now()
    sub.status = 'canceled'
    sub.canceled_at = ts
    sub.ended_at = ts
    sub.cancellation_details = { ...sub.cancellation_details, reason: 'payment_failed' }
    const latest = sub.latest_invoice ? invoices.get(sub.latest_invoice) : undefined
    if (latest && latest.status === 'open') latest.next_payment_attempt = null
    const deliveries = [await emit('customer.subscription.deleted', sub, previous)]
    return { subscription: sub, deliveries }
  }

  // --- browser pages ------------------------------------------------------

  function successTarget(s: CheckoutSession): string | null {
    return s.success_url ? s.success_url.replace(/\{CHECKOUT_SESSION_ID\}/g, s.id) : null
  }

  function checkoutPage(ctx: FakeRequest, id: string): void {
    const s = sessions.get(id)
    if (!s) {
      sendHtml(
        ctx.res,
        404,
        pageShell(
          'Not found',
          '<h1>Something went wrong</h1><p class="muted">The page you were looking for could not be found.</p>',
        ),
      )
      return
    }
    if (s.status !== 'open') {
      const target = successTarget(s)
      sendHtml(
        ctx.res,
        200,
        pageShell(
          'Fake Stripe Checkout',
          `<h1>Fake Stripe Checkout</h1><p>This Checkout Session is ${escapeHtml(s.status)}.</p>${target && s.status === 'complete' ? `<p><a href="${escapeHtml(target)}">Continue</a></p>` : ''}`,
        ),
      )
      return
    }
    const price = getPrice(s._lineItems[0]?.price ?? 'price_monthly')
    const customer = s.customer ? customers.get(s.customer) : undefined
    const email = customer?.email ?? s.customer_email ?? 'jane@example.com'
    const trial = s._subscriptionData.trialDays
      ? `<p class="muted">${s._subscriptionData.trialDays}-day free trial</p>`
      : ''
    const html = pageShell(
      'Fake Stripe Checkout',
      `<h1>Fake Stripe Checkout</h1>
<p class="muted">Subscribe to Rankwell Pro${price.nickname ? ` (${escapeHtml(price.nickname)})` : ''}</p>
<div class="price" data-testid="price">${escapeHtml(formatAmount(s.amount_total, s.currency))}</div>
<p class="muted">${escapeHtml(describeRecurring(price))}</p>${trial}
<form method="post" action="/checkout/${escapeHtml(s.id)}/pay">
<label for="email">Email</label>
<input id="email" name="email" type="email" value="${escapeHtml(email)}"${customer || s.customer_email ? ' readonly' : ''}>
<label for="card">Card information</label>
<input id="card" name="card" type="text" value="4242 4242 4242 4242" autocomplete="off">
<label for="name">Name on card</label>
<input id="name" name="name" type="text" value="${escapeHtml(customer?.name ?? 'Jane Doe')}">
<button type="submit">Pay</button>
</form>
${s.cancel_url ? `<p><a href="${escapeHtml(s.cancel_url)}">Cancel</a></p>` : ''}`,
    )
    sendHtml(ctx.res, 200, html)
  }

  async function payPage(ctx: FakeRequest, id: string): Promise<void> {
    const s = sessions.get(id)
    if (!s) {
      sendHtml(ctx.res, 404, pageShell('Not found', '<h1>Checkout session not found</h1>'))
      return
    }
    if (s.status === 'open') {
      const body = isRecord(ctx.body) ? ctx.body : {}
      await completeCheckout(id, { email: str(body.email), name: str(body.name) })
    }
    const target = successTarget(s)
    if (target && s.status === 'complete') {
      redirect(ctx.res, 303, target)
      return
    }
    sendHtml(
      ctx.res,
      200,
      pageShell(
        'Payment complete',
        `<h1>Payment complete</h1><p>Session ${escapeHtml(s.id)} is ${escapeHtml(s.status)}.</p>`,
      ),
    )
  }

  function portalPage(ctx: FakeRequest, id: string): void {
    const ps = portalSessions.get(id)
    if (!ps) {
      sendHtml(ctx.res, 404, pageShell('Not found', '<h1>This portal session has expired</h1>'))
      return
    }
    const customer = customers.get(ps.customer)
    const subs = [...subscriptions.values()].filter((s) => s.customer === ps.customer && s.status !== 'canceled')
    const items = subs
      .map((s) => {
        const price = s.items.data[0].price
        const end = new Date(s.current_period_end * 1000).toISOString().slice(0, 10)
        const action = s.cancel_at_period_end
          ? `<p class="muted">Cancels on ${end}</p><form method="post" action="/portal/${escapeHtml(id)}/subscriptions/${escapeHtml(s.id)}/renew"><button class="secondary" type="submit">Renew plan</button></form>`
          : `<p class="muted">Renews on ${end}</p><form method="post" action="/portal/${escapeHtml(id)}/subscriptions/${escapeHtml(s.id)}/cancel"><button class="secondary" type="submit">Cancel plan</button></form>`
        // Plan switching (Customer Portal → Subscriptions → customers can switch plans) between the recurring prices.
        const others = [...prices.values()].filter((p) => p.active && p.recurring && p.id !== price.id)
        const switches = others
          .map(
            (p) =>
              `<form method="post" action="/portal/${escapeHtml(id)}/subscriptions/${escapeHtml(s.id)}/switch"><input type="hidden" name="price" value="${escapeHtml(p.id)}"><button class="secondary" type="submit">Switch to ${escapeHtml(formatAmount(p.unit_amount, p.currency))} ${escapeHtml(describeRecurring(p))}</button></form>`,
          )
          .join('')
        return `<li><strong>Rankwell Pro</strong> — ${escapeHtml(formatAmount(price.unit_amount, price.currency))} ${escapeHtml(describeRecurring(price))} <span class="muted">(${escapeHtml(s.status)})</span>${action}${switches}</li>`
      })
      .join('\n')
    sendHtml(
      ctx.res,
      200,
      pageShell(
        'Fake Stripe Customer Portal',
        `<h1>Fake Stripe Customer Portal</h1>
<p class="muted">${escapeHtml(customer?.email ?? ps.customer)}</p>
<h2 style="font-size:16px">Current plan</h2>
${subs.length > 0 ? `<ul>${items}</ul>` : '<p>No active subscriptions.</p>'}
${ps.return_url ? `<p><a href="${escapeHtml(ps.return_url)}">Return to Rankwell</a></p>` : ''}`,
      ),
    )
  }

  async function portalAction(ctx: FakeRequest, id: string, subId: string, action: string): Promise<void> {
    const ps = portalSessions.get(id)
    const sub = subscriptions.get(subId)
    if (!ps || !sub || sub.customer !== ps.customer) {
      sendHtml(ctx.res, 404, pageShell('Not found', '<h1>Not found</h1>'))
      return
    }
    const reqInfo = { id: randomAlnum('req_', 14), idempotency_key: null }
    if (action === 'switch') {
      const price = str(isRecord(ctx.body) ? ctx.body.price : undefined)
      if (!price || !prices.get(price)?.recurring) {
        sendHtml(ctx.res, 400, pageShell('Invalid plan', '<h1>Choose one of the plans</h1>'))
        return
      }
      await updateSubscription(sub, { items: [{ id: sub.items.data[0].id, price }] }, reqInfo)
    } else {
      await updateSubscription(sub, { cancel_at_period_end: action === 'cancel' ? 'true' : 'false' }, reqInfo)
    }
    redirect(ctx.res, 303, `/portal/${id}`)
  }

  // --- server ---------------------------------------------------------------

  function authError(ctx: FakeRequest): StripeApiError | undefined {
    const key = bearerToken(ctx.headers) ?? basicCredentials(ctx.headers)?.user
    if (!key) {
      return new StripeApiError(
        401,
        'invalid_request_error',
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      )
    }
    const masked =
      key.length > 8 ? `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` : key
    if (!/^(sk|rk)_(test|live)_/.test(key) || (opts.secretKey !== undefined && key !== opts.secretKey)) {
      return new StripeApiError(401, 'invalid_request_error', `Invalid API Key provided: ${masked}`, 'api_key_invalid')
    }
    return undefined
  }

  async function handleApi(ctx: FakeRequest): Promise<void> {
    const requestId = randomAlnum('req_', 14)
    const headers: Record<string, string> = {
      'request-id': requestId,
      'stripe-version': str(ctx.headers['stripe-version']) ?? STRIPE_EVENT_API_VERSION,
      'access-control-allow-origin': '*',
    }
    if (hanging) {
      await new Promise<void>((resolve) => ctx.res.on('close', () => resolve()))
      return
    }
    const auth = authError(ctx)
    if (auth) {
      sendJson(ctx.res, auth.status, auth.body(), { ...headers, 'www-authenticate': 'Bearer realm="Stripe"' })
      return
    }
    const idemKey = ctx.method === 'POST' ? (str(ctx.headers['idempotency-key']) ?? null) : null
    if (idemKey) {
      const stored = idempotency.get(idemKey)
      if (stored) {
        if (stored.rawBody !== ctx.rawBody || stored.path !== ctx.path) {
          const err = new StripeApiError(
            400,
            'idempotency_error',
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`,
          )
          sendJson(ctx.res, 400, err.body(), headers)
          return
        }
        sendJson(ctx.res, stored.status, stored.body, {
          ...headers,
          'request-id': stored.requestId,
          'idempotency-key': idemKey,
          'idempotent-replayed': 'true',
        })
        return
      }
    }
    let result: ApiResult
    try {
      result = await api(ctx, requestId, idemKey)
    } catch (err) {
      if (err instanceof StripeApiError) {
        sendJson(ctx.res, err.status, err.body(), headers)
        return
      }
      throw err
    }
    if (idemKey) {
      idempotency.set(idemKey, {
        rawBody: ctx.rawBody,
        path: ctx.path,
        status: result.status,
        body: result.body,
        requestId,
      })
      headers['idempotency-key'] = idemKey
    }
    sendJson(ctx.res, result.status, result.body, headers)
  }

  async function control(ctx: FakeRequest, sub: string): Promise<boolean> {
    const body = isRecord(ctx.body) ? ctx.body : {}
    const wrap = async (fn: () => Promise<unknown>): Promise<boolean> => {
      try {
        sendJson(ctx.res, 200, await fn())
      } catch (err) {
        if (err instanceof StripeApiError) sendJson(ctx.res, err.status, err.body())
        else throw err
      }
      return true
    }
    if (sub === 'webhook' && ctx.method === 'POST') {
      const url = str(body.url)
      webhook = url ? { url, secret: str(body.secret) ?? webhook?.secret ?? 'whsec_fake_local_secret' } : null
      sendJson(ctx.res, 200, { ok: true, webhook })
      return true
    }
    if (sub === 'webhook' && ctx.method === 'GET') {
      sendJson(ctx.res, 200, { webhook })
      return true
    }
    if (sub === 'hang' && ctx.method === 'POST') {
      hanging = body.on !== false
      sendJson(ctx.res, 200, { ok: true, hanging })
      return true
    }
    let m = /^subscriptions\/([^/]+)\/(renew|payment_failed|give_up)$/.exec(sub)
    if (m && ctx.method === 'POST') {
      const [, id, action] = m
      return wrap(() =>
        action === 'renew' ? renewSubscription(id) : action === 'give_up' ? giveUp(id) : failPayment(id),
      )
    }
    m = /^checkout\/([^/]+)\/complete$/.exec(sub)
    if (m && ctx.method === 'POST') {
      const id = m[1]
      return wrap(() => completeCheckout(id, { email: str(body.email), name: str(body.name) }))
    }
    if (sub === 'send-event' && ctx.method === 'POST') {
      const type = str(body.type)
      if (!type || !isRecord(body.object)) {
        sendJson(ctx.res, 400, { error: 'send-event needs { type: string, object: {...} }' })
        return true
      }
      const prev = isRecord(body.previous_attributes) ? body.previous_attributes : undefined
      return wrap(() => emit(type, body.object, prev))
    }
    if (sub === 'events' && ctx.method === 'GET') {
      sendJson(ctx.res, 200, {
        events: events.map((e) => ({
          id: e.id,
          type: e.type,
          created: e.created,
          deliveries: e.deliveries,
          event: JSON.parse(e.payload) as unknown,
        })),
      })
      return true
    }
    m = /^resend\/([^/]+)$/.exec(sub)
    if (m && ctx.method === 'POST') {
      const ev = events.find((e) => e.id === m?.[1])
      if (!ev) {
        sendJson(ctx.res, 404, { error: `no such event ${m[1]}` })
        return true
      }
      return wrap(() => deliver(ev))
    }
    if (sub === 'objects' && ctx.method === 'GET') {
      sendJson(ctx.res, 200, {
        customers: [...customers.values()],
        checkout_sessions: [...sessions.values()].map(publicSession),
        subscriptions: [...subscriptions.values()],
        invoices: [...invoices.values()],
        invoice_payments: [...invoicePayments.values()],
        refunds: [...refunds.values()],
        prices: [...prices.values()],
      })
      return true
    }
    return false
  }

  const handle = await startFakeServer(
    {
      name: 'stripe',
      onReset: () => {
        seed()
      },
      defaultErrorBody: (status) =>
        new StripeApiError(
          status,
          status === 429 ? 'invalid_request_error' : status >= 500 ? 'api_error' : 'invalid_request_error',
          status === 429
            ? 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.'
            : status >= 500
              ? 'An unknown error occurred'
              : 'Invalid request',
          status === 429 ? 'rate_limit' : undefined,
        ).body(),
      baseHeaders: (ctx): Record<string, string> =>
        ctx.path.startsWith('/v1/') ? { 'request-id': randomAlnum('req_', 14) } : {},
      control,
      handler: async (ctx) => {
        if (ctx.path.startsWith('/v1/')) return handleApi(ctx)
        let m = /^\/checkout\/([^/]+)$/.exec(ctx.path)
        if (m && ctx.method === 'GET') return checkoutPage(ctx, m[1])
        m = /^\/checkout\/([^/]+)\/pay$/.exec(ctx.path)
        if (m && ctx.method === 'POST') return payPage(ctx, m[1])
        m = /^\/portal\/([^/]+)$/.exec(ctx.path)
        if (m && ctx.method === 'GET') return portalPage(ctx, m[1])
        m = /^\/portal\/([^/]+)\/subscriptions\/([^/]+)\/(cancel|renew|switch)$/.exec(ctx.path)
        if (m && ctx.method === 'POST') return portalAction(ctx, m[1], m[2], m[3])
        sendHtml(ctx.res, 404, pageShell('Not found', '<h1>Not found</h1>'))
      },
    },
    opts,
  )

  const { server: _server, ...rest } = handle
  return {
    ...rest,
    setWebhook: (url, secret) => {
      webhook = url ? { url, secret: secret ?? webhook?.secret ?? 'whsec_fake_local_secret' } : null
    },
    completeCheckout,
    renewSubscription,
    failPayment,
    sendEvent: (type, object, prev) => emit(type, object, prev),
    resendEvent: async (eventId) => {
      const ev = events.find((e) => e.id === eventId)
      if (!ev) throw new Error(`no such event ${eventId}`)
      return deliver(ev)
    },
    events: () => events.map((e) => ({ ...e, deliveries: [...e.deliveries] })),
  }
}
