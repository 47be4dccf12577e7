import { ownClientIp, pageErrors, signInAs } from '#tests/setup/browser'
import { api, createTestUser } from '#tests/setup/app'
import { doneWith, expect, expectNoSeriousViolations, pageForChecks, test, withJs } from '#tests/setup/screen-checks'

// Issue 38, in the browser, with JavaScript (project `js`) and without (project `no-js`, tagged @no-js): a personal
// API key made on /profile (an error beside the field first), shown once with a way to copy it, listed by its start
// and scopes, working as Bearer, then revoked behind a confirmation; axe on the card.

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

test('create an API key on /profile, see it once, revoke it @no-js', async ({ page }) => {
  const errors = pageErrors(page)
  const user = await createTestUser()
  await signInAs(page, user)
  if (withJs()) await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto('/profile')
  const card = page.getByTestId('api-keys-card')
  await expect(card.getByText('No API keys yet.')).toBeVisible()

  // No name: the message beside the field (from the form's own check with JavaScript, from the server without).
  await card.getByText('Create an API key', { exact: true }).click()
  const form = page.getByRole('form', { name: 'Create an API key' })
  await form.getByRole('button', { name: 'Create key' }).click()
  await expect(form.getByLabel('Key name')).toHaveAccessibleDescription('Key name is required.')

  await form.getByLabel('Key name').fill('Deploy bot')
  await form.getByRole('checkbox', { name: /^Write/ }).check()
  await form.getByRole('button', { name: 'Create key' }).click()
  const shown = card.getByTestId('new-api-key-value')
  await expect(shown).toHaveText(/^rwk_[0-9A-Za-z]{49}$/)
  const key = (await shown.innerText()).trim()
  await expect(card.getByRole('status')).toHaveText('API key created. Copy it now: it is shown only once.')
  const row = card.getByTestId('api-key-row')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('Deploy bot')
  await expect(row).toContainText(`${key.slice(0, 12)}…`)
  await expect(row).toContainText('Scopes: read, write')
  await expect(row).toContainText('never used')
  // Copy: a button with JavaScript; without it the key is plain selectable text.
  const copy = card.getByRole('button', { name: 'Copy' })
  if (withJs()) {
    await copy.click()
    await expect(card.getByRole('button', { name: 'Copied' })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)
  } else await expect(copy).toHaveCount(0)
  const checked = await pageForChecks(page)
  if (!withJs()) await checked.goto('/profile')
  await expectNoSeriousViolations(checked, `/profile API keys (${test.info().project.name})`)
  await doneWith(checked, page)

  // The key is the account's: it reads the API. Shown once: the page again lists it by its start only.
  const me = await api('/api/user', { headers: { Authorization: `Bearer ${key}` } })
  expect([me.status, me.body.email]).toEqual([200, user.email])
  await page.goto('/profile')
  await expect(card.getByTestId('new-api-key-value')).toHaveCount(0)
  expect(await page.content()).not.toContain(key)
  await expect(row).toContainText('last used')

  // Revoke: asked first, then gone from the list, and refused by the API.
  await row.getByText('Revoke', { exact: true }).click()
  await expect(row.getByText('Revoke “Deploy bot”? Whatever uses it stops working at once.')).toBeVisible()
  await row.getByRole('button', { name: 'Revoke key' }).click()
  await expect(page.locator('[data-toast]')).toContainText('API key revoked. It no longer works.')
  await expect(card.getByText('No API keys yet.')).toBeVisible()
  expect((await api('/api/user', { headers: { Authorization: `Bearer ${key}` } })).status).toBe(401)
  expect(errors).toEqual([])
})
