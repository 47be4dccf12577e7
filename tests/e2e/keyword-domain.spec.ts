import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { api } from '#tests/setup/app'
import { hydrated, ownClientIp, pageErrors, signedIn } from '#tests/setup/browser'
import {
  doneWith,
  expect,
  expectFitsTheScreen,
  expectNoSeriousViolations,
  expectWithinWidth,
  pageForChecks,
  PHONE,
  test,
  withJs,
  type Page,
} from '#tests/setup/screen-checks'

/**
 * Issue 36 point 4 in the browser: /keywords/domain, with JavaScript (forms through the router: no full reload, a
 * pending button) and without (@no-js: document posts and redirects): the user's rankings with the quickest wins
 * first, a competitor's gap with its domain checked next to the field, axe on the page; and the lists on a phone.
 */
/** DOMAIN_MESSAGES.path of app/features/keywords/domains.ts (that module reads JSON, which Playwright's loader does not). */
const PATH_MESSAGE = 'Enter a domain like example.com, without a path.'

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

/** A signed-in user whose website is a domain of their own (the DataForSEO fake answers per domain). */
async function userWithSite(page: Page) {
  const tag = crypto.randomBytes(4).toString('hex')
  const user = await signedIn(page)
  const own = `site${tag}.com`
  await db
    .update(schema.users)
    .set({ website: `https://${own}` })
    .where(eq(schema.users.id, user.id))
  return { user, own, rival: `rival-${tag}.com` }
}

/** Holds the page's POSTs to /keywords/domain for a moment, so that the pending button can be seen. */
async function slowPosts(page: Page) {
  await page.route(
    (url) => url.pathname === '/keywords/domain',
    async (route) => {
      if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 800))
      await route.fallback()
    },
  )
}

test('check my rankings, then a competitor’s gap, with a bad domain refused next to the field @no-js', async ({
  page,
}) => {
  const errors = pageErrors(page)
  const { own, rival } = await userWithSite(page)
  await page.goto('/keywords/domain')
  if (withJs()) {
    await hydrated(page)
    await slowPosts(page)
    // A marker on the window: still there after the lookups, so the page was never reloaded.
    await page.evaluate(() => ((window as unknown as { __kept: boolean }).__kept = true))
  }
  await expect(page.getByRole('navigation', { name: 'Keyword research views' })).toBeVisible()
  await expect(page.getByText(own, { exact: true })).toBeVisible()
  // The market defaults to the onboarding one.
  const rankings = page.locator('#domain-rankings')
  await expect(rankings.getByLabel('Country')).toHaveValue('2840')
  await expect(rankings.getByLabel('Language')).toHaveValue('1000')

  const check = page.getByRole('button', { name: 'Check my rankings' })
  await check.click()
  if (withJs()) await expect(page.getByRole('button', { name: 'Checking...' })).toBeDisabled()
  const ranked = page.getByTestId('ranked-keywords').locator('tbody tr')
  await expect(ranked).toHaveCount(12)
  // Striking distance first, each marked 'Quick win'; the page links are nofollow.
  for (let i = 0; i < 6; i++) await expect(ranked.nth(i).getByText('Quick win')).toBeVisible()
  await expect(ranked.nth(6).getByText('Quick win')).toHaveCount(0)
  await expect(ranked.first().locator('td[data-label="Your position"]')).toHaveText('5')
  await expect(ranked.first().getByRole('link').first()).toHaveAttribute('rel', /nofollow/)
  await expect(ranked.first().getByRole('button', { name: 'Create Post' })).toBeVisible()

  // A path is refused next to the field, the input kept.
  const competitor = page.getByLabel('Competitor’s domain')
  await competitor.fill(`${rival}/blog`)
  await page.getByRole('button', { name: 'Find their keywords' }).click()
  await expect(page.getByText(PATH_MESSAGE)).toBeVisible()
  await expect(competitor).toHaveAttribute('aria-invalid', 'true')
  await expect(competitor).toHaveValue(`${rival}/blog`)
  await competitor.fill(`https://www.${rival}/`)
  await page.getByRole('button', { name: 'Find their keywords' }).click()
  if (withJs()) await expect(page.getByRole('button', { name: 'Looking up...' })).toBeDisabled()
  const gap = page.getByTestId('gap-keywords').locator('tbody tr')
  await expect(gap).toHaveCount(12)
  await expect(page.getByLabel('Competitor’s domain')).toHaveValue(rival)
  if (withJs()) expect(await page.evaluate(() => (window as unknown as { __kept?: boolean }).__kept)).toBe(true)

  // A reload shows both lists from the saved rows; axe finds nothing serious.
  await page.goto('/keywords/domain')
  await expect(page.getByTestId('ranked-keywords').locator('tbody tr')).toHaveCount(12)
  await expect(page.getByTestId('gap-keywords').locator('tbody tr')).toHaveCount(12)
  const checked = await pageForChecks(page)
  if (checked !== page) await checked.goto('/keywords/domain')
  await expectNoSeriousViolations(checked, `/keywords/domain (${test.info().project.name})`)
  await doneWith(checked, page)
  expect(errors).toEqual([])
})

test.describe('on a phone', () => {
  test.use({ viewport: PHONE })

  test('the lists stack within the screen, with their position, page and Create Post', async ({ page }) => {
    const { user, own, rival } = await userWithSite(page)
    // The lookups themselves through the API (the browser's part is the page).
    expect((await api(`/api/domain-keywords?domain=${own}`, { as: user })).status).toBe(200)
    expect((await api(`/api/domain-keywords?domain=${rival}`, { as: user })).status).toBe(200)
    await page.goto(`/keywords/domain`)
    await expectFitsTheScreen(page, '/keywords/domain')
    for (const list of ['ranked-keywords', 'gap-keywords']) {
      const row = page.getByTestId(list).locator('tbody tr').first()
      await expectWithinWidth(page, row)
      await expectWithinWidth(page, row.locator('[data-difficulty]'))
      await expectWithinWidth(page, row.getByRole('button', { name: 'Create Post' }))
      await expect(row.locator('td[data-label="Page"] a')).toBeVisible()
    }
  })
})
