import crypto from 'node:crypto'
import { expect, test, type Page } from '#tests/setup/playwright'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { fakeControl } from '#tests/fakes/client'
import { hydrated, ownClientIp, signedIn } from '#tests/setup/browser'

// The spec's copy, verbatim.
const VALIDATION = 'Please enter a keyword, and select both a country and language.'
const QUOTA =
  'You have reached your trial limit for keyword searches. Please go to your profile to upgrade your subscription.'
const VOLUME_TIP = 'Average monthly search volume for this keyword.'
const DIFFICULTY_TIP = 'Difficulty score for ranking this keyword. New sites should focus in Easy keywords.'

test.beforeEach(async ({ page }) => {
  // Every test is its own client as far as rate limits go.
  await ownClientIp(page)
})

const withJs = () => test.info().project.name === 'js'

function uniqueQuery(base = 'content marketing') {
  const letters = crypto
    .randomBytes(5)
    .toString('hex')
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)
  return `${base} ${letters}`
}

async function usedSearches(userId: string) {
  const [row] = await db
    .select({ n: schema.subscriptions.keywordSearchCount })
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.userId, userId))
  return row!.n
}

async function providerCalls(query: string) {
  const calls = await fakeControl('dataforseo').requests({ method: 'POST', path: 'keyword_ideas' })
  return calls.filter((c) => JSON.stringify(c.body).includes(query)).length
}

/** Holds the browser's search POSTs for a moment, so the busy state can be seen (JavaScript only). */
async function slowSearchPosts(page: Page) {
  await page.route(
    (url) => url.pathname === '/keywords',
    async (route) => {
      if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 1200))
      await route.continue()
    },
  )
}

function row(page: Page, keyword: string) {
  return page.locator(`tr[data-keyword="${keyword}"]`)
}

test.describe('keywords', () => {
  test('search: finds keywords and shows them with date, volume, difficulty and Create Post @no-js', async ({
    page,
  }) => {
    const user = await signedIn(page)
    await page.goto('/keywords')
    await expect(page.getByRole('heading', { level: 1, name: 'Keyword Opportunities' })).toBeVisible()
    await expect(page.getByText(/discover high-impact keywords/i)).toBeVisible()
    const input = page.getByLabel('Keyword/Topic')
    await expect(input).toHaveAttribute('placeholder', 'saas marketing')
    await expect(page.getByLabel('Country', { exact: true })).toHaveValue('2840')
    await expect(page.getByLabel('Language', { exact: true })).toHaveValue('1000')
    await expect(page.getByLabel('Country', { exact: true }).locator('option').first()).toHaveText('Select country')
    await expect(page.getByLabel('Language', { exact: true }).locator('option').first()).toHaveText('Select language')

    const query = uniqueQuery()
    await input.fill(query)
    await page.getByLabel('Country', { exact: true }).selectOption({ label: 'United Kingdom' })
    if (withJs()) await slowSearchPosts(page)
    await page.getByRole('button', { name: 'Find Keywords' }).click()
    if (withJs()) {
      await expect(page.getByRole('heading', { name: 'Analyzing Keywords' })).toBeVisible()
      await expect(page.getByText('Our AI is evaluating search patterns and competition levels...')).toBeVisible()
      await expect(page.getByRole('button', { name: 'Analyzing...' })).toBeDisabled()
    }

    const seed = row(page, query)
    // The search itself (held 1.2 s above, then the provider and the list) can take a while on a loaded machine.
    await expect(seed).toBeVisible({ timeout: 30_000 })
    await expect(page.getByRole('heading', { name: 'Analyzing Keywords' })).toHaveCount(0)
    await expect(page).toHaveURL(/\/keywords$/)
    await expect(page.getByRole('status').filter({ hasText: /Found \d+ keyword ideas/ })).toBeVisible()
    const today = new Date()
    const month = today.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })
    await expect(seed.locator('td').nth(0)).toHaveText(`${month} ${today.getUTCDate()}, ${today.getUTCFullYear()}`)
    await expect(seed).toContainText('United Kingdom · English')
    await expect(seed.locator('td').nth(2)).toHaveText(/^(N\/A|< 10|\d{1,3}(,\d{3})*)$/)
    await expect(seed.locator('td').nth(3)).toContainText(/N\/A|Easy|Medium|Hard|Very Hard/)
    await expect(seed.getByRole('button', { name: 'Create Post' })).toBeVisible()
    for (const name of ['Search Date', 'Keyword', 'Volume', 'Difficulty', 'Action']) {
      await expect(page.getByRole('columnheader', { name: new RegExp(`^${name}`) })).toBeVisible()
    }

    // Accessible tooltips: described buttons, shown on hover and on keyboard focus.
    const volumeTip = page.getByRole('button', { name: 'About Volume' })
    await expect(volumeTip).toHaveAccessibleDescription(VOLUME_TIP)
    await volumeTip.hover()
    await expect(page.getByRole('tooltip', { name: VOLUME_TIP })).toBeVisible()
    const difficultyTip = page.getByRole('button', { name: 'About Difficulty' })
    await expect(difficultyTip).toHaveAccessibleDescription(DIFFICULTY_TIP)
    await difficultyTip.focus()
    await expect(page.getByRole('tooltip', { name: DIFFICULTY_TIP })).toBeVisible()

    // Rows: newest search first, then higher volume.
    const volumes = await page.locator('tbody tr td:nth-child(3)').allTextContents()
    const numbers = volumes.map((v) => (v === 'N/A' ? -1 : v === '< 10' ? 5 : Number(v.replace(/,/g, ''))))
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a))
    expect(await usedSearches(user.id)).toBe(1)
  })

  test('prefill: arriving with a query, country and language runs that search at once @no-js', async ({ page }) => {
    const user = await signedIn(page)
    const query = uniqueQuery('email marketing')
    const params = new URLSearchParams({
      query,
      countryCode: '2826',
      languageCode: '1000',
      countryName: 'United Kingdom',
      languageName: 'English',
      run: '1',
    })
    // A document navigation (as after onboarding without JavaScript): the server runs it and cleans the URL.
    await page.goto(`/keywords?${params}`)
    await expect(page).toHaveURL(/\/keywords$/)
    await expect(row(page, query)).toContainText('United Kingdom · English')
    expect(await usedSearches(user.id)).toBe(1)
    await page.reload()
    await expect(row(page, query)).toBeVisible()
    expect(await usedSearches(user.id)).toBe(1)
    expect(await providerCalls(query)).toBe(1)

    if (withJs()) {
      // A client-side navigation (onboarding with JavaScript redirects this way): the page submits with its overlay.
      const second = uniqueQuery('email marketing')
      params.set('query', second)
      await slowSearchPosts(page)
      await page.evaluate(
        (to) => (window as unknown as { __remixRouter: { navigate: (to: string) => void } }).__remixRouter.navigate(to),
        `/keywords?${params}`,
      )
      // The page submits the search once the navigation has rendered; on a loaded machine (CI's 2 cores running two
      // browsers, the app and its services) that took over 8 s once, so the overlay gets the row's longer wait.
      await expect(page.getByRole('heading', { name: 'Analyzing Keywords' })).toBeVisible({ timeout: 30_000 })
      await expect(page.getByLabel('Keyword/Topic')).toHaveValue(second)
      // The search itself (held 1.2 s above, then the provider and the list) can take a while on a loaded machine.
      await expect(row(page, second)).toBeVisible({ timeout: 30_000 })
      await expect(page).toHaveURL(/\/keywords$/)
      await page.reload()
      await expect(row(page, second)).toBeVisible()
      expect(await usedSearches(user.id)).toBe(2)
      expect(await providerCalls(second)).toBe(1)
    }
  })

  test('validation: an incomplete search shows the message in the dialog @no-js', async ({ page }) => {
    const user = await signedIn(page)
    await page.goto('/keywords')
    await page.getByLabel('Keyword/Topic').fill('')
    await page.getByRole('button', { name: 'Find Keywords' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText(VALIDATION)
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)

    await page.getByLabel('Keyword/Topic').fill('kept query')
    await page.getByLabel('Language', { exact: true }).selectOption('')
    await page.getByRole('button', { name: 'Find Keywords' }).click()
    await expect(page.getByRole('dialog')).toContainText(VALIDATION)
    await expect(page.getByLabel('Keyword/Topic')).toHaveValue('kept query')
    expect(await usedSearches(user.id)).toBe(0)
  })

  test('quota: over the trial limit the dialog offers Upgrade Now to the profile @no-js', async ({ page }) => {
    const user = await signedIn(page)
    await db
      .update(schema.subscriptions)
      .set({ keywordSearchCount: 10 })
      .where(eq(schema.subscriptions.userId, user.id))
    await page.goto('/keywords')
    await page.getByLabel('Keyword/Topic').fill(uniqueQuery())
    await page.getByRole('button', { name: 'Find Keywords' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText(QUOTA)
    const upgrade = dialog.getByRole('link', { name: 'Upgrade Now' })
    await expect(upgrade).toHaveAttribute('href', '/profile')
    await upgrade.click()
    await expect(page).toHaveURL(/\/profile$/)
    expect(await usedSearches(user.id)).toBe(10)
  })

  test('estimates and difficulty: AI estimates carry a marker with a tooltip; bands have their colours', async ({
    page,
  }) => {
    const user = await signedIn(page)
    const base = {
      userId: user.id,
      countryCode: '2840',
      countryName: 'United States',
      languageCode: '1000',
      languageName: 'English',
    }
    const at = new Date()
    await db.insert(schema.savedKeywords).values([
      {
        ...base,
        keyword: 'estimated keyword',
        avgMonthlySearches: 1500,
        difficultyScore: 85,
        source: 'ai_estimate',
        createdAt: at,
      },
      {
        ...base,
        keyword: 'measured keyword',
        avgMonthlySearches: 5,
        difficultyScore: 12,
        source: 'dataforseo',
        createdAt: at,
      },
      {
        ...base,
        keyword: 'unknown keyword',
        avgMonthlySearches: null,
        difficultyScore: null,
        source: 'dataforseo',
        createdAt: at,
      },
      {
        ...base,
        keyword: 'hidden autopilot keyword',
        avgMonthlySearches: 900,
        difficultyScore: 40,
        source: 'dataforseo',
        searchedViaAutoPilot: true,
        createdAt: at,
      },
    ])
    await page.goto('/keywords')
    const estimated = row(page, 'estimated keyword')
    const marker = estimated.getByRole('button', { name: 'Estimate' })
    await expect(marker).toHaveAccessibleDescription(/estimated by AI/)
    await marker.hover()
    await expect(page.getByRole('tooltip', { name: /estimated by AI/ })).toBeVisible()
    await expect(estimated.locator('td').nth(2)).toHaveText('1,500')
    await expect(estimated.locator('[data-difficulty]')).toHaveText('Very Hard')
    await expect(estimated.locator('[data-difficulty]')).toHaveAttribute('data-difficulty', 'red')

    const measured = row(page, 'measured keyword')
    await expect(measured.getByRole('button', { name: 'Estimate' })).toHaveCount(0)
    await expect(measured.locator('td').nth(2)).toHaveText('< 10')
    await expect(measured.locator('[data-difficulty]')).toHaveText('Easy')
    await expect(measured.locator('[data-difficulty]')).toHaveAttribute('data-difficulty', 'green')

    const unknown = row(page, 'unknown keyword')
    await expect(unknown.locator('td').nth(2)).toHaveText('N/A')
    await expect(unknown.locator('[data-difficulty]')).toHaveText('N/A')
    await expect(row(page, 'hidden autopilot keyword')).toHaveCount(0)
    // Same date: higher volume first, unknown last.
    await expect(page.locator('tbody tr')).toHaveCount(3)
    const order = await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-keyword')))
    expect(order).toEqual(['estimated keyword', 'measured keyword', 'unknown keyword'])
  })

  test('a long list shows 50 keywords and Show more, with Loading keywords... while it loads @no-js', async ({
    page,
  }) => {
    const user = await signedIn(page)
    const now = Date.now()
    await db.insert(schema.savedKeywords).values(
      Array.from({ length: 55 }, (_, i) => ({
        userId: user.id,
        keyword: `long list keyword ${i}`,
        countryCode: '2840',
        languageCode: '1000',
        avgMonthlySearches: 100,
        difficultyScore: 50,
        source: 'dataforseo' as const,
        createdAt: new Date(now - i * 1000),
      })),
    )
    await page.goto('/keywords')
    await expect(page.locator('tbody tr')).toHaveCount(50)
    await expect(page.getByText('Showing 50 of 55 keywords')).toBeVisible()
    if (withJs()) {
      // A click before React hydrates is a plain link (a full page load, no 'Loading keywords...').
      await hydrated(page)
      await page.route(
        (url) => url.pathname === '/keywords' && url.searchParams.has('_data'),
        async (route) => {
          await new Promise((r) => setTimeout(r, 1000))
          await route.continue()
        },
      )
    }
    await page.getByRole('link', { name: 'Show more' }).click()
    if (withJs()) await expect(page.getByRole('status').filter({ hasText: 'Loading keywords...' })).toBeVisible()
    await expect(page.locator('tbody tr')).toHaveCount(55)
    await expect(page.getByRole('link', { name: 'Show more' })).toHaveCount(0)
  })
})
