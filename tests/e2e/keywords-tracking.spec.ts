import crypto from 'node:crypto'
import { expect, test, type Page } from '#tests/setup/playwright'
import { and, eq } from 'drizzle-orm'
import { RANKINGS_MESSAGES, TRACKED_KEYWORD_LIMITS } from '#app/features/rankings/rankings'
import { db, schema } from '#app/platform/db/client.server'
import { hydrated, ownClientIp, pageErrors, signedIn } from '#tests/setup/browser'

/**
 * The star on /keywords (issue 16 point 1): a saved keyword is tracked from its row, shows on /rankings, and is
 * untracked again; over the plan's limit the refusal says so and the star goes back. With JavaScript (a fetcher, the
 * star changing at once) and without (a form post to /rankings that comes back to the same list).
 */
const withJs = () => test.info().project.name === 'js'

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

async function saveKeywords(userId: string, keywords: string[]) {
  return db
    .insert(schema.savedKeywords)
    .values(
      keywords.map((keyword) => ({
        userId,
        keyword,
        countryCode: '2840',
        countryName: 'United States',
        languageCode: '1000',
        languageName: 'English',
        source: 'dataforseo' as const,
      })),
    )
    .returning()
}

/** Opens a page; with JavaScript, waits until React has hydrated it (so the star is a fetcher). */
async function open(page: Page, path: string) {
  await page.goto(path)
  if (withJs()) await hydrated(page)
}

/** Holds the browser's POSTs to /rankings for a moment, so the star's pending state can be seen. */
async function slowTrackPosts(page: Page) {
  await page.route(
    (url) => url.pathname === '/rankings',
    async (route) => {
      if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 1000))
      await route.fallback()
    },
  )
}

const star = (page: Page, keyword: string) =>
  page.locator(`tr[data-keyword="${keyword}"]`).getByRole('button', { name: 'Track', exact: true })

async function starred(userId: string, savedKeywordId: string) {
  return db
    .select({ id: schema.trackedKeywords.id })
    .from(schema.trackedKeywords)
    .where(
      and(
        eq(schema.trackedKeywords.userId, userId),
        eq(schema.trackedKeywords.savedKeywordId, savedKeywordId),
        eq(schema.trackedKeywords.starred, true),
      ),
    )
}

test.describe('keywords: tracking stars', () => {
  test('star a saved keyword on /keywords, see it on /rankings, then stop tracking it @no-js', async ({ page }) => {
    const errors = pageErrors(page)
    const user = await signedIn(page)
    const tag = crypto.randomBytes(3).toString('hex')
    const keyword = `starred idea ${tag}`
    const [saved] = await saveKeywords(user.id, [keyword, `other idea ${tag}`])
    // A filtered, sorted list: the star brings the user back to this very list.
    const list = `/keywords?q=${tag}&sort=keyword&order=asc`
    await open(page, list)
    const button = star(page, keyword)
    await expect(button).toHaveAttribute('aria-pressed', 'false')
    await expect(button).toHaveAccessibleDescription(keyword)
    await expect(star(page, `other idea ${tag}`)).toHaveAttribute('aria-pressed', 'false')

    if (withJs()) await slowTrackPosts(page)
    await button.click()
    // With JavaScript the star changes while the request is on its way; without, after the post and its redirect.
    await expect(button).toHaveAttribute('aria-pressed', 'true')
    await expect(page.getByRole('status').filter({ hasText: RANKINGS_MESSAGES.tracked })).toBeVisible()
    await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === list)
    await expect(star(page, `other idea ${tag}`)).toHaveAttribute('aria-pressed', 'false')
    await expect.poll(async () => (await starred(user.id, saved!.id)).length).toBe(1)

    // A reload shows the server's state.
    await open(page, list)
    await expect(star(page, keyword)).toHaveAttribute('aria-pressed', 'true')

    await page.goto('/rankings')
    // Starred: listed with its own 'Stop tracking' (the daily check it asked for may have run already).
    const row = page.getByTestId('ranking-row').filter({ hasText: keyword })
    await expect(row.getByRole('button', { name: `Stop tracking “${keyword}”` })).toBeVisible()
    await expect(page.getByTestId('ranking-row').filter({ hasText: `other idea ${tag}` })).toHaveCount(0)

    await open(page, list)
    await star(page, keyword).click()
    await expect(star(page, keyword)).toHaveAttribute('aria-pressed', 'false')
    await expect(page.getByRole('status').filter({ hasText: RANKINGS_MESSAGES.untracked })).toBeVisible()
    await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === list)
    await expect.poll(async () => (await starred(user.id, saved!.id)).length).toBe(0)
    await page.goto('/rankings')
    await expect(page.getByTestId('ranking-row').filter({ hasText: keyword })).toHaveCount(0)
    expect(errors).toEqual([])
  })

  test("over the plan's limit the star is refused with the limit message and goes back @no-js", async ({ page }) => {
    const user = await signedIn(page)
    const tag = crypto.randomBytes(3).toString('hex')
    const limit = TRACKED_KEYWORD_LIMITS.trial
    await db.insert(schema.trackedKeywords).values(
      Array.from({ length: limit }, (_, i) => ({
        userId: user.id,
        keyword: `already tracked ${tag} ${i}`,
        keywordNorm: `already tracked ${tag} ${i}`,
        countryCode: '2840',
        languageCode: '1000',
        countryName: 'United States',
        starred: true,
      })),
    )
    const keyword = `one too many ${tag}`
    const [saved] = await saveKeywords(user.id, [keyword])
    await open(page, '/keywords')
    const button = star(page, keyword)
    await expect(button).toHaveAttribute('aria-pressed', 'false')
    if (withJs()) {
      await slowTrackPosts(page)
      await button.click()
      await expect(button).toHaveAttribute('aria-pressed', 'true')
    } else {
      await button.click()
    }
    await expect(page.locator('[data-toast="error"]').filter({ hasText: RANKINGS_MESSAGES.limit(limit) })).toBeVisible()
    await expect(button).toHaveAttribute('aria-pressed', 'false')
    await expect(page).toHaveURL(/\/keywords$/)
    expect(await starred(user.id, saved!.id)).toHaveLength(0)
    const rows = await db.select().from(schema.trackedKeywords).where(eq(schema.trackedKeywords.userId, user.id))
    expect(rows).toHaveLength(limit)
  })

  test('the star is a plain form to /rankings; with JavaScript a failed request goes back and says so @no-js', async ({
    page,
  }) => {
    const user = await signedIn(page)
    const keyword = `failing star ${crypto.randomBytes(3).toString('hex')}`
    const [saved] = await saveKeywords(user.id, [keyword])
    await open(page, '/keywords?show=100')
    // What a browser without JavaScript posts: the keyword, the intent, and the list to come back to.
    const form = page.locator(`tr[data-keyword="${keyword}"] form[action="/rankings"]`)
    await expect(form).toHaveAttribute('method', 'post')
    await expect(form.locator('input[name="keywordId"]')).toHaveValue(saved!.id)
    await expect(form.locator('input[name="returnTo"]')).toHaveValue('/keywords?show=100')
    await expect(star(page, keyword)).toHaveAttribute('value', 'track')
    await expect(form.locator('input[name="respond"]')).toHaveCount(withJs() ? 1 : 0)
    if (withJs()) {
      await page.route(
        (url) => url.pathname === '/rankings' && url.searchParams.has('_data'),
        (route) => (route.request().method() === 'POST' ? route.abort('connectionreset') : route.fallback()),
      )
      await star(page, keyword).click()
      await expect(
        page.locator('[data-toast="error"]').filter({ hasText: RANKINGS_MESSAGES.trackFailed }),
      ).toBeVisible()
      await expect(star(page, keyword)).toHaveAttribute('aria-pressed', 'false')
      await expect(page.getByText('Unexpected Application Error!')).toHaveCount(0)
    }
    expect(await starred(user.id, saved!.id)).toHaveLength(0)
  })
})
