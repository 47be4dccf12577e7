import { expect, test } from '@playwright/test'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/server/db.server'
import { ownClientIp, signedIn } from '#tests/setup/browser'

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

test.describe('content settings', () => {
  test('from the profile: a bad CTA URL is shown next to its field with the input kept, then the settings save', async ({
    page,
  }) => {
    const user = await signedIn(page)
    await page.goto('/profile')
    await page.getByRole('link', { name: 'Content settings' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Content settings' })).toBeVisible()
    await expect(page.getByLabel('Product/Service')).toHaveValue('email marketing software')

    await page.getByLabel('Value proposition').fill('Send better newsletters in half the time')
    await page.getByLabel('Call to action text').fill('Start your free trial')
    // type=url inputs are checked by the browser too: bypass that to see the server's message.
    await page.locator('form[aria-label="Content settings"]').evaluate((f) => f.setAttribute('novalidate', ''))
    await page.getByLabel('Call to action URL').fill('ftp://example.com/signup')
    await page.getByRole('radio', { name: /Expert/ }).check()
    await page.getByLabel('Words and claims to avoid').fill('cheapest\nguaranteed')
    await page.getByRole('button', { name: 'Save content settings' }).click()

    await expect(page.getByText('Please enter a valid URL, such as https://example.com/signup.').first()).toBeVisible()
    await expect(page.getByLabel('Call to action URL')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByLabel('Call to action text')).toHaveValue('Start your free trial')
    await expect(page.getByRole('radio', { name: /Expert/ })).toBeChecked()
    await expect(page.getByLabel('Words and claims to avoid')).toHaveValue('cheapest\nguaranteed')

    await page.getByLabel('Call to action URL').fill('https://example.com/signup')
    await page.getByRole('button', { name: 'Save content settings' }).click()
    await expect(page.locator('[data-toast]').filter({ hasText: 'Content settings saved.' })).toBeVisible()
    await expect(page.getByLabel('Call to action URL')).toHaveValue('https://example.com/signup')
    await expect(page.getByRole('radio', { name: /Expert/ })).toBeChecked()
    await expect
      .poll(async () => {
        const [row] = await db.select().from(schema.contentSettings).where(eq(schema.contentSettings.userId, user.id))
        return row ? { tone: row.tone, ctaUrl: row.ctaUrl, avoid: row.avoid } : null
      })
      .toEqual({ tone: 'expert', ctaUrl: 'https://example.com/signup', avoid: 'cheapest\nguaranteed' })
  })
})
