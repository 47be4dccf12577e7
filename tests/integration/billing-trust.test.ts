import { eq } from 'drizzle-orm'
import Stripe from 'stripe'
import { afterEach, describe, expect, it } from 'vitest'
import { QUOTA_MESSAGES } from '#app/features/billing/plans'
import { db, schema } from '#app/platform/db/client.server'
import { consumeQuota, quotaRefusal } from '#app/features/billing/quota.server'
import { smtpMessages, stripeControl } from '#tests/fakes/client'
import { api, uniqueIp, createTestUser, type TestUser } from '#tests/setup/app'
import { startWeb } from '#tests/setup/processes'

/**
 * Issue 19: billing a founder can trust. Against the Stripe fake; events sent by the tests are signed with the
 * official `stripe` package.
 */
const stripeFake = stripeControl()
const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? 'sk_test_unset', {
  host: new URL(stripeFake.url).hostname,
  port: Number(new URL(stripeFake.url).port),
  protocol: 'http',
})

afterEach(async () => {
  await stripeFake.hang(false)
  await stripeFake.setWebhook(`${process.env.APP_URL}/api/stripe/webhook`)
})

/** One failed answer from Stripe's API that the SDK does not retry. */
const stripeDown = { status: 500, times: 1, headers: { 'stripe-should-retry': 'false' } }

async function row(userId: string) {
  const [r] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId))
  return r!
}

/** POSTs a signed event (official package) to our webhook endpoint. */
async function postEvent(type: string, object: Record<string, unknown>, id = `evt_test_${crypto.randomUUID()}`) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    api_version: '2025-03-31.basil',
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  })
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: process.env.STRIPE_WEBHOOK_SECRET! })
  const started = Date.now()
  const res = await fetch(`${process.env.APP_URL}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, ms: Date.now() - started }
}

async function checkout(user: TestUser, priceId: string) {
  const res = await api('/api/create-checkout-session', { method: 'POST', json: { priceId }, as: user })
  expect(res.status).toBe(200)
  return String(res.body.sessionId)
}

async function subscribe(user: TestUser, priceId = 'price_monthly') {
  const sessionId = await checkout(user, priceId)
  const { session, deliveries } = await stripeFake.completeCheckout(sessionId)
  expect(deliveries.every((d) => d.status === 200)).toBe(true)
  return { sessionId, subscriptionId: String(session.subscription) }
}

function search(user: TestUser) {
  return api('/api/search', {
    method: 'POST',
    json: {
      query: 'billing trust',
      countryCode: '2840',
      languageCode: '1000',
      countryName: 'United States',
      languageName: 'English',
    },
    as: user,
  })
}

describe('billing trust', () => {
  it('reuses the open checkout for the same plan and expires the other open ones', async () => {
    const user = await createTestUser()
    const first = await checkout(user, 'price_monthly')
    expect(await checkout(user, 'price_monthly')).toBe(first)
    const yearly = await checkout(user, 'price_yearly')
    expect(yearly).not.toBe(first)
    const sessions = (await stripeFake.objects()).checkout_sessions
    expect(sessions.find((s) => s.id === first)?.status).toBe('expired')
    expect(sessions.find((s) => s.id === yearly)?.status).toBe('open')
    // The expired one can no longer be paid.
    await expect(stripeFake.completeCheckout(first)).rejects.toThrow(/no longer active/)

    // Paying the yearly one; a subscriber is sent to the portal instead of a second checkout.
    await stripeFake.completeCheckout(yearly)
    expect(await row(user.id)).toMatchObject({ status: 'active', plan: 'yearly', lastCheckoutSessionId: yearly })
    const again = await api('/api/create-checkout-session', {
      method: 'POST',
      json: { priceId: 'price_monthly' },
      as: user,
    })
    expect(again.status).toBe(409)
    expect(again.body.message).toMatch(/Manage Payment/)
  })

  it('lets a subscriber change plan in the Customer Portal, keeping one subscription', async () => {
    const user = await createTestUser()
    const { subscriptionId } = await subscribe(user)
    const portal = await api('/api/customer-portal', { as: user })
    const portalUrl = String(portal.body.url)
    const page = await fetch(portalUrl).then((r) => r.text())
    expect(page).toContain('Switch to $499.90')
    const switched = await fetch(`${portalUrl}/subscriptions/${subscriptionId}/switch`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ price: 'price_yearly' }),
      redirect: 'manual',
    })
    expect(switched.status).toBe(303)
    expect(await row(user.id)).toMatchObject({
      status: 'active',
      plan: 'yearly',
      stripeSubscriptionId: subscriptionId,
      amountCents: 49990,
      interval: 'year',
    })
    const { stripeCustomerId } = await row(user.id)
    const live = (await stripeFake.objects()).subscriptions.filter(
      (s) => s.customer === stripeCustomerId && s.status === 'active',
    )
    expect(live).toHaveLength(1)
  })

  it('two checkouts paid before their webhooks: one live subscription, the newer refunded in full, one e-mail', async () => {
    const user = await createTestUser()
    const first = await checkout(user, 'price_monthly')
    const { stripeCustomerId } = await row(user.id)
    // A second tab opened at the same moment (both created before either could expire the other).
    const second = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: stripeCustomerId!,
      client_reference_id: user.id,
      metadata: { userId: user.id, plan: 'quarterly' },
      subscription_data: { metadata: { userId: user.id, plan: 'quarterly' } },
      line_items: [{ price: 'price_quarterly', quantity: 1 }],
      success_url: `${process.env.APP_URL}/checkout-success?session_id={CHECKOUT_SESSION_ID}`,
    })
    await stripeFake.setWebhook(null)
    const a = await stripeFake.completeCheckout(first)
    await new Promise((r) => setTimeout(r, 1100)) // the second subscription is created a second later
    const b = await stripeFake.completeCheckout(second.id)
    await stripeFake.setWebhook(`${process.env.APP_URL}/api/stripe/webhook`)
    const kept = String(a.session.subscription)
    const duplicate = String(b.session.subscription)

    // Stripe delivers in any order: the second checkout's events first.
    for (const d of [...b.deliveries, ...a.deliveries]) {
      const res = await stripeFake.resend(d.eventId)
      expect(res.status).toBe(200)
    }
    const objects = await stripeFake.objects()
    const subs = objects.subscriptions.filter((s) => s.customer === stripeCustomerId)
    expect(subs.find((s) => s.id === kept)?.status).toBe('active')
    expect(subs.find((s) => s.id === duplicate)?.status).toBe('canceled')
    const refunds = objects.refunds.filter((r) => (r.metadata as Record<string, string>).subscription === duplicate)
    expect(refunds).toHaveLength(1)
    expect(refunds[0]).toMatchObject({ amount: 12990, reason: 'duplicate', status: 'succeeded' })
    expect(await row(user.id)).toMatchObject({ status: 'active', stripeSubscriptionId: kept, plan: 'monthly' })

    // Redelivering everything changes nothing and refunds nothing more.
    for (const d of [...a.deliveries, ...b.deliveries]) await stripeFake.resend(d.eventId)
    expect(
      (await stripeFake.objects()).refunds.filter((r) => r.payment_intent === refunds[0]!.payment_intent),
    ).toHaveLength(1)
    const mails = (await smtpMessages(user.email)).filter((m) => m.subject.includes('refunded a second'))
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text).toContain('$129.90')
  })

  it('keeps the site answering while Stripe hangs and webhooks arrive; they fail fast and apply once Stripe is back', async () => {
    const user = await createTestUser()
    const { subscriptionId } = await subscribe(user)
    const { stripeCustomerId } = await row(user.id)
    const others = await Promise.all([createTestUser(), createTestUser(), createTestUser()])
    await stripeFake.hang(true)
    const object = {
      id: subscriptionId,
      object: 'subscription',
      customer: stripeCustomerId,
      metadata: { userId: user.id },
    }
    const webhooks = Array.from({ length: 12 }, () => postEvent('customer.subscription.updated', object))
    await new Promise((r) => setTimeout(r, 500))
    for (const other of others) {
      const started = Date.now()
      const res = await api('/api/login', {
        method: 'POST',
        json: { email: other.email, password: other.password },
        headers: { 'X-Forwarded-For': uniqueIp() },
      })
      expect(res.status).toBe(200)
      expect(Date.now() - started).toBeLessThan(2000)
      const health = await api('/healthz')
      expect(health.status).toBe(200)
    }
    const pricing = await api('/pricing', { as: others[0], auth: 'cookie' })
    expect(pricing.status).toBe(200)
    const results = await Promise.all(webhooks)
    for (const r of results) {
      expect(r.status).toBe(503)
      expect(r.ms).toBeLessThan(12_000)
    }
    // A checkout click answers within the page budget with a message: Stripe is away, so 503 with Retry-After.
    const started = Date.now()
    const click = await api('/pricing', {
      method: 'POST',
      body: new URLSearchParams({ intent: 'checkout', plan: 'monthly' }),
      as: others[1],
      auth: 'cookie',
    })
    expect(click.status).toBe(503)
    expect(click.headers.get('retry-after')).toBe('30')
    expect(click.text).toContain('We could not start the checkout. Please try again.')
    expect(Date.now() - started).toBeLessThan(12_000)

    await stripeFake.hang(false)
    const retried = await postEvent('customer.subscription.updated', object)
    expect(retried.status).toBe(200)
    expect(await row(user.id)).toMatchObject({ status: 'active', stripeSubscriptionId: subscriptionId })
  })

  it('acknowledges well-signed events that are not ours and writes nothing', async () => {
    const before = await db.select({ id: schema.subscriptions.userId }).from(schema.subscriptions)
    const foreign = await postEvent('checkout.session.completed', {
      id: 'cs_test_payment_link',
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      client_reference_id: 'order-1234',
      customer: 'cus_someone_else',
      subscription: 'sub_someone_else',
      metadata: {},
    })
    expect(foreign.status).toBe(200)
    expect(foreign.body).toMatchObject({ received: true, ignored: true })
    const unknownUser = await postEvent('customer.subscription.updated', {
      id: 'sub_other_integration',
      object: 'subscription',
      customer: 'cus_other_integration',
      metadata: { userId: '00000000-0000-4000-8000-000000000000' },
    })
    expect(unknownUser.status).toBe(200)
    const invoice = await postEvent('invoice.paid', {
      id: 'in_other',
      object: 'invoice',
      customer: 'cus_other',
      parent: { subscription_details: { subscription: 'sub_other', metadata: { userId: "1' or '1'='1" } } },
    })
    expect(invoice.status).toBe(200)
    const after = await db.select({ id: schema.subscriptions.userId }).from(schema.subscriptions)
    expect(after.length).toBe(before.length)
  })

  it('says it is confirming the payment while Stripe cannot confirm the session, then succeeds', async () => {
    const user = await createTestUser()
    const sessionId = await checkout(user, 'price_monthly')
    const page = (check?: number) =>
      api(`/checkout-success?session_id=${sessionId}${check ? `&check=${check}` : ''}`, { as: user, auth: 'cookie' })

    // Not paid yet: neutral, checks again by itself (meta refresh).
    const open = await page()
    expect(open.status).toBe(200)
    expect(open.text).toContain('We are confirming your payment…')
    expect(open.text).not.toContain('Subscription Successful!')
    expect(open.text).toMatch(
      /http-equiv="refresh" content="5;url=\/checkout-success\?session_id=cs_test_\w+&amp;check=1"/,
    )

    // Paid, but Stripe is down and the webhook has not arrived: still neutral.
    await stripeFake.setWebhook(null)
    await stripeFake.completeCheckout(sessionId)
    await stripeFake.enqueue({ ...stripeDown, path: `/v1/checkout/sessions/${sessionId}` })
    const down = await page(3)
    expect(down.text).toContain('We are confirming your payment…')
    expect(down.text).toContain('check=4')

    // The webhook arrives (Stripe's API still failing for the session): confirmed from our own record.
    await stripeFake.setWebhook(`${process.env.APP_URL}/api/stripe/webhook`)
    for (const e of await stripeFake.events()) {
      if (JSON.stringify(e.event.data.object).includes(sessionId) && e.type === 'checkout.session.completed')
        expect((await stripeFake.resend(e.id)).status).toBe(200)
    }
    await stripeFake.enqueue({ ...stripeDown, path: `/v1/checkout/sessions/${sessionId}` })
    const confirmed = await page(4)
    expect(confirmed.text).toContain('Subscription Successful!')

    // After the last check the page stops refreshing and says what happens next.
    const other = await createTestUser()
    const otherSession = await checkout(other, 'price_monthly')
    const last = await api(`/checkout-success?session_id=${otherSession}&check=36`, { as: other, auth: 'cookie' })
    expect(last.text).toContain('Stripe has not confirmed your payment yet')
    expect(last.text).not.toContain('http-equiv="refresh"')

    // Someone else's session or a made-up id ends at once with a page that says so and links to the plans.
    const foreign = await api(`/checkout-success?session_id=${sessionId}`, { as: other, auth: 'cookie' })
    expect(foreign.status).toBe(404)
    expect(foreign.text).toContain('We could not find that checkout')
    expect(foreign.text).not.toContain('Subscription Successful!')
    const madeUp = await api(`/checkout-success?session_id=${encodeURIComponent("x' or 1=1")}`, {
      as: other,
      auth: 'cookie',
    })
    expect(madeUp.status).toBe(404)
    expect(madeUp.text).toContain('href="/pricing"')
  })

  it('refuses over quota with the message that fits the plan, on the API and the profile', async () => {
    const trial = await createTestUser()
    await db
      .update(schema.subscriptions)
      .set({ keywordSearchCount: 10 })
      .where(eq(schema.subscriptions.userId, trial.id))
    const t = await search(trial)
    expect(t.status).toBe(402)
    expect(t.body.message).toBe(QUOTA_MESSAGES.keywordSearches)

    const premium = await createTestUser()
    const { subscriptionId } = await subscribe(premium)
    await db
      .update(schema.subscriptions)
      .set({ keywordSearchCount: 500, blogPostCount: 100 })
      .where(eq(schema.subscriptions.userId, premium.id))
    const p = await search(premium)
    expect(p.status).toBe(402)
    expect(p.body.message).toMatch(
      /^You have used this month's 500 keyword searches\. They renew on \w{3} \d{1,2}, \d{4}\.$/,
    )
    expect(await quotaRefusal(premium.id, 'blogPosts')).toEqual({
      message: expect.stringMatching(
        /^You have used this month's 100 blog posts\. They renew on \w{3} \d{1,2}, \d{4}\.$/,
      ),
      upgrade: false,
    })
    expect(await quotaRefusal(trial.id, 'blogPosts')).toEqual({ message: QUOTA_MESSAGES.blogPosts, upgrade: true })
    const profile = await api('/profile', { as: premium, auth: 'cookie' })
    expect(profile.text).toMatch(/You have used this month(&#x27;|')s 500 keyword searches\. They renew on/)
    expect(profile.text).not.toContain('reached your trial limit')

    // Stripe gives up on the payments: a former subscriber is told how to subscribe again.
    await stripeFake.paymentFailed(subscriptionId)
    await stripeFake.giveUp(subscriptionId)
    expect(await row(premium.id)).toMatchObject({ status: 'canceled', endedReason: 'payment_failed' })
    expect(await consumeQuota(premium.id, 'keywordSearches')).toEqual({ ok: false })
    const c = await search(premium)
    expect(c.status).toBe(402)
    expect(c.body.message).toBe(
      'Your Premium subscription ended because the payment could not be collected. Your keywords and posts are kept and readable. Subscribe again on the pricing page to search for keywords.',
    )
  })

  it('shows a failed payment on every signed-in page, e-mails once, and returns to the free plan when Stripe gives up', async () => {
    const user = await createTestUser()
    const { subscriptionId } = await subscribe(user)
    const banner = 'data-testid="past-due-banner"'
    expect((await api('/profile', { as: user, auth: 'cookie' })).text).not.toContain(banner)

    await stripeFake.paymentFailed(subscriptionId)
    await stripeFake.paymentFailed(subscriptionId) // Stripe's retry fails too
    for (const path of ['/profile', '/keywords', '/blogposts', '/pricing']) {
      const page = await api(path, { as: user, auth: 'cookie' })
      expect(page.status, path).toBe(200)
      expect(page.text, path).toContain(banner)
      expect(page.text, path).toContain('Update payment method')
    }
    const mails = (await smtpMessages(user.email)).filter((m) => m.subject === 'Your Rankwell payment failed')
    expect(mails).toHaveLength(1)
    const portal = await api('/billing/portal', { method: 'POST', as: user, auth: 'cookie' })
    expect(portal.headers.get('location')).toMatch(new RegExp(`^${stripeFake.url}/portal/bps_`))

    await stripeFake.giveUp(subscriptionId)
    expect(await row(user.id)).toMatchObject({ status: 'canceled', paymentFailedNotifiedAt: null })
    const profile = await api('/profile', { as: user, auth: 'cookie' })
    expect(profile.text).not.toContain(banner)
    expect(profile.text).toContain('ended because the payment could not be collected')
    expect(profile.text).toContain('Your keywords and posts are kept and readable.')
    const library = await api('/api/blogposts', { as: user })
    expect(library.status).toBe(200)
  })

  it('says payments are unavailable and disables the buttons when Stripe is not configured', async () => {
    const web = await startWeb({ STRIPE_SECRET_KEY: '' })
    try {
      const user = await createTestUser()
      const res = await fetch(`${web.url}/pricing`, { headers: { Cookie: user.cookie } })
      const html = await res.text()
      expect(res.status).toBe(200)
      expect(html).toContain('Payments are not available right now')
      expect(html.match(/<button[^>]*disabled[^>]*>Get Started<\/button>/g)).toHaveLength(3)
      expect(html).not.toContain('name="intent"')
      expect(html).toContain('Payments are unavailable right now.')
    } finally {
      await web.stop()
    }
  })

  it('tells trial users that billing starts today, and gives API clients the billing interval', async () => {
    const user = await createTestUser()
    const pricing = await api('/pricing', { as: user, auth: 'cookie' })
    expect(pricing.text).toContain('Billing starts today: subscribing ends your free trial')
    const sessionId = await checkout(user, 'price_quarterly')
    const session = await stripe.checkout.sessions.retrieve(sessionId)
    expect(session.id).toBe(sessionId)
    const created = (await stripeFake.requests({ method: 'POST', path: '/v1/checkout/sessions' })).find(
      (r) => JSON.stringify(r.body).includes(user.id) && JSON.stringify(r.body).includes('price_quarterly'),
    )
    expect(JSON.stringify(created?.body)).toContain('Billing starts today')

    await stripeFake.completeCheckout(sessionId)
    const me = await api('/api/user', { as: user })
    expect(me.body).toMatchObject({
      subscriptionAmount: 129.9,
      billingInterval: { interval: 'month', intervalCount: 3, label: 'every 3 months' },
    })
    const after = await api('/pricing', { as: user, auth: 'cookie' })
    expect(after.text).not.toContain('Billing starts today')
    expect(after.text).toContain('To change plan, use Manage Payment on your profile.')
  })
})
