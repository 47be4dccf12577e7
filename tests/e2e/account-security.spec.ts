import crypto from 'node:crypto'
import { expect, test, type Page } from '#tests/setup/playwright'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { waitForSmtpMessage } from '#tests/fakes/client'
import { createTestUser, uniqueEmail } from '#tests/setup/app'

// Issue 13, in the browser: verification, forgot/reset and change password. Every test runs with JavaScript
// (project `js`) and, tagged @no-js, without (project `no-js`).

test.beforeEach(async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `10.78.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 255)}` })
})

const toast = (page: Page) => page.locator('[data-toast]')

/** The path and query of the e-mail's link to `pathname` (the app under test is the page's base URL). */
async function linkFromMail(to: string, pathname: string, after = 0) {
  const mail = await waitForSmtpMessage({
    to,
    predicate: (m) => m.text.includes(pathname) && Date.parse(m.receivedAt) >= after,
  })
  const match = new RegExp(`https?://[^\\s]+${pathname}\\?token=[A-Za-z0-9_-]+`).exec(mail.text)
  expect(match).toBeTruthy()
  const url = new URL(match![0])
  return `${url.pathname}${url.search}`
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/signin')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
}

test('a new account verifies its address from the e-mail; the banner resends the link @no-js', async ({ page }) => {
  const email = uniqueEmail('e2e-verify')
  await page.goto('/signup')
  await page.getByLabel('Name', { exact: true }).fill('Vera Verify')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill('a-long-password')
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page).toHaveURL(/\/onboarding$/)
  const banner = page.getByTestId('verify-banner')
  await expect(banner).toContainText(email)

  const before = Date.now()
  await banner.getByRole('button', { name: 'Resend the link' }).click()
  await expect(toast(page)).toContainText('We sent you a verification link.')
  const link = await linkFromMail(email, '/verify-email', before - 1000)
  await page.goto(link)
  // Issue 35: back where the banner was (the onboarding), not an empty /profile.
  await expect(page).toHaveURL(/\/onboarding$/)
  await expect(toast(page)).toContainText('Your email address is verified.')
  await expect(page.getByTestId('verify-banner')).toHaveCount(0)
  const [row] = await db.select().from(schema.users).where(eq(schema.users.email, email))
  expect(row!.emailVerifiedAt).toBeTruthy()
})

test('forgot password, reset from the e-mail link, then sign in with the new password @no-js', async ({ page }) => {
  const user = await createTestUser()
  await page.goto('/signin')
  await page.getByRole('link', { name: 'Forgot password?' }).click()
  await expect(page).toHaveURL(/\/forgot-password$/)
  await page.getByLabel('Email').fill(user.email)
  await page.getByRole('button', { name: 'Send the reset link' }).click()
  await expect(page.getByTestId('form-message')).toContainText('If an account exists for that address')

  const link = await linkFromMail(user.email, '/reset-password')
  await page.goto(link)
  await page.getByLabel('New password', { exact: true }).fill('short')
  // Past the browser's own minlength check, to see the server's answer next to the field.
  await page.getByLabel('New password', { exact: true }).evaluate((el) => el.removeAttribute('minlength'))
  await page.getByRole('button', { name: 'Save the new password' }).click()
  // The message shows next to the field and in the form's summary.
  await expect(page.getByText('Password must be at least 8 characters.').first()).toBeVisible()
  await page.getByLabel('New password', { exact: true }).fill('brand-new-password')
  await page.getByRole('button', { name: 'Save the new password' }).click()
  await expect(page).toHaveURL(/\/signin$/)
  await expect(toast(page)).toContainText('Your password has been reset.')

  // The link worked once.
  await page.goto(link)
  await expect(page.getByTestId('form-message')).toContainText('invalid, has expired or was already used')

  await signIn(page, user.email, 'brand-new-password')
  await expect(page).toHaveURL(/\/keywords/)
})

test('change password on /profile: the current one is required, other sessions end @no-js', async ({ page }) => {
  const user = await createTestUser()
  await signIn(page, user.email, user.password)
  await expect(page).toHaveURL(/\/keywords/)
  await page.goto('/profile')
  const form = page.getByRole('form', { name: 'Change password' })
  await form.getByLabel('Current password').fill('not-my-password')
  await form.getByLabel('New password', { exact: true }).fill('another-password')
  await form.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByText('Your current password is not correct.').first()).toBeVisible()
  await expect(form.getByLabel('Current password')).toHaveValue('')

  await form.getByLabel('Current password').fill(user.password)
  await form.getByLabel('New password', { exact: true }).fill('another-password')
  await form.getByRole('button', { name: 'Change password' }).click()
  await expect(toast(page)).toContainText('Your password has been changed.')
  // This browser stays signed in; the helper's cookie session is listed no more.
  await expect(page.getByTestId('session-row')).toHaveCount(1)
  await expect(page.getByTestId('session-row')).toContainText('(this browser)')
})
