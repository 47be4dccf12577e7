import crypto from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import { expect, expectWithinWidth, PHONE, test, withJs, type Page } from '#tests/setup/screen-checks'
import { baseURL, hydrated, ownClientIp, signedIn } from '#tests/setup/browser'

/**
 * Issue 36: the keyword table's optional columns (Intent, CPC, Competition, Trend, SERP features, Position) and the
 * Columns control, with JavaScript (a fetcher: a hidden column goes at once) and without (a form and Save), at
 * desktop and phone width; the sparkline's text alternative; axe.
 */
test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

function uniqueQuery(base: string) {
  const letters = crypto
    .randomBytes(5)
    .toString('hex')
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)
  return `${base} ${letters}`
}

test('columns: show and hide optional columns, the sparkline’s text, phone layout @no-js', async ({ page }) => {
  const user = await signedIn(page)
  const res = await fetch(`${baseURL()}/api/search`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: uniqueQuery('landing page'), countryCode: '2840', languageCode: '1000' }),
  })
  expect(res.status).toBe(200)

  await page.goto('/keywords')
  if (withJs()) await hydrated(page)
  const table = page.getByRole('table')
  const header = (name: string) => table.getByRole('columnheader', { name, exact: false })
  // The spec's five columns first, then the defaults: Intent, CPC, Trend.
  const headers = await table.locator('thead th').allInnerTexts()
  // (Upper case on screen, by CSS.)
  expect(headers.slice(0, 5).map((h) => h.replace(/[▲▼]/g, '').trim().split('\n')[0]!.trim().toLowerCase())).toEqual([
    'search date',
    'keyword',
    'volume',
    'difficulty',
    'action',
  ])
  await expect(header('Intent')).toBeVisible()
  await expect(header('CPC')).toBeVisible()
  await expect(header('SERP features')).toHaveCount(0)
  await expect(
    page.getByRole('img', { name: /^Searches (up \d+%|down \d+%|steady|up from none) over 12 months$/ }).first(),
  ).toBeVisible()
  await expect(
    table
      .locator('td[data-column="cpc"]')
      .filter({ hasText: /^\$\d+\.\d\d$/ })
      .first(),
  ).toBeVisible()

  // Columns: hide CPC, show SERP features.
  await page.getByText('Columns', { exact: true }).click()
  await page.getByRole('checkbox', { name: 'CPC' }).uncheck()
  if (withJs()) await expect(header('CPC')).toHaveCount(0) // at once, before the save returns
  await page.getByRole('checkbox', { name: 'SERP features' }).check()
  if (!withJs()) await page.getByRole('button', { name: 'Save' }).click()
  await expect(header('SERP features')).toBeVisible()
  await expect(header('CPC')).toHaveCount(0)
  await expect(header('Intent')).toBeVisible()
  await page.reload()
  await expect(header('SERP features')).toBeVisible()
  await expect(header('CPC')).toHaveCount(0)
  // axe over the table and its Columns control (the whole screen's axe check is in screens.spec.ts); axe runs in the
  // page, so with JavaScript (the markup is the same without).
  if (withJs()) await expectAxeClean(page)

  // Phone: stacked rows, every optional cell labelled and within the card.
  await page.setViewportSize(PHONE)
  const firstRow = table.locator('tbody tr').first()
  const features = firstRow.locator('td[data-label="SERP features"]')
  await expect(features).toBeVisible()
  await expectWithinWidth(page, features)
  await expectWithinWidth(page, firstRow.locator('td[data-label="Trend"]'))
  await expect(firstRow.locator('td[data-column="intent"]')).toHaveAttribute('data-label', 'Intent')
})

async function expectAxeClean(page: Page) {
  const axe = await new AxeBuilder({ page }).include('section[aria-labelledby="saved-keywords-heading"]').analyze()
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    'axe on the keyword table with optional columns',
  ).toEqual([])
}
