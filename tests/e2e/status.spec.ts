import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { expect, test, type Page } from '#tests/setup/playwright'
import { db, schema } from '#app/platform/db/client.server'
import type { TestUser } from '#tests/setup/app'
import { addKeywords, autopilotWithWebhook, pendingDelivery } from '#tests/setup/records'
import { ownClientIp, pageErrors, signedIn } from '#tests/setup/browser'

/**
 * Issue 35, status everywhere (decision 0351): a keyword row and a library card say where the post stands and link to
 * it; a failed post's 'Try again' works without JavaScript; with it, a post being written and a webhook delivery on
 * its way update on screen by themselves. The rows are made in the database: walking the product to make them adds
 * nothing here (tests/e2e/posts.spec.ts writes a post through the screens).
 */
const withJs = () => test.info().project.name === 'js'

async function signIn(page: Page) {
  await ownClientIp(page)
  return signedIn(page)
}

const MARKDOWN = '# A title\n\nOne two three four five six seven eight nine ten.'

async function seedPosts(user: TestUser, tag: string) {
  const names = ['failed', 'ready', 'waiting', 'scheduled', 'published', 'reviewed', 'fresh'].map((n) => `${n} ${tag}`)
  const kws = await addKeywords(user, names, { source: 'dataforseo', avgMonthlySearches: 500, difficultyScore: 20 })
  const post = (i: number, values: Partial<typeof schema.blogPosts.$inferInsert> = {}) => ({
    userId: user.id,
    keywordId: kws[i]!.id,
    keyword: kws[i]!.keyword,
    requestKey: crypto.randomUUID(),
    title: `A post about ${kws[i]!.keyword}`,
    status: 'completed' as const,
    contentMarkdown: MARKDOWN,
    seoScore: 81,
    ...values,
  })
  const posts = await db
    .insert(schema.blogPosts)
    .values([
      post(0, { status: 'failed', failureReason: 'The AI service did not answer.', contentMarkdown: '' }),
      post(1),
      post(2, { reviewStatus: 'waiting' }),
      post(3, { scheduledPublishAt: new Date('2031-03-04T09:30:00Z'), scheduledTargets: ['webhook'] }),
      post(4),
      post(5, { reviewedAt: new Date() }),
    ])
    .returning()
  const [destination] = await db
    .insert(schema.destinations)
    .values({ userId: user.id, kind: 'wordpress', name: 'Company blog', config: {}, credentials: 'x' })
    .returning()
  await db.insert(schema.publications).values({
    userId: user.id,
    postId: posts[4]!.id,
    destinationId: destination!.id,
    status: 'published',
    remoteUrl: `https://blog.example.com/${tag}`,
    publishedAt: new Date(),
  })
  return { kws, posts }
}

test('keyword rows and library cards show where each post stands and link to it; Try again on a failed post @no-js', async ({
  page,
}) => {
  test.slow() // the retried post is written by the worker
  const errors = pageErrors(page)
  const user = await signIn(page)
  const tag = crypto.randomBytes(3).toString('hex')
  const { kws, posts } = await seedPosts(user, tag)

  await page.goto('/keywords')
  const row = (i: number) => page.locator(`tr[data-keyword="${kws[i]!.keyword}"]`)
  const expected = [
    'Failed',
    'Ready for review',
    'Waiting for your review',
    'Scheduled for Mar 4, 2031, 09:30 AM UTC',
    'Published on Company blog',
    'Reviewed, ready to publish',
  ]
  for (const [i, text] of expected.entries()) {
    await expect(row(i).getByTestId('post-progress')).toHaveText(text)
    await expect(row(i).getByRole('link', { name: 'View post' })).toHaveAttribute('href', `/blogpost/${posts[i]!.id}`)
    await expect(row(i).getByRole('button', { name: 'Create Post' })).toHaveCount(0)
  }
  await expect(row(4).getByRole('link', { name: 'Company blog' })).toHaveAttribute(
    'href',
    `https://blog.example.com/${tag}`,
  )
  // A keyword without a post offers 'Create Post' (the spec's copy), and no state.
  await expect(row(6).getByRole('button', { name: 'Create Post' })).toBeVisible()
  await expect(row(6).getByTestId('post-progress')).toHaveCount(0)

  // The library's cards: score, words, review state, where.
  await page.goto('/blogposts')
  const card = (i: number) => page.locator(`[data-testid="post-card"][data-post-id="${posts[i]!.id}"]`)
  await expect(card(1).getByTestId('seo-score')).toHaveText('SEO 81/100')
  await expect(card(1).getByTestId('word-count')).toHaveText('12 words')
  await expect(card(1).getByTestId('review-state')).toHaveText('Not reviewed')
  await expect(card(2).getByTestId('review-state')).toHaveText('Waiting for your review')
  await expect(card(5).getByTestId('review-state')).toHaveText('Reviewed')
  await expect(card(3).getByTestId('post-progress')).toHaveText('Scheduled for Mar 4, 2031, 09:30 AM UTC')
  await expect(card(4).getByRole('link', { name: 'Company blog' })).toHaveAttribute(
    'href',
    `https://blog.example.com/${tag}`,
  )
  await expect(card(1).getByRole('link', { name: /^Read More/ })).toHaveAttribute('href', `/blogpost/${posts[1]!.id}`)

  // A row links to its post.
  await page.goto('/keywords')
  await row(1).getByRole('link', { name: 'View post' }).click()
  await expect(page).toHaveURL(new RegExp(`/blogpost/${posts[1]!.id}$`))

  // 'Try again' on the failed post's row: back on the list, the row says the post is being written (a form: it works
  // without JavaScript); with JavaScript the row then changes by itself once the post is written.
  await page.goto('/keywords')
  await row(0).getByRole('button', { name: 'Try again' }).click()
  await expect(page).toHaveURL(/\/keywords$/)
  const badge = row(0).getByTestId('post-progress')
  await expect(badge).toHaveAttribute('data-post-state', /writing|ready/)
  if (withJs()) {
    await page.evaluate(() => Object.assign(window, { samePage: true }))
    await expect(badge).toHaveAttribute('data-post-state', 'ready', { timeout: 60_000 })
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
  }
  const [retried] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, posts[0]!.id))
  expect(retried?.status).not.toBe('failed')
  expect(errors).toEqual([])
})

test('Recent deliveries update by themselves while a delivery is on its way', async ({ page }) => {
  const errors = pageErrors(page)
  const user = await signIn(page)
  await autopilotWithWebhook(user)
  const delivery = await pendingDelivery(user)

  await page.goto('/autopilot')
  await expect(page.getByTestId('deliveries-in-flight')).toHaveText(
    'A delivery is on its way: this list updates by itself.',
  )
  const row = page.getByTestId('delivery-row')
  await expect(row).toHaveAttribute('data-status', 'pending')
  await page.evaluate(() => Object.assign(window, { samePage: true }))
  // The endpoint answers (as the worker records it): the list shows it without a reload.
  await db
    .update(schema.webhookDeliveries)
    .set({ status: 'delivered', attempts: 1, lastStatusCode: 200, lastDurationMs: 42, updatedAt: new Date() })
    .where(eq(schema.webhookDeliveries.id, delivery.id))
  await expect(row).toHaveAttribute('data-status', 'delivered', { timeout: 15_000 })
  await expect(row).toContainText('Delivered')
  await expect(page.getByTestId('deliveries-in-flight')).toHaveCount(0)
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
  expect(errors).toEqual([])
})
