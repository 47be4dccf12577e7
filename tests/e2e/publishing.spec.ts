import { expect, test } from '#tests/setup/playwright'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { ownClientIp, signedIn } from '#tests/setup/browser'
import { ghostKey, ghostPosts, makePost } from '../integration/publishing-helpers'

const withJs = () => test.info().project.name === 'js'

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

test.describe('publishing', () => {
  test('adds a Ghost destination (a wrong key keeps the form and says why), then publishes a post to it @no-js', async ({
    page,
  }) => {
    const user = await signedIn(page)
    await page.goto('/settings/publishing')
    await expect(page.getByRole('heading', { level: 1, name: 'Publishing' })).toBeVisible()
    await page.getByRole('link', { name: 'Add Ghost' }).click()
    await page.getByLabel('Name (optional)').fill('Team blog')
    await page.getByLabel('Admin API URL').fill(process.env.FAKE_GHOST_URL!)
    await page.getByLabel('Admin API key').fill(`${'a'.repeat(24)}:${'b'.repeat(64)}`)
    await page.getByRole('button', { name: 'Test connection and save' }).click()
    await expect(page.getByTestId('destination-error')).toHaveText('Ghost refused the Admin API key.')
    await expect(page.getByLabel('Name (optional)')).toHaveValue('Team blog')
    await expect(page.getByLabel('Admin API key')).toHaveValue('')

    await page.getByLabel('Admin API key').fill(await ghostKey())
    await page.getByRole('button', { name: 'Test connection and save' }).click()
    await expect(page.locator('[data-toast]').filter({ hasText: 'Connected to Fake Ghost Blog' })).toBeVisible()
    await expect(page.getByTestId('destination-list')).toContainText('Team blog')

    const post = await makePost(user)
    await page.goto(`/blogpost/${post.id}`)
    await page.getByRole('link', { name: 'Publish to…' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Publish to…' })).toBeVisible()
    await expect(page.getByLabel(/Team blog/)).toBeChecked()
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await expect(page.locator('[data-toast]').filter({ hasText: 'Publishing started' })).toBeVisible()
    // With JavaScript the page refreshes itself while the copy is pending; without, a reload shows the result.
    await expect(async () => {
      if (!withJs()) await page.reload()
      await expect(page.getByTestId('publication-status')).toContainText('Published', { timeout: 1_000 })
    }).toPass({ timeout: 30_000 })
    expect((await ghostPosts()).filter((p) => p.slug === post.slug)).toHaveLength(1)
    await expect(page.getByRole('button', { name: 'Update on Ghost' })).toBeVisible()
  })

  test('the calendar shows a scheduled post and moves it to another day @no-js', async ({ page }) => {
    const user = await signedIn(page)
    const post = await makePost(user)
    const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10)
    await db
      .update(schema.blogPosts)
      .set({ scheduledPublishAt: new Date(`${day(1)}T09:00:00Z`), scheduledTargets: ['webhook'] })
      .where(eq(schema.blogPosts.id, post.id))
    await page.goto(`/calendar?view=week&date=${day(1)}`)
    const entry = page.getByTestId('entry-scheduled').filter({ hasText: post.title })
    await expect(entry).toBeVisible()
    await expect(page.locator(`[data-day="${day(1)}"]`)).toContainText(post.title)

    const target = day(2) <= day(1) ? day(1) : day(2)
    const sameWeek = page.locator(`[data-day="${target}"]`)
    if (withJs() && (await sameWeek.count())) {
      // The week is a column of days: from Thursday on, the next day can be below the fold, and a scroll in the
      // middle of a drag (Playwright scrolling the target into view) loses the drop. Both days on screen first, as
      // a user would have them; then a drag by hand with two moves over the target (dragover needs two mouse moves
      // in every browser: Playwright's docs, 'Dragging manually').
      await sameWeek.scrollIntoViewIfNeeded()
      await expect(entry).toBeInViewport()
      await entry.locator('span').first().hover()
      await page.mouse.down()
      await sameWeek.hover()
      await sameWeek.hover({ position: { x: 10, y: 10 } })
      await page.mouse.up()
    } else {
      await entry.locator('summary').click()
      await entry.getByLabel(`New date for ${post.title}`).fill(target)
      await entry.getByRole('button', { name: 'Move' }).click()
    }
    await expect(page.locator('[data-toast]').filter({ hasText: 'Moved.' })).toBeVisible()
    await expect
      .poll(async () => {
        const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id))
        return row!.scheduledPublishAt?.toISOString().slice(0, 10)
      })
      .toBe(target)
    await page.goto(`/calendar?view=month&date=${target}`)
    await expect(page.locator(`[data-day="${target}"]`)).toContainText(post.title)
  })
})
