import { eq, inArray } from 'drizzle-orm'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { monthlyCostCents } from '#app/features/billing/billing'
import { QUOTA_MESSAGES } from '#app/features/billing/plans'
import { canUseAutopilot } from '#app/features/billing/billing.server'
import { db, schema } from '#app/platform/db/client.server'
import { consumeQuota, getUsageSummary } from '#app/features/billing/quota.server'
import { stripeControl } from '#tests/fakes/client'
import { api, createTestUser, type TestUser } from '#tests/setup/app'
import { cookieName } from '#app/platform/http/cookies.server'

const stripeFake = stripeControl()
const webhookSecret = () => process.env.STRIPE_WEBHOOK_SECRET!

async function row(userId: string) {
  const [r] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId))
  return r!
}

async function consume(userId: string, kind: 'keywordSearches' | 'blogPosts', times: number) {
  for (let i = 0; i < times; i++) expect((await consumeQuota(userId, kind)).ok).toBe(true)
}

/** Starts Checkout through the JSON API and pays it on the fake; every event must be accepted by our webhook. */
async function subscribe(user: TestUser, priceId = 'price_monthly') {
  const res = await api('/api/create-checkout-session', { method: 'POST', json: { priceId }, as: user })
  expect(res.status).toBe(200)
  const sessionId = String(res.body.sessionId)
  const { session, deliveries } = await stripeFake.completeCheckout(sessionId)
  expect(deliveries.map((d) => [d.type, d.status])).toEqual([
    ['checkout.session.completed', 200],
    ['customer.subscription.created', 200],
    ['invoice.paid', 200],
  ])
  return { sessionId, subscriptionId: String(session.subscription) }
}

/** A keyword search through the keywords API: over quota it answers with the upgrade message. */
function search(user: TestUser) {
  return api('/api/search', {
    method: 'POST',
    json: {
      query: 'billing quota check',
      countryCode: '2840',
      languageCode: '1000',
      countryName: 'United States',
      languageName: 'English',
    },
    as: user,
  })
}

async function eventsOf(subscriptionId: string) {
  const all = await stripeFake.events()
  return all.filter((e) => JSON.stringify(e.event.data.object).includes(subscriptionId))
}

describe('billing', () => {
  it('gives a trial of 10 keyword searches and 5 posts in total, then refuses with the upgrade message', async () => {
    const user = await createTestUser()
    const start = await getUsageSummary(user.id)
    expect(start).toMatchObject({
      status: 'trial',
      limits: { keywordSearches: 10, blogPosts: 5 },
      reachedQuota: false,
      trialExpired: false,
    })
    const days = (new Date(start.trialEndsAt).getTime() - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(6.9)
    expect(days).toBeLessThanOrEqual(7)
    expect(await canUseAutopilot(user.id)).toBe(true)

    await consume(user.id, 'keywordSearches', 10)
    expect(await consumeQuota(user.id, 'keywordSearches')).toEqual({ ok: false })
    await consume(user.id, 'blogPosts', 5)
    expect(await consumeQuota(user.id, 'blogPosts')).toEqual({ ok: false })
    expect(await row(user.id)).toMatchObject({ keywordSearchCount: 10, blogPostCount: 5 })
    expect(await getUsageSummary(user.id)).toMatchObject({ reachedQuota: true })
    const refused = await search(user)
    expect(refused.status).toBe(402)
    expect(refused.body).toMatchObject({ redirect_to_profile: true, message: QUOTA_MESSAGES.keywordSearches })
  })

  it('ends the trial after 7 days: nothing more to consume and no Auto Pilot, but checkout still works', async () => {
    const user = await createTestUser()
    await consume(user.id, 'keywordSearches', 2)
    await db
      .update(schema.subscriptions)
      .set({ trialEndsAt: new Date(Date.now() - 60_000) })
      .where(eq(schema.subscriptions.userId, user.id))
    expect(await consumeQuota(user.id, 'keywordSearches')).toEqual({ ok: false })
    expect(await consumeQuota(user.id, 'blogPosts')).toEqual({ ok: false })
    expect(await canUseAutopilot(user.id)).toBe(false)
    expect(await getUsageSummary(user.id)).toMatchObject({
      status: 'trial',
      trialExpired: true,
      reachedQuota: true,
      keywordSearchCount: 2,
    })
    const refused = await search(user)
    expect(refused.status).toBe(402)
    expect(refused.body).toMatchObject({ redirect_to_profile: true, message: QUOTA_MESSAGES.keywordSearches })
    expect((await row(user.id)).keywordSearchCount).toBe(2)

    const res = await api('/pricing', {
      method: 'POST',
      body: new URLSearchParams({ intent: 'checkout', plan: 'monthly' }),
      as: user,
      auth: 'cookie',
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(new RegExp(`^${stripeFake.url}/checkout/cs_test_`))
  })

  it('shows the pricing page and sends signed-out visitors to sign in and back', async () => {
    const page = await api('/pricing')
    expect(page.status).toBe(200)
    expect(page.text).toContain('Choose Your Growth Plan')
    for (const text of [
      'Premium Monthly',
      '$49.90',
      'Premium Every 3 Months',
      '$129.90',
      'Premium Yearly',
      '$499.90',
      'Auto Pilot mode',
    ]) {
      expect(page.text).toContain(text)
    }
    expect(page.text.match(/Get Started/g)?.length).toBe(3)
    expect(page.text).toContain('href="/signin?redirectTo=%2Fpricing"')
    expect(page.text).not.toMatch(/unlimited/i)

    const post = await api('/pricing', {
      method: 'POST',
      body: new URLSearchParams({ intent: 'checkout', plan: 'monthly' }),
    })
    expect(post.status).toBe(303)
    expect(post.headers.get('location')).toBe('/signin?redirectTo=%2Fpricing')
  })

  it('starts Checkout from the pricing form with one Stripe customer per user, reused', async () => {
    const user = await createTestUser()
    const form = (plan: string) => ({
      method: 'POST',
      body: new URLSearchParams({ intent: 'checkout', plan }),
      as: user,
      auth: 'cookie' as const,
    })
    const first = await api('/pricing', form('quarterly'))
    expect(first.status).toBe(303)
    const second = await api('/pricing', form('yearly'))
    expect(second.status).toBe(303)
    const ids = [first, second].map(
      (r) => /\/checkout\/(cs_test_[A-Za-z0-9]+)/.exec(r.headers.get('location') ?? '')?.[1],
    )
    const { checkout_sessions: sessions, customers } = await stripeFake.objects()
    const mine = ids.map((id) => sessions.find((s) => s.id === id)!)
    const { stripeCustomerId } = await row(user.id)
    expect(stripeCustomerId).toMatch(/^cus_/)
    expect(customers.filter((c) => (c.metadata as Record<string, string>).userId === user.id)).toHaveLength(1)
    for (const s of mine) {
      expect(s).toMatchObject({
        mode: 'subscription',
        customer: stripeCustomerId,
        client_reference_id: user.id,
        metadata: { userId: user.id },
      })
      expect(s.success_url).toBe(`${process.env.APP_URL}/checkout-success?session_id={CHECKOUT_SESSION_ID}`)
      expect(s.cancel_url).toBe(`${process.env.APP_URL}/pricing`)
    }
    const items = await Promise.all(
      ids.map(
        async (id) =>
          (await fetch(`${stripeFake.url}/v1/checkout/sessions/${id}/line_items`, {
            headers: { Authorization: `Bearer ${process.env.STRIPE_SECRET_KEY}` },
          }).then((r) => r.json())) as { data: Array<{ price: { id: string } }> },
      ),
    )
    expect(items.map((i) => i.data[0]!.price.id)).toEqual(['price_quarterly', 'price_yearly'])

    const bad = await api('/pricing', form('lifetime'))
    expect(bad.status).toBe(400)
  })

  it('validates the JSON checkout API: unknown prices get 400, no token gets 401', async () => {
    const user = await createTestUser()
    const unknown = await api('/api/create-checkout-session', {
      method: 'POST',
      json: { priceId: 'price_free_lunch' },
      as: user,
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toMatch(/unknown price/i)
    const missing = await api('/api/create-checkout-session', { method: 'POST', json: {}, as: user })
    expect(missing.status).toBe(400)
    const anonymous = await api('/api/create-checkout-session', { method: 'POST', json: { priceId: 'price_monthly' } })
    expect(anonymous.status).toBe(401)
    const ok = await api('/api/create-checkout-session', {
      method: 'POST',
      json: { priceId: 'price_monthly' },
      as: user,
    })
    expect(ok.status).toBe(200)
    expect(ok.body.sessionId).toMatch(/^cs_test_/)
    expect(ok.body.url).toBe(`${stripeFake.url}/checkout/${ok.body.sessionId}`)
  })

  it('makes the user Premium when checkout completes: limits 500/100, price, interval and renewal date', async () => {
    const user = await createTestUser()
    await consume(user.id, 'keywordSearches', 3)
    await consume(user.id, 'blogPosts', 1)
    const { sessionId, subscriptionId } = await subscribe(user)

    const r = await row(user.id)
    expect(r).toMatchObject({
      status: 'active',
      plan: 'monthly',
      stripeSubscriptionId: subscriptionId,
      stripePriceId: 'price_monthly',
      amountCents: 4990,
      currency: 'usd',
      interval: 'month',
      intervalCount: 1,
      cancelAtPeriodEnd: false,
      keywordSearchCount: 0,
      blogPostCount: 0,
    })
    const days = (r.currentPeriodEnd!.getTime() - r.currentPeriodStart!.getTime()) / 86_400_000
    expect(days).toBeGreaterThanOrEqual(28)
    expect(days).toBeLessThanOrEqual(31)
    expect(r.usagePeriodStart.getTime()).toBe(r.currentPeriodStart!.getTime())
    expect(await getUsageSummary(user.id)).toMatchObject({
      limits: { keywordSearches: 500, blogPosts: 100 },
      reachedQuota: false,
    })
    expect(await canUseAutopilot(user.id)).toBe(true)
    await consume(user.id, 'keywordSearches', 11)

    const success = await api(`/checkout-success?session_id=${sessionId}`, { as: user, auth: 'cookie' })
    expect(success.status).toBe(200)
    expect(success.text).toContain('Subscription Successful!')
    expect(success.text).toContain('Your subscription is now active. Thank you for subscribing!')
    expect(success.text).toMatch(/<meta http-equiv="refresh" content="3;url=\/keywords"/)
    // The spec: no session id goes to /pricing. Issue 35: someone else's session ends at once with a page that
    // says so (never a silent redirect).
    const noSession = await api('/checkout-success', { as: user, auth: 'cookie' })
    expect([noSession.status, noSession.headers.get('location')]).toEqual([302, '/pricing'])
    const other = await createTestUser()
    const notYours = await api(`/checkout-success?session_id=${sessionId}`, { as: other, auth: 'cookie' })
    expect(notYours.status).toBe(404)
    expect(notYours.text).toContain('We could not find that checkout')
    expect((await row(other.id)).status).toBe('trial')
    const signedOut = await api(`/checkout-success?session_id=${sessionId}`)
    expect(signedOut.headers.get('location')).toMatch(/^\/signin\?redirectTo=/)
    // Coming back from Checkout applies nothing twice: usage of this period is kept.
    expect((await row(user.id)).keywordSearchCount).toBe(11)

    const again = await api('/api/create-checkout-session', {
      method: 'POST',
      json: { priceId: 'price_yearly' },
      as: user,
    })
    expect(again.status).toBe(409)
  })

  it('applies each event once, even when Stripe sends it again or out of order', async () => {
    const user = await createTestUser()
    const { subscriptionId } = await subscribe(user)
    await consume(user.id, 'keywordSearches', 2)
    const before = await row(user.id)
    const events = await eventsOf(subscriptionId)
    expect(events.map((e) => e.type)).toEqual([
      'checkout.session.completed',
      'customer.subscription.created',
      'invoice.paid',
    ])

    // The same events delivered again: acknowledged, skipped.
    for (const e of events) expect((await stripeFake.resend(e.id)).status).toBe(200)
    expect(await row(user.id)).toEqual(before)
    const stored = await db
      .select()
      .from(schema.stripeEvents)
      .where(
        inArray(
          schema.stripeEvents.id,
          events.map((e) => e.id),
        ),
      )
    expect(stored).toHaveLength(3)

    // Stale states arriving late as new events: Stripe's current state wins.
    const created = events[1]!.event.data.object
    const stale = { ...created, status: 'past_due' }
    expect((await stripeFake.sendEvent('customer.subscription.updated', stale, { status: 'active' })).status).toBe(200)
    expect(
      (await stripeFake.sendEvent('customer.subscription.deleted', { ...created, status: 'canceled' })).status,
    ).toBe(200)
    expect(await row(user.id)).toMatchObject({
      status: 'active',
      keywordSearchCount: 2,
      currentPeriodEnd: before.currentPeriodEnd,
    })

    // After a renewal, the first period's invoice arriving again (as a new event) does not reset usage again.
    await stripeFake.renew(subscriptionId)
    await consume(user.id, 'keywordSearches', 1)
    const renewed = await row(user.id)
    expect(renewed.keywordSearchCount).toBe(1)
    expect((await stripeFake.sendEvent('invoice.paid', events[2]!.event.data.object)).status).toBe(200)
    expect((await stripeFake.sendEvent('customer.subscription.created', created)).status).toBe(200)
    expect(await row(user.id)).toMatchObject({
      status: 'active',
      keywordSearchCount: 1,
      currentPeriodStart: renewed.currentPeriodStart,
    })
  })

  it('refuses a bad or stale signature and changes nothing', async () => {
    const user = await createTestUser()
    const { subscriptionId } = await subscribe(user)
    const before = await row(user.id)
    const created = (await eventsOf(subscriptionId)).find((e) => e.type === 'customer.subscription.created')!.event
    const event = {
      ...created,
      id: `evt_test_${Date.now()}`,
      type: 'customer.subscription.deleted',
      data: { object: { ...created.data.object, status: 'canceled' } },
    }
    const payload = JSON.stringify(event)
    const stripe = new Stripe(process.env.STRIPE_SECRET_KEY!)
    const send = (signature: string | null) =>
      api('/api/stripe/webhook', {
        method: 'POST',
        body: payload,
        headers: { 'Content-Type': 'application/json', ...(signature ? { 'Stripe-Signature': signature } : {}) },
      })

    const wrongSecret = await send(stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_ours' }))
    expect(wrongSecret.status).toBe(400)
    const stale = await send(
      stripe.webhooks.generateTestHeaderString({
        payload,
        secret: webhookSecret(),
        timestamp: Math.floor(Date.now() / 1000) - 3600,
      }),
    )
    expect(stale.status).toBe(400)
    const tampered = await api('/api/stripe/webhook', {
      method: 'POST',
      body: payload.replace('"canceled"', '"active"'),
      headers: {
        'Content-Type': 'application/json',
        'Stripe-Signature': stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret() }),
      },
    })
    expect(tampered.status).toBe(400)
    expect((await send(null)).status).toBe(400)
    expect(await db.select().from(schema.stripeEvents).where(eq(schema.stripeEvents.id, event.id))).toHaveLength(0)
    expect(await row(user.id)).toEqual(before)

    // Signed with the SDK's own test header helper and our secret: accepted, recorded once, and (as Stripe still
    // says the subscription is active) the forged 'canceled' copy changes nothing.
    const good = await send(stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret() }))
    expect(good.status).toBe(200)
    expect(await db.select().from(schema.stripeEvents).where(eq(schema.stripeEvents.id, event.id))).toHaveLength(1)
    expect((await row(user.id)).status).toBe('active')
  })

  it('resets usage at each renewal and moves the renewal date', async () => {
    const user = await createTestUser()
    const { subscriptionId } = await subscribe(user)
    await consume(user.id, 'keywordSearches', 4)
    await consume(user.id, 'blogPosts', 2)
    const before = await row(user.id)
    const { deliveries } = await stripeFake.renew(subscriptionId)
    expect(deliveries.every((d) => d.status === 200)).toBe(true)
    const after = await row(user.id)
    expect(after).toMatchObject({ status: 'active', keywordSearchCount: 0, blogPostCount: 0 })
    expect(after.currentPeriodStart!.getTime()).toBe(before.currentPeriodEnd!.getTime())
    expect(after.currentPeriodEnd!.getTime()).toBeGreaterThan(before.currentPeriodEnd!.getTime())
    expect(after.usagePeriodStart.getTime()).toBe(after.currentPeriodStart!.getTime())
    expect((await getUsageSummary(user.id)).renewalDate).toBe(after.currentPeriodEnd!.toISOString())
  })

  it('cancels at the end of the period: Premium until then, canceled after', async () => {
    const user = await createTestUser()
    const trialCancel = await api('/api/cancel-subscription', { method: 'POST', as: user })
    expect(trialCancel.status).toBe(400)
    expect(trialCancel.body.message).toBe('You have no active subscription to cancel.')

    const { subscriptionId } = await subscribe(user)
    const res = await api('/api/cancel-subscription', { method: 'POST', as: user })
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Subscription canceled successfully.')
    expect(await row(user.id)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true })
    const fakeSub = (await stripeFake.objects()).subscriptions.find((s) => s.id === subscriptionId)!
    expect(fakeSub.cancel_at_period_end).toBe(true)
    expect((await api('/api/cancel-subscription', { method: 'POST', as: user })).body.message).toMatch(
      /already set to cancel/,
    )
    await consume(user.id, 'keywordSearches', 1)

    await stripeFake.renew(subscriptionId) // the period ends: Stripe deletes the subscription
    expect(await row(user.id)).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: false })
    expect(await consumeQuota(user.id, 'keywordSearches')).toEqual({ ok: false })
    expect(await canUseAutopilot(user.id)).toBe(false)
    expect(await getUsageSummary(user.id)).toMatchObject({ status: 'canceled', reachedQuota: true })
  })

  it('cancels from the profile card with a form post, and reports Stripe failures', async () => {
    const user = await createTestUser()
    const { subscriptionId } = await subscribe(user)
    const confirm = await api('/billing/cancel', { as: user, auth: 'cookie' })
    expect(confirm.status).toBe(200)
    expect(confirm.text).toContain('Are you sure you want to cancel your subscription?')

    await stripeFake.enqueue({ status: 400, path: `/v1/subscriptions/${subscriptionId}`, times: 1 })
    const failed = await api('/billing/cancel', { method: 'POST', as: user, auth: 'cookie' })
    expect([failed.status, failed.headers.get('location')]).toEqual([303, '/profile'])
    expect((await row(user.id)).cancelAtPeriodEnd).toBe(false)
    expect(failed.headers.get('set-cookie')).toContain(`${cookieName('rw_toast')}=`)
    const retried = await api('/billing/cancel', { method: 'POST', as: user, auth: 'cookie' })
    expect([retried.status, retried.headers.get('location')]).toEqual([303, '/profile'])
    expect((await row(user.id)).cancelAtPeriodEnd).toBe(true)
  })

  it('cancels the Stripe subscription at once when a paying user deletes the account, and keeps it when Stripe fails', async () => {
    const user = await createTestUser()
    const { subscriptionId } = await subscribe(user)
    const cancels = () => stripeFake.requests({ method: 'DELETE', path: `/v1/subscriptions/${subscriptionId}` })
    const before = (await cancels()).length

    await stripeFake.enqueue({ status: 400, path: `/v1/subscriptions/${subscriptionId}`, times: 1 })
    const failed = await api('/api/user', { method: 'DELETE', as: user, json: { password: user.password } })
    expect(failed.status).toBe(502)
    expect(failed.body.message).toEqual(expect.any(String))
    expect((await row(user.id)).status).toBe('active')

    const ok = await api('/api/user', { method: 'DELETE', as: user, json: { password: user.password } })
    expect(ok.status).toBe(200)
    expect((await cancels()).length).toBeGreaterThan(before)
    const stripe = new Stripe(process.env.STRIPE_SECRET_KEY!, {
      host: new URL(stripeFake.url).hostname,
      port: Number(new URL(stripeFake.url).port),
      protocol: 'http',
    })
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('canceled')
    const [gone] = await db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(gone).toBeUndefined()
  })

  it('marks the subscription past due when a renewal payment fails, and active again once paid', async () => {
    const user = await createTestUser()
    const { subscriptionId } = await subscribe(user)
    await consume(user.id, 'keywordSearches', 5)
    const { deliveries } = await stripeFake.paymentFailed(subscriptionId)
    expect(deliveries.map((d) => [d.type, d.status])).toEqual([
      ['invoice.payment_failed', 200],
      ['customer.subscription.updated', 200],
    ])
    expect(await row(user.id)).toMatchObject({ status: 'past_due', keywordSearchCount: 5 })
    expect(await canUseAutopilot(user.id)).toBe(true)
    expect((await consumeQuota(user.id, 'keywordSearches')).ok).toBe(true)

    await stripeFake.renew(subscriptionId) // Stripe's retry succeeds: the new period starts for real
    expect(await row(user.id)).toMatchObject({ status: 'active', keywordSearchCount: 0 })
  })

  it('opens the customer portal for subscribers only', async () => {
    const trial = await createTestUser()
    const none = await api('/api/customer-portal', { as: trial })
    expect(none.status).toBe(400)

    const user = await createTestUser()
    await subscribe(user)
    const res = await api('/api/customer-portal', { as: user })
    expect(res.status).toBe(200)
    expect(String(res.body.url)).toMatch(new RegExp(`^${stripeFake.url}/portal/bps_`))
    const form = await api('/billing/portal', { method: 'POST', as: user, auth: 'cookie' })
    expect(form.status).toBe(303)
    expect(form.headers.get('location')).toMatch(new RegExp(`^${stripeFake.url}/portal/bps_`))

    await stripeFake.enqueue({ status: 400, path: '/v1/billing_portal/sessions', times: 1 })
    const failed = await api('/api/customer-portal', { as: user })
    expect(failed.status).toBe(502)
    expect(failed.body.message).toBe('Failed to access payment methods. Please try again.')
  })

  it('bills the quarterly and yearly plans per period and shows their cost per month', async () => {
    const quarterly = await createTestUser()
    await subscribe(quarterly, 'price_quarterly')
    const q = await getUsageSummary(quarterly.id)
    expect(q).toMatchObject({ plan: 'quarterly', amountCents: 12990, interval: 'month', intervalCount: 3 })
    expect(monthlyCostCents(q.amountCents!, q.interval, q.intervalCount!)).toBe(4330)

    const yearly = await createTestUser()
    await subscribe(yearly, 'price_yearly')
    const y = await getUsageSummary(yearly.id)
    expect(y).toMatchObject({ plan: 'yearly', amountCents: 49990, interval: 'year', intervalCount: 1 })
    expect(monthlyCostCents(y.amountCents!, y.interval, y.intervalCount!)).toBe(4166)
  })
})
