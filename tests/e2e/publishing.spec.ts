import { expect, test } from '#tests/setup/playwright'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { ownClientIp, signedIn } from '#tests/setup/browser'
import { addGhost, ghostKey, ghostPosts, makePost, waitForPublication } from '../integration/publishing-helpers'
import { api, waitFor } from '#tests/setup/app'

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

  test('deleting a live post asks what happens to the copy on the site, then unpublishes it there @no-js', async ({
    page,
  }) => {
    const user = await signedIn(page)
    const ghost = await addGhost(user)
    const post = await makePost(user)
    await api(`/api/blogpost/${post.id}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'publish', targets: [ghost] },
    })
    expect((await waitForPublication(post.id, ghost, ['published', 'failed'])).status).toBe('published')

    await page.goto('/blogposts')
    const card = page.getByTestId('post-card').filter({ hasText: post.title })
    await card.getByRole('link', { name: /^Delete/ }).click()
    const dialog = page.getByTestId('confirm-dialog')
    await expect(dialog).toContainText('It is live on your site')
    const copies = dialog.getByTestId('live-copies')
    await expect(copies).toContainText('Ghost')
    await copies.getByLabel('Unpublish it').check()
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await expect(
      page
        .locator('[data-toast]')
        .filter({ hasText: 'Taking the live copies down. The post is deleted once they are.' }),
    ).toBeVisible()
    await expect(page.getByTestId('post-card').filter({ hasText: post.title })).toHaveCount(0)
    await waitFor(
      async () => (await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id))).length === 0,
      {
        timeout: 30_000,
      },
    )
    expect((await ghostPosts()).find((p) => p.slug === post.slug)).toMatchObject({ status: 'draft' })
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
