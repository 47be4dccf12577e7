import { expect, test, type Page } from '#tests/setup/playwright'
import { eq } from 'drizzle-orm'
import { formatShortDate } from '#app/features/billing/billing'
import { db, schema } from '#app/platform/db/client.server'
import { getUsageSummary } from '#app/features/billing/quota.server'
import { stripeControl } from '#tests/fakes/client'
import { api, createTestUser, type TestUser } from '#tests/setup/app'
import { ownClientIp, signedIn } from '#tests/setup/browser'

const stripeFake = stripeControl()

test.beforeEach(async ({ page }) => {
  // Every test is its own client as far as rate limits go.
  await ownClientIp(page)
})

const noJs = () => test.info().project.name === 'no-js'

async function subscription(userId: string) {
  const [row] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId))
  return row!
}

/** Subscribes through the JSON API and pays on the fake, without the browser (for tests about later states). */
async function subscribe(user: TestUser, priceId = 'price_monthly') {
  const res = await api('/api/create-checkout-session', { method: 'POST', json: { priceId }, as: user })
  expect(res.status).toBe(200)
  const { session } = await stripeFake.completeCheckout(String(res.body.sessionId))
  return String(session.subscription)
}

function card(page: Page) {
  return page.getByTestId('subscription-card')
}

test.describe('billing', () => {
  test('pricing signed out: Get Started goes to sign in and back to pricing @no-js', async ({ page }) => {
    const user = await createTestUser()
    await page.goto('/pricing')
    await expect(page.getByRole('heading', { level: 1, name: 'Choose Your Growth Plan' })).toBeVisible()
    for (const [title, price] of [
      ['Premium Monthly', '$49.90'],
      ['Premium Every 3 Months', '$129.90'],
      ['Premium Yearly', '$499.90'],
    ] as const) {
      const plan = page.getByRole('region', { name: title })
      await expect(plan).toContainText(price)
      await expect(plan).toContainText('Auto Pilot mode')
      await expect(plan.getByRole('link', { name: 'Get Started' })).toBeVisible()
    }
    await page.getByRole('region', { name: 'Premium Yearly' }).getByRole('link', { name: 'Get Started' }).click()
    await expect(page).toHaveURL(/\/signin\?redirectTo=%2Fpricing$/)
    await page.getByLabel('Email', { exact: true }).fill(user.email)
    await page.getByLabel('Password', { exact: true }).fill(user.password)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(page).toHaveURL(/\/pricing$/)
    await expect(
      page.getByRole('region', { name: 'Premium Yearly' }).getByRole('button', { name: 'Get Started' }),
    ).toBeVisible()
  })

  test('pricing signed in: Stripe Checkout, the success page, then keyword ideas and an active card @no-js', async ({
    page,
  }) => {
    const user = await signedIn(page)
    await page.goto('/pricing')
    await page
      .getByRole('region', { name: 'Premium Every 3 Months' })
      .getByRole('button', { name: 'Get Started' })
      .click()
    // Three Stripe calls (customer, open sessions, new session) before the redirect: slower on a loaded machine.
    await expect(page).toHaveURL(new RegExp(`^${stripeFake.url}/checkout/cs_test_`), { timeout: 20_000 })
    await expect(page.getByTestId('price')).toHaveText('$129.90')
    await page.getByRole('button', { name: 'Pay' }).click()

    await expect(page).toHaveURL(/\/checkout-success\?session_id=cs_test_/)
    await expect(page.getByRole('heading', { name: 'Subscription Successful!' })).toBeVisible()
    await expect(page.getByText('Your subscription is now active. Thank you for subscribing!')).toBeVisible()
    await expect(page).toHaveURL(/\/keywords$/, { timeout: 15_000 })

    const row = await subscription(user.id)
    expect(row).toMatchObject({ status: 'active', plan: 'quarterly', amountCents: 12990 })
    await page.goto('/profile')
    await expect(card(page).getByTestId('subscription-status')).toHaveText('Active')
    await expect(card(page).getByTestId('subscription-plan')).toHaveText('Premium Every 3 Months')
    await expect(card(page).getByTestId('usage-keyword-searches')).toHaveText('0/500')
    await expect(card(page).getByTestId('usage-blog-posts')).toHaveText('0/100')
    await expect(card(page).getByText('Monthly Cost')).toBeVisible()
    await expect(card(page).getByTestId('monthly-cost')).toHaveText('$43.30')
    await expect(card(page).getByTestId('renewal-date')).toHaveText(formatShortDate(row.currentPeriodEnd)!)
    // Billed every 3 months, but the allowance renews a month after the period starts.
    const { usageResetsAt } = await getUsageSummary(user.id)
    expect(new Date(usageResetsAt!).getTime()).toBeLessThan(row.currentPeriodEnd!.getTime())
    await expect(card(page).getByTestId('usage-resets')).toHaveText(
      `Your allowance renews monthly: usage resets on ${formatShortDate(usageResetsAt)}.`,
    )
    await expect(card(page).getByRole('button', { name: 'Manage Payment' })).toBeVisible()
    await expect(card(page).getByRole('link', { name: 'Cancel Subscription' })).toBeVisible()
    await expect(card(page).getByRole('link', { name: 'Upgrade Now' })).toHaveCount(0)
  })

  test('checkout success without a session goes back to pricing', async ({ page }) => {
    await signedIn(page)
    await page.goto('/checkout-success')
    await expect(page).toHaveURL(/\/pricing$/)
    await expect(page.getByRole('heading', { name: 'Choose Your Growth Plan' })).toBeVisible()
  })

  test('trial card: usage against the trial limits, and Upgrade Now once a quota is reached', async ({ page }) => {
    const user = await signedIn(page)
    await db
      .update(schema.subscriptions)
      .set({ keywordSearchCount: 3, blogPostCount: 1 })
      .where(eq(schema.subscriptions.userId, user.id))
    await page.goto('/profile')
    const c = card(page)
    await expect(c.getByTestId('subscription-status')).toHaveText('Free Trial')
    await expect(c.getByTestId('usage-keyword-searches')).toHaveText('3/10')
    await expect(c.getByTestId('usage-blog-posts')).toHaveText('1/5')
    await expect(c.getByTestId('monthly-cost')).toHaveText('$0.00')
    await expect(c.getByTestId('trial-ends')).toHaveText(formatShortDate((await subscription(user.id)).trialEndsAt)!)
    await expect(c.getByRole('button', { name: 'Manage Payment' })).toHaveCount(0)
    await expect(c.getByRole('link', { name: 'Cancel Subscription' })).toHaveCount(0)
    await expect(c.getByRole('link', { name: 'Upgrade Now' })).toHaveCount(0)

    await db.update(schema.subscriptions).set({ blogPostCount: 5 }).where(eq(schema.subscriptions.userId, user.id))
    await page.reload()
    await expect(c.getByTestId('usage-blog-posts')).toHaveText('5/5')
    await c.getByRole('link', { name: 'Upgrade Now' }).click()
    await expect(page).toHaveURL(/\/pricing$/)
  })

  test('expired trial card: the trial has ended and Upgrade Now is offered', async ({ page }) => {
    const user = await signedIn(page)
    await db
      .update(schema.subscriptions)
      .set({ trialEndsAt: new Date(Date.now() - 3600_000) })
      .where(eq(schema.subscriptions.userId, user.id))
    await page.goto('/profile')
    await expect(card(page).getByTestId('subscription-notice')).toContainText('Your free trial has ended.')
    await expect(card(page).getByRole('link', { name: 'Upgrade Now' })).toBeVisible()
  })

  test('active card: cancel with a confirm step, Premium until the period ends, then canceled @no-js', async ({
    page,
  }) => {
    const user = await signedIn(page)
    const subscriptionId = await subscribe(user, 'price_yearly')
    const renewal = formatShortDate((await subscription(user.id)).currentPeriodEnd)!
    await page.goto('/profile')
    await expect(card(page).getByTestId('monthly-cost')).toHaveText('$41.66')
    await card(page).getByRole('link', { name: 'Cancel Subscription' }).click()
    if (noJs()) {
      await expect(page).toHaveURL(/\/billing\/cancel$/)
      await expect(page.getByText(`You keep Premium until ${renewal}`)).toBeVisible()
      await page.getByRole('link', { name: 'Close' }).click()
      await expect(page).toHaveURL(/\/profile$/)
      await card(page).getByRole('link', { name: 'Cancel Subscription' }).click()
      await page.getByRole('button', { name: 'Cancel Subscription' }).click()
    } else {
      const dialog = page.getByRole('dialog', { name: 'Cancel Subscription' })
      await expect(dialog).toContainText(`You keep Premium until ${renewal}`)
      await dialog.getByRole('button', { name: 'Close' }).click()
      await expect(dialog).toHaveCount(0)
      await card(page).getByRole('link', { name: 'Cancel Subscription' }).click()
      await dialog.getByRole('button', { name: 'Cancel Subscription' }).click()
      await expect(dialog).toHaveCount(0)
    }
    await expect(page).toHaveURL(/\/profile$/)
    await expect(page.getByRole('status').filter({ hasText: 'Subscription canceled successfully.' })).toBeVisible()
    await expect(card(page).getByTestId('subscription-status')).toHaveText('Active')
    await expect(card(page).getByTestId('subscription-notice')).toContainText(`ends on ${renewal}`)
    await expect(card(page).getByRole('link', { name: 'Cancel Subscription' })).toHaveCount(0)
    expect(await subscription(user.id)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true })

    await stripeFake.renew(subscriptionId) // the period ends
    await page.goto('/profile')
    await expect(card(page).getByTestId('subscription-status')).toHaveText('Canceled')
    await expect(card(page).getByRole('button', { name: 'Manage Payment' })).toHaveCount(0)
    await expect(card(page).getByRole('link', { name: 'Upgrade Now' })).toBeVisible()
  })

  test('active card: a failed cancel shows the error and changes nothing @no-js', async ({ page }) => {
    const user = await signedIn(page)
    const subscriptionId = await subscribe(user)
    await stripeFake.enqueue({ status: 400, path: `/v1/subscriptions/${subscriptionId}`, times: 1 })
    await page.goto(noJs() ? '/billing/cancel' : '/profile')
    if (!noJs()) await card(page).getByRole('link', { name: 'Cancel Subscription' }).click()
    await page.getByRole('button', { name: 'Cancel Subscription' }).last().click()
    await expect(
      page.getByRole('alert').filter({ hasText: 'Failed to cancel subscription. Please try again.' }),
    ).toBeVisible()
    await expect(card(page).getByRole('link', { name: 'Cancel Subscription' })).toBeVisible()
    expect((await subscription(user.id)).cancelAtPeriodEnd).toBe(false)
  })

  test('active card: Manage Payment opens the Stripe customer portal @no-js', async ({ page }) => {
    const user = await signedIn(page)
    await subscribe(user)
    await page.goto('/profile')
    await card(page).getByRole('button', { name: 'Manage Payment' }).click()
    await expect(page).toHaveURL(new RegExp(`^${stripeFake.url}/portal/bps_`))
    await expect(page.getByRole('heading', { name: 'Fake Stripe Customer Portal' })).toBeVisible()
    await page.getByRole('link', { name: 'Return to Rankwell' }).click()
    await expect(page).toHaveURL(/\/profile$/)
  })

  test('checkout return before Stripe confirms: a neutral page that checks again by itself @no-js', async ({
    page,
  }) => {
    const user = await signedIn(page)
    const res = await api('/api/create-checkout-session', {
      method: 'POST',
      json: { priceId: 'price_monthly' },
      as: user,
    })
    const sessionId = String(res.body.sessionId)
    await page.goto(`/checkout-success?session_id=${sessionId}`)
    await expect(page.getByRole('heading', { name: 'We are confirming your payment…' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Subscription Successful!' })).toHaveCount(0)
    await stripeFake.completeCheckout(sessionId) // Stripe confirms the payment
    await expect(page.getByRole('heading', { name: 'Subscription Successful!' })).toBeVisible({ timeout: 15_000 })
    await expect(page).toHaveURL(/\/keywords$/, { timeout: 15_000 })
  })

  test('past due: a banner on every signed-in page opens the portal to update the payment method @no-js', async ({
    page,
  }) => {
    const user = await signedIn(page)
    const subscriptionId = await subscribe(user)
    await page.goto('/keywords')
    await expect(page.getByTestId('past-due-banner')).toHaveCount(0)
    await stripeFake.paymentFailed(subscriptionId)
    for (const path of ['/keywords', '/blogposts', '/profile']) {
      await page.goto(path)
      await expect(page.getByTestId('past-due-banner')).toContainText('Your last payment failed.')
    }
    await page.getByTestId('past-due-banner').getByRole('button', { name: 'Update payment method' }).click()
    await expect(page).toHaveURL(new RegExp(`^${stripeFake.url}/portal/bps_`))
  })

  test('premium at the monthly allowance: the card says when it renews, without Upgrade Now', async ({ page }) => {
    const user = await signedIn(page)
    await subscribe(user)
    await db
      .update(schema.subscriptions)
      .set({ keywordSearchCount: 500 })
      .where(eq(schema.subscriptions.userId, user.id))
    await page.goto('/profile')
    await expect(card(page).getByTestId('quota-notice')).toContainText(
      "You have used this month's 500 keyword searches. They renew on",
    )
    await expect(card(page).getByRole('link', { name: 'Upgrade Now' })).toHaveCount(0)
  })

  test('past due card: the failed payment is explained and payment can be fixed', async ({ page }) => {
    const user = await signedIn(page)
    const subscriptionId = await subscribe(user)
    await stripeFake.paymentFailed(subscriptionId)
    await page.goto('/profile')
    const c = card(page)
    await expect(c.getByTestId('subscription-status')).toHaveText('Past Due')
    await expect(c.getByTestId('subscription-notice')).toContainText('Your last payment failed.')
    await expect(c.getByTestId('usage-keyword-searches')).toHaveText('0/500')
    await expect(c.getByRole('button', { name: 'Manage Payment' })).toBeVisible()
    await expect(c.getByRole('link', { name: 'Cancel Subscription' })).toHaveCount(0)
    await expect(c.getByRole('link', { name: 'Upgrade Now' })).toHaveCount(0)
  })
})
