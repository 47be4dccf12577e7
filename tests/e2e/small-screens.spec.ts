import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { ownClientIp, signedIn, signInAs } from '#tests/setup/browser'
import { LONG_WORD } from '#tests/setup/screens'
import { expect, expectFitsTheScreen, expectWithinWidth, PHONE, shoot, test } from '#tests/setup/screen-checks'

// A phone: 390×844 (an iPhone 12–15). Every screen's fit is checked in screens.spec.ts (one visit per screen); here:
// the layouts that need a closer look. Tagged @no-js where the screen's markup depends on hydration (useHydrated) or
// the test submits a form.
test.use({ viewport: PHONE })

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

test.describe('small screens', () => {
  test('the keyword table stacks: Difficulty, Create Post and the star are on screen without a sideways swipe @no-js', async ({
    page,
    seeded,
  }) => {
    await signInAs(page, seeded.user)
    await page.goto('/keywords')
    const rows = page.locator('tbody tr[data-keyword]')
    await expect(rows).toHaveCount(2)
    for (const row of await rows.all()) {
      await expectWithinWidth(page, row)
      await expectWithinWidth(page, row.locator('[data-difficulty]'))
      // 'Create Post', or for the keyword that has a post, the link to it (issue 35).
      await expectWithinWidth(
        page,
        row.getByRole('button', { name: 'Create Post' }).or(row.getByRole('link', { name: 'View post' })),
      )
      await expectWithinWidth(page, row.getByRole('button', { name: 'Track', exact: true }))
      await expectWithinWidth(page, row.getByRole('button', { name: 'Delete' }))
      await expectWithinWidth(page, row.getByRole('checkbox'))
    }
    // The long keyword wraps within its row.
    await expectWithinWidth(page, page.locator(`tr[data-keyword="${LONG_WORD}"] td`).nth(1))
    // The cells say what they are (the header row is a row of sort links at this width).
    await expect(rows.first().locator('td[data-label="Difficulty"]')).toBeVisible()
    await expectWithinWidth(page, page.getByRole('link', { name: /Difficulty/ }))
    await expectFitsTheScreen(page, '/keywords')
    await shoot(page, 'keywords')
  })

  test('a new account: the empty states are not clipped @no-js', async ({ page }) => {
    const user = await signedIn(page)
    await page.goto('/keywords')
    const empty = page.getByText('No keywords yet. Search for a keyword or topic', { exact: false })
    await expectWithinWidth(page, empty)
    // Not clipped: the text's own box is no wider than what shows of it.
    expect(await empty.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true)
    await expectFitsTheScreen(page, '/keywords')
    await shoot(page, 'keywords, empty')

    await db.update(schema.autopilotSettings).set({ enabled: true }).where(eq(schema.autopilotSettings.userId, user.id))
    await page.goto('/autopilot')
    for (const text of ['No keywords yet. Auto Pilot picks one at its next run.', 'No deliveries yet.']) {
      const cell = page.getByText(text, { exact: true })
      await expectWithinWidth(page, cell)
      expect(await cell.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true)
    }
    await expectFitsTheScreen(page, '/autopilot')
  })

  test('Auto Pilot: business details stacked, status and deliveries tables stacked with their actions on screen @no-js', async ({
    page,
    seeded,
  }) => {
    await signInAs(page, seeded.user)
    await page.goto('/autopilot')

    // Each label sits above its value: their boxes do not overlap.
    const details = page.locator('section', { has: page.getByRole('heading', { name: 'Business Details' }) })
    for (const label of ['Website', 'Ideal Customer', 'Product/Service', 'Country', 'Language']) {
      const term = details.locator('dt', { hasText: label })
      const value = term.locator('xpath=following-sibling::dd[1]')
      const a = (await term.boundingBox())!
      const b = (await value.boundingBox())!
      const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
      expect(overlap, `${label} collides with its value`).toBe(false)
      await expectWithinWidth(page, value)
    }

    const status = page.getByTestId('status-row').first()
    await expectWithinWidth(page, status)
    await expectWithinWidth(page, status.locator('td[data-label="Difficulty"]'))
    await expectWithinWidth(page, status.getByRole('link', { name: 'View Post' }))
    const delivery = page.getByTestId('delivery-row').first()
    await expectWithinWidth(page, delivery)
    await expectWithinWidth(page, delivery.getByRole('button', { name: 'Redeliver' }))
    await expectWithinWidth(page, delivery.locator('td[data-label="Error"]'))
    await expectWithinWidth(page, page.getByRole('button', { name: 'Auto Pilot', exact: true }))
    await expectFitsTheScreen(page, '/autopilot')
    await shoot(page, 'autopilot')
  })

  test('a toast shows below the navigation bar, never over it @no-js', async ({ page }) => {
    await signedIn(page)
    await page.goto('/autopilot')
    await page.getByRole('button', { name: 'Auto Pilot', exact: true }).click()
    const toast = page.locator('[data-toast]').filter({ hasText: 'Auto Pilot Enabled.' })
    await expect(toast).toBeVisible()
    const nav = (await page.locator('header').first().boundingBox())!
    const box = (await toast.boundingBox())!
    expect(box.y).toBeGreaterThanOrEqual(nav.y + nav.height)
    await expectWithinWidth(page, toast)
    // The menu stays usable while the toast shows.
    await page.locator('[data-mobile-menu] > summary').click()
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' })).toBeVisible()
    await shoot(page, 'toast')
  })
})
