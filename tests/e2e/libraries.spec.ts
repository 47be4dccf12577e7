import crypto from 'node:crypto'
import { expect, test, type Page } from '#tests/setup/playwright'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import type { TestUser } from '#tests/setup/app'
import { hydrated, ownClientIp, pageErrors, signedIn } from '#tests/setup/browser'

/** Issue 21: the library and keyword screens at size, with JavaScript on and off. */
const withJs = () => test.info().project.name === 'js'
const BASE = Date.parse('2026-01-01T00:00:00Z')

async function signIn(page: Page) {
  await ownClientIp(page)
  return signedIn(page)
}

async function addPosts(user: TestUser, count: number, tag: string) {
  await db.insert(schema.blogPosts).values(
    Array.from({ length: count }, (_, i) => ({
      userId: user.id,
      requestKey: `e2e-${i}-${crypto.randomUUID()}`,
      keyword: `keyword ${i}`,
      title: i % 10 === 3 ? `Growth guide ${tag} ${i}` : `Library post ${i}`,
      status: i === 5 ? ('failed' as const) : ('completed' as const),
      failureReason: i === 5 ? 'The AI service did not answer after several attempts.' : null,
      contentMarkdown: `# Library post ${i}\n\nThe body of post ${i}.`,
      createdAt: new Date(BASE - i * 60_000),
    })),
  )
}

test('the library pages through every post, searches, filters and deletes with a confirmation @no-js', async ({
  page,
}) => {
  const errors = pageErrors(page)
  const user = await signIn(page)
  const tag = `lib${crypto.randomBytes(3).toString('hex')}`
  await addPosts(user, 45, tag)

  await page.goto('/blogposts')
  await expect(page.getByRole('heading', { name: 'Your SEO Content Library' })).toBeVisible()
  await expect(page.getByTestId('post-total')).toHaveText('45 posts')
  const cards = page.getByTestId('post-card')
  await expect(cards).toHaveCount(20)
  await expect(cards.first()).toContainText('Library post 0')

  // Every post is reachable: 'Load more' appends with JavaScript, and is a link to the next page without it.
  if (withJs()) await hydrated(page)
  await page.getByRole('link', { name: 'Load more' }).click()
  if (withJs()) {
    await expect(cards).toHaveCount(40)
    await page.getByRole('link', { name: 'Load more' }).click()
    await expect(cards).toHaveCount(45)
    await expect(page).toHaveURL(/\/blogposts$/)
  } else {
    await expect(page).toHaveURL(/cursor=/)
    await expect(cards).toHaveCount(20)
    await expect(cards.first()).toContainText('Library post 20')
    await page.getByRole('link', { name: 'Load more' }).click()
    await expect(cards).toHaveCount(5)
  }
  await expect(cards.last()).toContainText('Library post 44')
  await expect(page.getByRole('link', { name: 'Load more' })).toHaveCount(0)

  // Search and filters live in the URL.
  await page.goto('/blogposts')
  // Typed at once, before the page has hydrated: hydration keeps it.
  await page.getByLabel('Search', { exact: true }).fill(tag)
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`q=${tag}`))
  await expect(page.getByTestId('post-total')).toHaveText('5 posts match your search')
  await expect(cards).toHaveCount(5)
  await page.locator('select[name="status"]').selectOption('failed')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page).toHaveURL(/status=failed/)
  await expect(page.getByText('No blog posts match your search.')).toBeVisible()
  await page.getByRole('link', { name: 'Clear' }).click()
  // The cleared page must have arrived before the form is filled again (its navigation would reset the select).
  await expect(page).not.toHaveURL(/status=failed/)
  await expect(cards).toHaveCount(20)
  await page.locator('select[name="status"]').selectOption('failed')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(cards).toHaveCount(1)
  await expect(cards.first()).toContainText('Library post 5')

  // Delete, with the confirm dialog (the spec's: a message, 'Close' and the action button).
  const target = cards.first()
  await target.getByRole('link', { name: /^Delete/ }).click()
  const dialog = page.getByTestId('confirm-dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('Library post 5')
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(cards).toHaveCount(1)
  await target.getByRole('link', { name: /^Delete/ }).click()
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Blog post deleted.' })).toBeVisible()
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0)
  await expect(page.getByText('No blog posts match your search.')).toBeVisible()
  const left = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))
  expect(left).toHaveLength(44)
  expect(left.some((p) => p.title === 'Library post 5')).toBe(false)
  // Every page the server rendered hydrated without a mismatch (the failed post's 'Try again' form once sat inside a
  // <p>, which the browser's parser splits: React error #418 on every load of /blogposts).
  expect(errors).toEqual([])
})

test('the keyword table searches, filters, sorts, deletes and creates posts in bulk, with the state in the URL @no-js', async ({
  page,
}) => {
  const user = await signIn(page)
  const tag = `kw${crypto.randomBytes(3).toString('hex')}`
  await db.insert(schema.savedKeywords).values(
    Array.from({ length: 8 }, (_, i) => ({
      userId: user.id,
      keyword: `${i < 4 ? 'alpha' : 'beta'} ${tag} ${i}`,
      countryCode: i === 7 ? '2276' : '2840',
      countryName: i === 7 ? 'Germany' : 'United States',
      languageCode: i === 7 ? '1001' : '1000',
      languageName: i === 7 ? 'German' : 'English',
      avgMonthlySearches: (i + 1) * 100,
      difficultyScore: i * 12,
      source: 'dataforseo' as const,
      createdAt: new Date(BASE - i * 60_000),
    })),
  )
  const rows = page.locator('tbody tr[data-keyword]')

  await page.goto('/keywords')
  await expect(rows).toHaveCount(8)
  await expect(rows.first()).toHaveAttribute('data-keyword', `alpha ${tag} 0`)

  // Sorting by a column header, then reversed.
  await page.getByRole('link', { name: 'Volume', exact: true }).click()
  await expect(page).toHaveURL(/sort=volume/)
  await expect(rows.first()).toHaveAttribute('data-keyword', `beta ${tag} 7`)
  await page.getByRole('link', { name: 'Volume', exact: true }).click()
  await expect(page).toHaveURL(/order=asc/)
  await expect(rows.first()).toHaveAttribute('data-keyword', `alpha ${tag} 0`)

  // Search and filters (the sort is kept).
  await page.getByLabel('Search keywords').fill('alpha')
  await page.getByLabel('Difficulty band').selectOption('easy')
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL(/q=alpha/)
  await expect(page).toHaveURL(/sort=volume/)
  await expect(rows).toHaveCount(3) // difficulty 0, 12, 24
  await page.getByLabel('Difficulty band').selectOption('')
  await page.getByLabel('Search keywords').fill('')
  await page.getByLabel('Market country').selectOption('2276')
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toHaveAttribute('data-keyword', `beta ${tag} 7`)
  await page.getByLabel('Market country').selectOption('')
  await page.getByLabel('Min volume').fill('100000')
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page.getByText('No saved keywords match your search.')).toBeVisible()
  await page.getByRole('link', { name: 'Clear' }).click()
  await expect(rows).toHaveCount(8)

  // Delete one row (the confirm dialog with JavaScript; the plain form without).
  await rows
    .filter({ hasText: `beta ${tag} 6` })
    .getByRole('button', { name: /^Delete/ })
    .click()
  if (withJs()) {
    const dialog = page.getByTestId('confirm-dialog')
    await expect(dialog).toContainText('Delete this keyword')
    await dialog.getByRole('button', { name: 'Delete' }).click()
  }
  await expect(page.getByRole('status').filter({ hasText: 'Keyword deleted.' })).toBeVisible()
  await expect(rows).toHaveCount(7)

  // Select two and create their posts in one action.
  await page.getByLabel(`Select alpha ${tag} 1`).check()
  await page.getByLabel(`Select alpha ${tag} 2`).check()
  await page.getByRole('button', { name: 'Create posts' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Your post is being generated!' })).toBeVisible()
  const posts = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))
  expect(posts.map((p) => p.keyword).sort()).toEqual([`alpha ${tag} 1`, `alpha ${tag} 2`])

  // Delete the selected ones.
  await page.getByLabel(`Select beta ${tag} 4`).check()
  await page.getByLabel(`Select beta ${tag} 5`).check()
  await page.getByRole('button', { name: 'Delete selected' }).click()
  if (withJs()) {
    const dialog = page.getByTestId('confirm-dialog')
    await expect(dialog).toContainText('Delete 2 keywords')
    await dialog.getByRole('button', { name: 'Delete' }).click()
  }
  await expect(page.getByRole('status').filter({ hasText: '2 keywords deleted.' })).toBeVisible()
  await expect(rows).toHaveCount(5)
})
