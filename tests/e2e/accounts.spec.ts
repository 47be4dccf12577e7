import crypto from 'node:crypto'
import { expect, test, type Page } from '#tests/setup/playwright'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { waitForSmtpMessage } from '#tests/fakes/client'
import { createTestUser, uniqueEmail } from '#tests/setup/app'
import { pageErrors, signedIn } from '#tests/setup/browser'
import { cookieName } from '#app/platform/http/cookies.server'

// Every test runs with JavaScript (project `js`); those tagged @no-js also without it (project `no-js`).
const withJs = () => test.info().project.name === 'js'

/** Each test is its own client (its own IP), so sign-in and sign-up rate limits never meet. */
test.beforeEach(async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `10.77.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 255)}` })
})

async function signInWithForm(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
}

const toast = (page: Page) => page.locator('[data-toast]')

test('sign up, onboard, and land on the first keyword search @no-js', async ({ page }) => {
  const email = uniqueEmail('e2e-signup')
  await page.goto('/signup')
  await expect(page.getByText('Join hundreds of founders scaling their organic traffic')).toBeVisible()
  await expect(page.getByText('Or continue with')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Google' })).toHaveAttribute('href', '/api/auth/google')
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute('href', '/signin')
  await page.getByLabel('Name', { exact: true }).fill('Erin Example')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill('a-long-password')
  await page.getByRole('button', { name: 'Create Account' }).click()

  await expect(page).toHaveURL(/\/onboarding$/)
  await expect(toast(page)).toHaveAttribute('data-toast', 'success')
  await expect(toast(page)).toContainText('Account created successfully')
  await expect(page.getByTestId('nav-email')).toHaveText(email)

  await page.getByLabel('Website').fill('https://erin.example')
  await page.getByLabel('Ideal Customer').fill('Freelance designers')
  await page.getByLabel('Product/Service').fill('invoice templates')
  await page.getByLabel('Country').selectOption({ label: 'United Kingdom' })
  await page.getByLabel('Language').selectOption({ label: 'English' })
  // The keywords screen runs the search at once and may then settle on a cleaner URL, so the redirect itself is
  // checked: the first request for /keywords (a page load, or the loader data request with JavaScript).
  const firstSearch = page.waitForRequest((r) => new URL(r.url()).pathname === '/keywords')
  await page.getByRole('button', { name: 'Continue to SEO Setup' }).click()
  const params = new URL((await firstSearch).url()).searchParams
  params.delete('_data')
  expect(Object.fromEntries(params)).toEqual({
    query: 'invoice templates',
    countryCode: '2826',
    languageCode: '1000',
    countryName: 'United Kingdom',
    languageName: 'English',
    run: '1',
  })
  await expect(page).toHaveURL(/\/keywords/)
  const [row] = await db.select().from(schema.users).where(eq(schema.users.email, email))
  expect(row).toMatchObject({
    onboardingComplete: true,
    website: 'https://erin.example',
    marketSegment: 'Freelance designers',
  })
})

test('sign in goes to /keywords once onboarded, otherwise to /onboarding @no-js', async ({ page, context }) => {
  const onboarded = await createTestUser({ onboarded: true })
  await page.goto('/signin')
  await expect(page.getByText('Continue your SEO automation journey')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Sign up', exact: true })).toHaveAttribute('href', '/signup')
  await signInWithForm(page, onboarded.email, onboarded.password)
  await expect(page).toHaveURL(/\/keywords$/)
  await expect(toast(page)).toContainText('Signed in successfully')

  await context.clearCookies()
  const fresh = await createTestUser({ onboarded: false })
  await page.goto('/signin')
  await signInWithForm(page, fresh.email.toUpperCase(), fresh.password)
  await expect(page).toHaveURL(/\/onboarding$/)
})

test('a wrong password shows a red message and keeps only the e-mail @no-js', async ({ page }) => {
  const user = await createTestUser()
  await page.goto('/signin')
  await signInWithForm(page, user.email, 'definitely-wrong')
  const message = page.getByTestId('form-message')
  await expect(message).toHaveText('Invalid email or password.')
  await expect(message).toHaveAttribute('data-tone', 'error')
  await expect(message).toHaveClass(/text-red-800/)
  await expect(page).toHaveURL(/\/signin$/)
  await expect(page.getByLabel('Email')).toHaveValue(user.email)
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('')
})

test('signing up with a taken e-mail says so @no-js', async ({ page }) => {
  const existing = await createTestUser()
  await page.goto('/signup')
  await page.getByLabel('Name', { exact: true }).fill('Copy Cat')
  await page.getByLabel('Email').fill(existing.email.toUpperCase())
  await page.getByLabel('Password', { exact: true }).fill('a-long-password')
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page.getByTestId('form-message')).toHaveText(
    'An account with this email already exists. Please sign in instead.',
  )
  await expect(page).toHaveURL(/\/signup$/)
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Copy Cat')
})

test('Google sign-in creates the account, signs the returning user in, and handles a denied consent @no-js', async ({
  page,
}) => {
  const email = uniqueEmail('e2e-google')

  // New user: Google's consent page (the fake's plain form), then onboarding.
  await page.goto('/signin')
  await page.getByRole('link', { name: 'Google' }).click()
  await expect(page.getByRole('heading', { name: 'Sign in with Google (fake)' })).toBeVisible()
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Name').fill('Gwen Google')
  await page.getByRole('button', { name: 'Allow' }).click()
  await expect(page).toHaveURL(/\/onboarding$/)
  await expect(page.getByTestId('nav-email')).toHaveText(email)
  const [created] = await db.select().from(schema.users).where(eq(schema.users.email, email))
  expect(created).toMatchObject({ name: 'Gwen Google', passwordHash: null })

  // Returning user, onboarding done: straight to /keywords, same account.
  await db.update(schema.users).set({ onboardingComplete: true }).where(eq(schema.users.id, created!.id))
  await page.goto('/profile')
  await page.getByRole('button', { name: 'Log Out' }).click()
  await expect(page).toHaveURL(/\/signin$/)
  await page.goto('/signup')
  await page.getByRole('link', { name: 'Google' }).click()
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByRole('button', { name: 'Allow' }).click()
  await expect(page).toHaveURL(/\/keywords$/)
  expect(await db.select().from(schema.users).where(eq(schema.users.email, email))).toHaveLength(1)

  // Denied consent: back on /signin with a clear error.
  await page.context().clearCookies()
  await page.goto('/signin')
  await page.getByRole('link', { name: 'Google' }).click()
  await page.getByRole('button', { name: 'Deny' }).click()
  await expect(page).toHaveURL(/\/signin\?error=google-denied$/)
  await expect(page.getByTestId('form-message')).toContainText('Google sign-in was cancelled.')
})

test('log out ends the session: the old cookie no longer works @no-js', async ({ page, browser }) => {
  const user = await createTestUser()
  await page.goto('/signin')
  await signInWithForm(page, user.email, user.password)
  await expect(page).toHaveURL(/\/keywords$/)
  const [session] = (await page.context().cookies()).filter((c) => c.name === cookieName('rw_session'))
  expect(session).toBeTruthy()

  await page.goto('/profile')
  await page.getByRole('button', { name: 'Log Out' }).click()
  await expect(page).toHaveURL(/\/signin$/)
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign In' }).first(),
  ).toBeVisible()

  const replay = await browser.newContext({ javaScriptEnabled: withJs() })
  // The cookie as the browser kept it (its domain, path, Secure: a `__Host-` cookie needs them all).
  await replay.addCookies([session!])
  const other = await replay.newPage()
  await other.goto('/profile')
  await expect(other).toHaveURL(/\/signin\?redirectTo=%2Fprofile$/)
  await replay.close()
})

test('the guard sends signed-out visitors to /signin and back, and unfinished onboarding to /onboarding @no-js', async ({
  page,
}) => {
  const user = await createTestUser({ onboarded: true })
  await page.goto('/profile?edit=1')
  await expect(page).toHaveURL(/\/signin\?redirectTo=%2Fprofile%3Fedit%3D1$/)
  await signInWithForm(page, user.email, user.password)
  await expect(page).toHaveURL(/\/profile\?edit=1$/)
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible()

  await page.context().clearCookies()
  await signedIn(page, { onboarded: false })
  await page.goto('/keywords')
  await expect(page).toHaveURL(/\/onboarding$/)
})

test('the Help question reaches support @no-js', async ({ page }) => {
  const user = await signedIn(page)
  const question = `Can Auto Pilot post twice a day? ${crypto.randomUUID()}`
  await page.goto('/profile')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).first().click()

  if (withJs()) {
    const dialog = page.getByRole('dialog', { name: 'How can we help?' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByText("We'll respond within 24 hours")).toBeVisible()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toBeHidden()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).first().click()
    const box = dialog.getByPlaceholder('Describe your question...')
    await expect(box).toHaveAttribute('rows', '4')
    await box.fill(question)
    await dialog.getByRole('button', { name: 'Send Question' }).click()
    await expect(dialog).toBeHidden()
    await expect(page).toHaveURL(/\/profile$/)
  } else {
    await expect(page).toHaveURL(/\/help\?redirectTo=%2Fprofile$/)
    await expect(page.getByRole('heading', { name: 'How can we help?' })).toBeVisible()
    // The page's own text (the nav's closed help dialog carries the same line, hidden).
    await expect(page.getByRole('main').getByText("We'll respond within 24 hours")).toBeVisible()
    await page.getByPlaceholder('Describe your question...').fill(question)
    await page.getByRole('button', { name: 'Send Question' }).click()
    await expect(page).toHaveURL(/\/profile$/)
  }
  await expect(toast(page)).toContainText('Your question was sent')
  const mail = await waitForSmtpMessage({ to: 'support@rankwell.test', predicate: (m) => m.text.includes(question) })
  expect(mail.headers['reply-to']).toContain(user.email)
})

test('edit the profile: Cancel keeps it, Save updates it with a toast at the top that goes away @no-js', async ({
  page,
}) => {
  await signedIn(page)
  await page.goto('/profile')
  const card = page.getByTestId('profile-card')
  await expect(card).toContainText('Indie SaaS founders')
  await expect(page.getByTestId('subscription-card')).toBeVisible()

  await card.getByRole('link', { name: 'Edit' }).click()
  await page.getByLabel('Name', { exact: true }).fill('Should Not Stick')
  await card.getByRole('link', { name: 'Cancel' }).click()
  await expect(card.getByRole('link', { name: 'Edit' })).toBeVisible()
  await expect(card).not.toContainText('Should Not Stick')

  await card.getByRole('link', { name: 'Edit' }).click()
  await page.getByLabel('Name', { exact: true }).fill('Renamed Founder')
  await page.getByLabel('Ideal Customer').fill('Dog groomers')
  await page.getByLabel('Product/Service').fill('grooming scheduler')
  await page.getByLabel('Country').selectOption({ label: 'Canada' })
  await page.getByRole('button', { name: 'Save' }).click()

  const saved = toast(page)
  await expect(saved).toHaveText(/Profile updated successfully!/)
  await expect(saved).toHaveAttribute('data-toast', 'success')
  await expect(card.getByRole('link', { name: 'Edit' })).toBeVisible()
  await expect(card).toContainText('Renamed Founder')
  await expect(card).toContainText('Dog groomers')
  await expect(card).toContainText('grooming scheduler')
  await expect(card).toContainText('Canada')
  const box = (await saved.boundingBox())!
  const viewport = page.viewportSize()!
  // At the top of the page, right below the navigation bar (never over it: issue 12).
  const nav = (await page.locator('header').first().boundingBox())!
  expect(box.y).toBeGreaterThanOrEqual(nav.y + nav.height)
  expect(box.y).toBeLessThan(nav.y + nav.height + 40)
  expect(Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThan(4)
  // Toasts last 8 seconds, with or without JavaScript.
  await expect(saved).toBeHidden({ timeout: 12_000 })
})

test('the navigation bar: links, e-mail, mobile menu, and scroll to top @no-js', async ({ page }) => {
  const user = await signedIn(page)
  await page.goto('/profile')
  const nav = page.getByRole('navigation', { name: 'Main' })
  for (const [label, href] of [
    ['Auto Pilot', '/autopilot'],
    ['Keyword Ideas', '/keywords'],
    ['Blog Posts', '/blogposts'],
    ['Learn SEO', '/how-grow'],
    ['Profile', '/profile'],
  ]) {
    await expect(nav.getByRole('link', { name: label, exact: true }).first()).toHaveAttribute('href', href)
  }
  await expect(nav.getByTestId('nav-email')).toHaveText(user.email)

  await page.setViewportSize({ width: 375, height: 560 })
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
  const menu = page.locator('[data-mobile-menu]')
  await menu.locator('summary').click()
  await expect(menu).toContainText(user.email)
  await menu.getByRole('link', { name: 'Learn SEO' }).click()
  await expect(page).toHaveURL(/\/how-grow$/)
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
})

test('the styles stay from a public page with its inline stylesheet to the signed-in pages @no-js', async ({
  page,
}) => {
  const errors = pageErrors(page)
  const user = await createTestUser({ password: 'a-long-password' })
  // /signin is a public page: its stylesheet is inline (issue 17), the signed-in pages link the file.
  await page.goto('/signin')
  const header = page.locator('header').first()
  await expect(header).toHaveCSS('position', 'sticky')
  await expect(page.locator('style#rw-css')).toHaveCount(1)
  await signInWithForm(page, user.email, 'a-long-password')
  await expect(page).toHaveURL(/\/keywords$/)
  await expect(page.getByRole('heading', { name: 'Keyword Opportunities' })).toBeVisible()
  // With JavaScript the sign-in ends in a client-side navigation: the inline styles of the first page stay in the
  // document (hydration kept them). Without it the new page links the stylesheet. Either way the page is styled.
  await expect(header).toHaveCSS('position', 'sticky')
  await expect(page.locator('[data-help-link]')).toHaveCSS('border-top-style', 'solid')
  if (withJs()) {
    await expect(page.locator('style#rw-css')).toHaveCount(1)
    expect(await page.locator('style#rw-css').evaluate((el) => el.textContent?.length ?? 0)).toBeGreaterThan(10_000)
  } else {
    await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(1)
  }
  expect(errors).toEqual([])
})
