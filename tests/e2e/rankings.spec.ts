import crypto from 'node:crypto'
import { expect, test } from '#tests/setup/playwright'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { signedIn } from '#tests/setup/browser'

/**
 * /rankings with JavaScript on and off: the table, the server-rendered SVG chart (a screenshot of it against the
 * stored one), the text alternative, the tooltip (JavaScript only) and tracking a saved keyword with a plain form.
 * Positions are written to the database by the test (what the daily job stores), on fixed days.
 */
const DAYS = 30

test('rankings table, chart and tracking @no-js', async ({ page }) => {
  const js = test.info().project.name === 'js'
  const user = await signedIn(page)
  const tag = crypto.randomBytes(3).toString('hex')
  await db
    .update(schema.users)
    .set({ website: `https://e2e-${tag}.example` })
    .where(eq(schema.users.id, user.id))
  const keyword = `chart keyword ${tag}`
  const [tracked] = await db
    .insert(schema.trackedKeywords)
    .values({
      userId: user.id,
      keyword,
      keywordNorm: keyword,
      countryCode: '2840',
      languageCode: '1000',
      countryName: 'United States',
      starred: true,
      bestPosition: 4,
    })
    .returning()
  const positions = Array.from({ length: DAYS }, (_, i) => {
    const day = new Date(Date.UTC(2031, 0, 1 + i)).toISOString().slice(0, 10)
    if (i === 12) return { trackedKeywordId: tracked!.id, day, status: 'error' as const }
    if (i < 4) return { trackedKeywordId: tracked!.id, day, status: 'not_ranked' as const }
    const position = Math.max(3, 33 - i)
    return { trackedKeywordId: tracked!.id, day, status: 'ranked' as const, position, url: `https://e2e.example/p` }
  })
  await db.insert(schema.keywordPositions).values(positions)
  const saved = `saved keyword ${tag}`
  await db.insert(schema.savedKeywords).values({
    userId: user.id,
    keyword: saved,
    countryCode: '2840',
    countryName: 'United States',
    languageCode: '1000',
    languageName: 'English',
    source: 'dataforseo',
  })

  await page.goto('/rankings')
  await expect(page.getByRole('heading', { name: 'Rankings', level: 1 })).toBeVisible()
  const row = page.getByTestId('ranking-row').filter({ hasText: keyword })
  await expect(row.getByTestId('ranking-position')).toHaveText('4')
  await expect(row).toContainText('▲ 7')
  await expect(row.getByTestId('sparkline')).toBeVisible()

  // The chart: an SVG drawn on the server, described in text, with the failed day as a gap.
  await row.getByRole('link', { name: keyword }).click()
  await expect(page).toHaveURL(new RegExp(`keyword=${tracked!.id}`))
  const chart = page.getByTestId('position-chart')
  await expect(chart.getByRole('img', { name: `Position of “${keyword}” over time` })).toBeVisible()
  await expect(chart.locator('figcaption')).toContainText('best 4; 1 day without a check.')
  await expect(chart.getByTestId('position-chart-svg')).toHaveScreenshot('position-chart.png', {
    maxDiffPixelRatio: 0.02,
  })
  if (js) {
    const area = chart.getByTestId('chart-hover-area')
    const box = (await area.boundingBox())!
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2)
    await expect(chart.getByTestId('chart-tooltip')).toHaveText('2031-01-30: 4')
  } else {
    await expect(chart.getByTestId('chart-hover-area')).toHaveCount(0)
  }

  // Track a saved keyword with the plain form (a fetcher-free POST), then see it in the table.
  await page.goto('/rankings')
  await page.locator('select[name="keywordId"]').selectOption({ label: `${saved} (United States)` })
  await page.getByRole('button', { name: 'Track keyword' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Keyword tracked.' })).toBeVisible()
  await expect(page.getByTestId('ranking-row').filter({ hasText: saved })).toContainText('Not checked yet')

  // The profile shows the usage against the plan.
  await page.goto('/profile')
  await expect(page.getByTestId('tracked-usage')).toHaveText('Tracked keywords: 2 of 10')
})
