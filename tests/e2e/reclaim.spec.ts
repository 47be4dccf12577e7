import crypto from 'node:crypto'
import { expect, test } from '#tests/setup/playwright'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { encryptSecret } from '#app/platform/security/crypto.server'
import { waitForSmtpMessage } from '#tests/fakes/client'
import { createTestUser } from '#tests/setup/app'

// Issue 34, in the browser (project `js`, and `no-js` by the tag): the owner who takes over an unverified account
// with a reset link is told what whoever created it had left and was removed.

test.beforeEach(async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `10.79.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 255)}` })
})

test('a reset of an unverified account lists what was removed @no-js', async ({ page }) => {
  const squatted = await createTestUser({ verified: false })
  await db.insert(schema.contentSettings).values({ userId: squatted.id, ctaUrl: 'https://attacker.example/buy' })
  for (const name of ['Their blog', 'Their other blog'])
    await db.insert(schema.destinations).values({
      userId: squatted.id,
      kind: 'ghost',
      name,
      config: { adminUrl: 'https://attacker.example' },
      credentials: encryptSecret(`${'a'.repeat(24)}:${'b'.repeat(64)}`),
    })

  await page.goto('/forgot-password')
  await page.getByLabel('Email').fill(squatted.email)
  await page.getByRole('button', { name: 'Send the reset link' }).click()
  await expect(page.getByTestId('form-message')).toContainText('If an account exists for that address')
  const mail = await waitForSmtpMessage({ to: squatted.email, predicate: (m) => m.text.includes('/reset-password') })
  const link = new URL(/https?:\/\/[^\s]+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(mail.text)![0])
  await page.goto(`${link.pathname}${link.search}`)
  await page.getByLabel('New password', { exact: true }).fill('owner-password-e2e')
  await page.getByRole('button', { name: 'Save the new password' }).click()
  await expect(page).toHaveURL(/\/signin$/)
  const toast = page.locator('[data-toast]')
  await expect(toast).toContainText('Nobody had verified this account, so it is now yours alone')
  await expect(toast).toContainText(
    'The settings left by whoever created it were removed: the business details (website, product, customers), ' +
      'the content settings (call-to-action, voice) and 2 publishing destinations.',
  )
  expect(await db.select().from(schema.destinations).where(eq(schema.destinations.userId, squatted.id))).toHaveLength(0)
})
