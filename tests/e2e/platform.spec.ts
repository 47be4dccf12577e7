import { expect, test } from '#tests/setup/playwright'

test('the home page shows the public navigation', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link', { name: 'Free SEO Ebook' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Sign In' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Try Free' })).toBeVisible()
})

test('an unknown page shows the 404 page', async ({ page }) => {
  const res = await page.goto('/definitely-not-here')
  expect(res?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
})

test('the mobile menu opens and its links navigate @no-js', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 })
  await page.goto('/')
  await page.locator('[data-mobile-menu] summary').click()
  const menu = page.locator('[data-mobile-menu]')
  await menu.getByRole('link', { name: 'Try Free' }).click()
  await expect(page).toHaveURL(/\/signup$/)
})
