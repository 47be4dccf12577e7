import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { expect, test } from '#tests/setup/playwright'
import { db, schema } from '#app/platform/db/client.server'
import { serpControl } from '#tests/fakes/client'
import { hydrated, ownClientIp, pageErrors, signedIn } from '#tests/setup/browser'
import {
  DESKTOP,
  doneWith,
  expectFitsTheScreen,
  expectNoSeriousViolations,
  pageForChecks,
  PHONE,
} from '#tests/setup/screen-checks'

/**
 * /keywords/clusters (issue 36, point 3): a run in progress says so (and, with JavaScript, the page updates itself;
 * without, it says to reload); 'Group by topic' groups the saved keywords whose top 10 share pages (the DataForSEO
 * fake's placements) into a card with the main keyword, total volume and members; 'Create Post' writes one post for
 * the main keyword that also covers its siblings. With JavaScript at desktop width, without at phone width.
 */
const withJs = () => test.info().project.name === 'js'

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

test('groups keywords by topic and writes one post for a cluster @no-js', async ({ page }) => {
  test.setTimeout(90_000)
  const errors = pageErrors(page)
  await page.setViewportSize(withJs() ? DESKTOP : PHONE)
  const user = await signedIn(page)
  const t = crypto.randomBytes(4).toString('hex')
  const words = { a: `crm software ${t}`, b: `best crm ${t}`, c: `crm tools ${t}`, d: `sourdough starter ${t}` }
  const serp = serpControl()
  const shared = Array.from({ length: 4 }, (_, i) => `https://shared-${t}.test/crm/${i + 1}`)
  for (const keyword of [words.a, words.b, words.c])
    for (const [i, url] of shared.entries()) await serp.place({ keyword, url, position: i + 1 })
  const volumes = { a: 900, b: 2400, c: 300, d: 50 }
  for (const key of ['a', 'b', 'c', 'd'] as const)
    await db.insert(schema.savedKeywords).values({
      userId: user.id,
      keyword: words[key],
      countryCode: '2840',
      countryName: 'United States',
      languageCode: '1000',
      languageName: 'English',
      source: 'dataforseo',
      avgMonthlySearches: volumes[key],
    })

  // A run in progress (its job elsewhere): the page says so; with JavaScript it updates itself when the run ends.
  const [busy] = await db
    .insert(schema.keywordClusterRuns)
    .values({
      userId: user.id,
      countryCode: '2840',
      languageCode: '1000',
      status: 'running',
      keywordCount: 4,
      fetchedCount: 1,
    })
    .returning()
  await page.goto('/keywords/clusters')
  if (withJs()) await hydrated(page)
  await expect(page.getByRole('heading', { name: 'Keyword Clusters', level: 1 })).toBeVisible()
  await expect(
    page.getByRole('navigation', { name: 'Keyword research views' }).getByRole('link', { name: 'Clusters' }),
  ).toHaveAttribute('aria-current', 'page')
  await expect(page.getByLabel('Market')).toHaveValue('2840|1000')
  const status = page.getByTestId('cluster-run')
  await expect(status).toContainText('Grouping your keywords by topic: 1 of 4 results pages read.')
  await expect(status).toContainText(withJs() ? 'This page updates by itself.' : 'Reload the page to see the result.')
  await db
    .update(schema.keywordClusterRuns)
    .set({ status: 'done', finishedAt: new Date() })
    .where(eq(schema.keywordClusterRuns.id, busy!.id))
  if (withJs()) await expect(status).toHaveCount(0, { timeout: 10_000 })
  else await page.reload()
  await expect(page.getByTestId('without-serp')).toContainText('4 keywords have no results page yet')

  // Group by topic: the worker reads the four results pages; the cluster appears.
  await page.getByRole('button', { name: 'Group by topic' }).click()
  const card = page.getByTestId('cluster')
  if (withJs()) await expect(card).toHaveCount(1, { timeout: 20_000 })
  else
    await expect(async () => {
      await page.reload()
      await expect(card).toHaveCount(1, { timeout: 500 })
    }).toPass({ timeout: 20_000 })
  await expect(card.getByRole('heading', { name: words.b })).toBeVisible()
  await expect(card.getByTestId('cluster-volume')).toHaveText('3,600')
  await expect(card.getByTestId('cluster-member')).toHaveText([`${words.a}900`, `${words.c}300`])
  await expect(page.getByText('1 keyword is on a topic of its own')).toBeVisible()
  // Layout and axe on the page as the browser shows it (without JavaScript: the server's HTML, axe run over DevTools).
  const checked = await pageForChecks(page)
  if (checked !== page) await checked.goto('/keywords/clusters')
  await expectFitsTheScreen(checked, '/keywords/clusters')
  await expectNoSeriousViolations(checked, `/keywords/clusters (${withJs() ? 'desktop' : 'phone, no JavaScript'})`)
  await doneWith(checked, page)

  // Create Post: one post for the main keyword, covering its siblings.
  await card.getByRole('button', { name: 'Create Post' }).click()
  await expect(page).toHaveURL(/\/blogpost\/[0-9a-f-]{36}$/)
  await expect(page.getByTestId('post-also-covers')).toHaveText(`Also covers: ${words.a}, ${words.c}`)
  const postId = page.url().split('/').pop()!
  const [post] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, postId))
  expect(post).toMatchObject({ keyword: words.b, secondaryKeywords: [words.a, words.c] })

  // Back on the clusters, the card shows its post instead of 'Create Post'.
  await page.goto('/keywords/clusters')
  await expect(card.getByTestId('post-progress')).toBeVisible()
  await expect(card.getByRole('link', { name: 'View post' })).toHaveAttribute('href', `/blogpost/${postId}`)
  await expect(card.getByRole('button', { name: 'Create Post' })).toHaveCount(0)
  expect(errors).toEqual([])
})
