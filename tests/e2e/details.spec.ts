import { ownClientIp, signedIn, signInAs } from '#tests/setup/browser'
import { expect, PHONE, test } from '#tests/setup/screen-checks'

// Small screens and details (issue 35, point 6). Escape on the phone menu is tested with the navigation
// (first-run.spec.ts); the pages' wording is checked over HTTP (tests/integration/honest-screens.test.ts).

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

test('the keyword filters fold behind a Filter button on a phone and are always shown on a desktop', async ({
  page,
  seeded,
}) => {
  await signInAs(page, seeded.user)
  await page.setViewportSize(PHONE)
  await page.goto('/keywords')
  const search = page.getByLabel('Search keywords')
  const button = page.getByTestId('keyword-filters').locator('summary')
  await expect(button).toHaveText(/Filter/)
  await expect(search).toBeHidden()
  await button.click()
  await expect(search).toBeVisible()
  await expect(page.getByLabel('Market country')).toBeVisible()

  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/keywords')
  await expect(button).toBeHidden()
  await expect(search).toBeVisible()
})

test('a toast shows below the banner and never over the page heading', async ({ page }) => {
  await signedIn(page, { verified: false })
  await page.goto('/profile')
  const card = page.getByTestId('profile-card')
  await card.getByRole('link', { name: 'Edit' }).click()
  await page.getByRole('button', { name: 'Save' }).click()
  const toast = page.locator('[data-toast]')
  await expect(toast).toHaveText(/Profile updated successfully!/)
  const [banner, heading, box] = await Promise.all([
    page.getByTestId('verify-banner').boundingBox(),
    page.getByRole('heading', { level: 1 }).first().boundingBox(),
    toast.boundingBox(),
  ])
  expect(box!.y).toBeGreaterThanOrEqual(banner!.y + banner!.height - 1)
  expect(heading!.y).toBeGreaterThanOrEqual(box!.y + box!.height)
})

test('checkout-success with an unknown session says so and offers the plans @no-js', async ({ page, seeded }) => {
  await signInAs(page, seeded.user)
  const res = await page.goto('/checkout-success?session_id=cs_test_does_not_exist')
  expect(res!.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'We could not find that checkout' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute('href', '/pricing')
  await expect(page).toHaveURL(/\/checkout-success/)
})
