import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { ownClientIp, pageErrors, signInAs } from '#tests/setup/browser'
import { createTestUser } from '#tests/setup/app'
import { doneWith, expect, expectNoSeriousViolations, pageForChecks, test, withJs } from '#tests/setup/screen-checks'
import type { Page } from '#tests/setup/playwright'
import { freshStep, totpCode } from '#tests/setup/totp'

// Issue 34, in the browser, with JavaScript (project `js`) and without (project `no-js`, tagged @no-js): two-step
// sign-in turned on from /profile (QR code, the key for typing, the first code, the recovery codes shown once), then
// asked at sign-in after the password, with axe on the new screens.

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

const toast = (page: Page) => page.locator('[data-toast]')

async function axe(page: Page, path: string | null, label: string) {
  const checked = await pageForChecks(page)
  if (path) await checked.goto(path)
  await expectNoSeriousViolations(checked, `${label} (${test.info().project.name})`)
  await doneWith(checked, page)
}

test('turn on two-step sign-in on /profile, then sign in with the password and the code @no-js', async ({ page }) => {
  test.slow()
  const errors = pageErrors(page)
  const user = await createTestUser()
  await signInAs(page, user)
  await page.goto('/profile')
  const card = page.getByTestId('two-step-card')
  await card.getByRole('button', { name: 'Turn on two-step sign-in' }).click()

  // The QR code (an SVG drawn on the server) and the key for typing.
  await expect(card.getByRole('img', { name: 'QR code to add Rankwell to your authenticator app' })).toBeVisible()
  const key = (await card.getByTestId('totp-key').innerText()).replace(/\s+/g, '')
  expect(key).toMatch(/^[A-Z2-7]{16,}$/)
  expect(await card.getByRole('img').getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/)
  await axe(page, '/profile', '/profile setting up two-step sign-in')

  // A wrong code: the message next to the code field, nothing turned on.
  const confirm = page.getByRole('form', { name: 'Confirm two-step sign-in' })
  const [row] = await db.select().from(schema.userTotp).where(eq(schema.userTotp.userId, user.id))
  expect(row!.confirmedAt).toBeNull()
  await freshStep()
  const current = await totpCode(key)
  const wrong = current === '000000' ? '111111' : '000000'
  await confirm.getByLabel('Code from your authenticator app').fill(wrong)
  await confirm.getByRole('button', { name: 'Confirm and turn on' }).click()
  await expect(page.getByText('That code is not correct or was already used.').first()).toBeVisible()

  await confirm.getByLabel('Code from your authenticator app').fill(current)
  await confirm.getByRole('button', { name: 'Confirm and turn on' }).click()
  await expect(page.getByTestId('recovery-code')).toHaveCount(10)
  const recoveryCodes = await page.getByTestId('recovery-code').allInnerTexts()
  await expect(page.getByTestId('two-step-status')).toContainText(
    'Two-step sign-in is on. 10 of 10 recovery codes left.',
  )

  // Signed out, the password alone no longer opens a session.
  await page.context().clearCookies()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password', { exact: true }).fill(user.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(/\/signin\/verify$/)
  const cookies = await page.context().cookies()
  expect(cookies.some((c) => c.name.includes('rw_session'))).toBe(false)
  expect(cookies.some((c) => c.name.includes('rw_2fa_pending'))).toBe(true)
  await expect(page.getByRole('heading', { level: 1, name: 'Two-step sign-in' })).toBeVisible()
  await axe(page, withJs() ? null : '/signin/verify', '/signin/verify')

  // The code the confirmation used is refused (a step counts once); the app's next one signs in.
  await page.getByLabel('Code', { exact: true }).fill(current)
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByText('That code is not correct or was already used.').first()).toBeVisible()
  await page.getByLabel('Code', { exact: true }).fill(await totpCode(key, 1))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/keywords/)
  await expect(toast(page)).toContainText('Signed in successfully.')

  // A recovery code works in place of the app's code, once.
  await page.context().clearCookies()
  await page.goto('/signin')
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password', { exact: true }).fill(user.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(/\/signin\/verify$/)
  await page.getByLabel('Code', { exact: true }).fill(recoveryCodes[0]!)
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/keywords/)
  await page.goto('/profile')
  await expect(page.getByTestId('two-step-status')).toContainText('9 of 10 recovery codes left.')
  await expect(page.getByTestId('recovery-code')).toHaveCount(0)
  expect(errors).toEqual([])
})
