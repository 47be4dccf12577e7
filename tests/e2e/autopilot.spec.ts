import crypto from 'node:crypto'
import { expect, test, type Page } from '#tests/setup/playwright'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { generateWebhookSecret } from '#app/platform/webhooks/signing.server'
import { startReceiver, type Receiver } from '#tests/setup/autopilot-helpers'
import { ownClientIp, signedIn } from '#tests/setup/browser'

const withJs = () => test.info().project.name === 'js'

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

/** Auto Pilot on in the database only (no schedule, so no run writes posts behind the test's back). */
async function switchedOn(userId: string, values: Partial<typeof schema.autopilotSettings.$inferInsert> = {}) {
  await db
    .update(schema.autopilotSettings)
    .set({ enabled: true, webhookSecret: generateWebhookSecret(), ...values })
    .where(eq(schema.autopilotSettings.userId, userId))
}

const toast = (page: Page, text: string | RegExp) => page.locator('[data-toast]').filter({ hasText: text })
const toggle = (page: Page) => page.getByRole('button', { name: 'Auto Pilot', exact: true })

test.describe('auto pilot screen', () => {
  test('shows the business details and switches Auto Pilot on and off @no-js', async ({ page }) => {
    const user = await signedIn(page)
    await page.goto('/autopilot')
    await expect(page.getByRole('heading', { level: 1, name: 'Auto Pilot' })).toBeVisible()
    const details = page.locator('section', { has: page.getByRole('heading', { name: 'Business Details' }) })
    for (const text of [
      'https://example.com',
      'Indie SaaS founders',
      'email marketing software',
      'United States',
      'English',
    ]) {
      await expect(details).toContainText(text)
    }
    await expect(details.getByRole('link', { name: 'Edit in profile' })).toHaveAttribute('href', '/profile')
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'false')
    await expect(page.getByRole('heading', { name: 'Webhook Integration' })).toHaveCount(0)
    await expect(page.getByRole('heading', { name: 'Auto Pilot Status' })).toHaveCount(0)

    if (withJs()) {
      // Optimistic: the switch flips before the server answers.
      await page.route(
        (url) => url.pathname === '/autopilot',
        async (route) => {
          if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 1000))
          await route.continue()
        },
      )
    }
    await toggle(page).click()
    if (withJs()) await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true', { timeout: 500 })
    await expect(toast(page, 'Auto Pilot Enabled.')).toBeVisible()
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true')
    await expect(page.getByRole('heading', { name: 'Webhook Integration' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Auto Pilot Status' })).toBeVisible()
    await expect(page.getByLabel('Signing secret')).toHaveValue(/^whsec_/)
    for (const name of ['Keyword', 'Searches/Month', 'Difficulty', 'Blog Post']) {
      await expect(page.getByRole('columnheader', { name, exact: true })).toBeVisible()
    }

    // The first run starts at once: its keyword shows as Pending, then with a link to its post.
    const row = page.getByTestId('status-row').first()
    await expect(async () => {
      if (!withJs()) await page.reload()
      await expect(row.getByRole('link', { name: 'View Post' })).toBeVisible({ timeout: 3000 })
    }).toPass({ timeout: 60_000 })
    const [run] = await db.select().from(schema.autopilotRuns).where(eq(schema.autopilotRuns.userId, user.id))
    await expect(row.getByRole('link', { name: 'View Post' })).toHaveAttribute('href', `/blogpost/${run!.postId}`)

    await toggle(page).click()
    await expect(toast(page, 'Auto Pilot Disabled.')).toBeVisible()
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'false')
    await expect(page.getByRole('heading', { name: 'Webhook Integration' })).toHaveCount(0)
    await expect(page.getByRole('heading', { name: 'Auto Pilot Status' })).toHaveCount(0)
  })

  test('a failed toggle reverts and says so @no-js', async ({ page }) => {
    const user = await signedIn(page)
    await page.goto('/autopilot')
    await expect(toggle(page)).toBeEnabled()
    // The plan lapses between loading the page and switching on.
    await db.update(schema.subscriptions).set({ status: 'canceled' }).where(eq(schema.subscriptions.userId, user.id))
    await toggle(page).click()
    await expect(toast(page, 'Failed to toggle Auto Pilot.')).toBeVisible()
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'false')
    await expect(page.getByRole('heading', { name: 'Webhook Integration' })).toHaveCount(0)
  })

  test('validates, saves and copies the webhook URL @no-js', async ({ page }) => {
    const user = await signedIn(page)
    await switchedOn(user.id)
    if (withJs()) await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.goto('/autopilot')
    const field = page.getByLabel('Webhook URL', { exact: true })
    const save = page.getByRole('button', { name: 'Save', exact: true })

    await field.fill('')
    await save.click()
    await expect(page.getByText('Webhook URL cannot be empty.')).toBeVisible()
    await field.fill('not a url')
    await save.click()
    await expect(page.getByText('Please enter a valid URL.')).toBeVisible()
    await expect(field).toHaveValue('not a url')

    await field.fill('hooks.example.com/rankwell')
    await save.click()
    await expect(toast(page, 'Webhook URL saved successfully.')).toBeVisible()
    await expect(page.getByLabel('Saved webhook URL')).toHaveValue('https://hooks.example.com/rankwell')
    await expect(page.getByLabel('Saved webhook URL')).toHaveAttribute('readonly', '')
    const [settings] = await db
      .select()
      .from(schema.autopilotSettings)
      .where(eq(schema.autopilotSettings.userId, user.id))
    expect(settings!.webhookUrl).toBe('https://hooks.example.com/rankwell')

    if (withJs()) {
      const copy = page.getByTestId('copy-webhook')
      await copy.click()
      await expect(toast(page, 'Webhook URL copied to clipboard!')).toBeVisible()
      await expect(copy).toHaveText('Copied!')
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('https://hooks.example.com/rankwell')
      await expect(copy).toHaveText('Copy', { timeout: 3000 })
      await page.evaluate(() => {
        navigator.clipboard.writeText = () => Promise.reject(new Error('denied'))
      })
      await copy.click()
      await expect(toast(page, 'Failed to copy webhook URL.')).toBeVisible()
    } else {
      // Without JavaScript there is no copy button; the URL sits in a read-only field to select.
      await expect(page.getByTestId('copy-webhook')).toHaveCount(0)
    }
  })

  test.describe('deliveries', () => {
    let receiver: Receiver
    test.beforeAll(async () => {
      receiver = await startReceiver()
    })
    test.afterAll(async () => {
      await receiver.close()
    })

    test('sends a test event, lists it, redelivers it and rotates the secret @no-js', async ({ page }) => {
      const user = await signedIn(page)
      const path = `/e2e-${crypto.randomBytes(4).toString('hex')}`
      await switchedOn(user.id, { webhookUrl: receiver.url(path) })
      await page.goto('/autopilot')
      await expect(page.getByTestId('deliveries')).toContainText('No deliveries yet.')
      await page.getByRole('button', { name: 'Send test event' }).click()
      await expect(toast(page, 'Test event sent.')).toBeVisible()
      await receiver.waitForRequests(path, 1)
      const row = page.getByTestId('delivery-row').first()
      await expect(async () => {
        if (!withJs()) await page.reload()
        await expect(row).toHaveAttribute('data-status', 'delivered', { timeout: 3000 })
      }).toPass({ timeout: 30_000 })
      await expect(row).toContainText('test')
      await expect(row).toContainText('200')
      await expect(row).toContainText(/\d+ ms/)

      await row.getByRole('button', { name: 'Redeliver' }).click()
      await expect(toast(page, 'Redelivery queued.')).toBeVisible()
      const both = await receiver.waitForRequests(path, 2)
      expect(both[1]!.headers['webhook-id']).toBe(both[0]!.headers['webhook-id'])

      const before = await page.getByLabel('Signing secret').inputValue()
      await page.getByRole('button', { name: 'Rotate secret' }).click()
      await expect(toast(page, 'Signing secret rotated.')).toBeVisible()
      await expect(page.getByLabel('Signing secret')).not.toHaveValue(before)
      await expect(page.getByLabel('Signing secret')).toHaveValue(/^whsec_/)
    })
  })

  test('explains a disabled endpoint and re-enables it @no-js', async ({ page }) => {
    const user = await signedIn(page)
    await switchedOn(user.id, {
      webhookUrl: 'https://hooks.example.com/in',
      webhookDisabledAt: new Date(),
      webhookDisabledReason: 'Every delivery failed for 24 hours. Last error: HTTP 503: unavailable',
      notice:
        "Auto Pilot paused: you have used this period's blog posts. It resumes when your quota renews, or upgrade in your profile.",
    })
    await page.goto('/autopilot')
    await expect(page.getByTestId('autopilot-notice')).toContainText(
      "Auto Pilot paused: you have used this period's blog posts",
    )
    const banner = page.getByTestId('webhook-disabled')
    await expect(banner).toContainText('Webhook deliveries are paused')
    await expect(banner).toContainText('Last error: HTTP 503: unavailable')
    await expect(page.getByRole('button', { name: 'Send test event' })).toHaveCount(0)
    await banner.getByRole('button', { name: 'Re-enable webhook' }).click()
    await expect(toast(page, 'Webhook re-enabled.')).toBeVisible()
    await expect(page.getByTestId('webhook-disabled')).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Send test event' })).toBeVisible()
  })

  test('saves the cadence @no-js', async ({ page }) => {
    const user = await signedIn(page)
    await page.goto('/autopilot')
    await page.getByLabel('How often').selectOption({ label: '1 post a week' })
    await page.getByRole('button', { name: 'Save schedule' }).click()
    await expect(toast(page, 'Auto Pilot schedule saved.')).toBeVisible()
    await expect(page.getByLabel('How often')).toHaveValue('7')
    const [settings] = await db
      .select()
      .from(schema.autopilotSettings)
      .where(eq(schema.autopilotSettings.userId, user.id))
    expect(settings!.cadenceDays).toBe(7)
  })
})
