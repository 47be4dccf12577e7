import { eq } from 'drizzle-orm'
import { expect, test, type Page } from '#tests/setup/playwright'
import { db, schema } from '#app/platform/db/client.server'
import { draftKey } from '#app/features/content/post-editor-draft'
import { pageErrors, signedIn } from '#tests/setup/browser'
import { postRow } from '#tests/setup/records'
import { expectNoSeriousViolations } from '#tests/setup/screen-checks'
import { makePost } from '../integration/publishing-helpers'

/**
 * Issue 35, work never lost: the post editor warns before leaving with unsaved changes, keeps an autosaved draft
 * that a reload offers back, counts the title and meta description against the SEO advice, recomputes the checklist
 * as the post is typed and says beside each field what a save would change (on Preview without JavaScript).
 */

const LONG_TITLE = 'How to publish everywhere: the founder guide to every platform, step by step'
const BODY =
  '# A heading typed in the body\n\nSee [this](javascript:alert(1)) first.\n\n## Why it matters\n\nPublishing.'

const title = (page: Page) => page.getByLabel('Title', { exact: true })
const body = (page: Page) => page.getByLabel('Post (Markdown)')
const checklistItem = (page: Page, id: string) => page.getByTestId('seo-checklist').locator(`li[data-item="${id}"]`)

test('the counters, the checklist and the notes on what a save changes, as typed or on Preview @no-js', async ({
  page,
}) => {
  const js = test.info().project.name === 'js'
  const user = await signedIn(page)
  const post = await makePost(user)
  await page.goto(`/blogpost/${post.id}/edit`)
  await expect(page.getByTestId('title-count')).toHaveText(`${[...post.title].length} of 60 characters`)
  await expect(page.getByTestId('meta-count')).toHaveText(/^\d+ characters \(aim for 120–160\)/)

  await title(page).fill(LONG_TITLE)
  await page.getByLabel('Slug').fill('Publish Everywhere!')
  await page.getByLabel('Meta description').fill('Too short.')
  await body(page).fill(BODY)
  if (!js) await page.getByRole('button', { name: 'Preview' }).click()

  await expect(page.getByTestId('title-count')).toHaveText(
    `${LONG_TITLE.length} of 60 characters · The title is ${LONG_TITLE.length - 60} characters over 60: search results will cut it off.`,
  )
  await expect(page.getByTestId('meta-count')).toHaveText(
    '10 characters (aim for 120–160) · The meta description is 110 characters short of 120.',
  )
  await expect(page.getByTestId('notes-title')).toContainText(
    'Saved as you wrote it, but search results show about 60 characters: “How to publish everywhere: the founder guide to every…”.',
  )
  await expect(page.getByTestId('notes-slug').getByRole('listitem')).toHaveText(
    'Saved as “publish-everywhere”: lower case, letters and digits joined by hyphens.',
  )
  const notes = page.getByTestId('notes-body')
  await expect(notes).toContainText('The first line “# A heading typed in the body” is removed on save')
  await expect(notes).toContainText(
    'Only web addresses (http:// or https://) stay links: “javascript:alert(1)” becomes',
  )
  // The checklist of the post as typed: the title is too long now, the meta description too short.
  await expect(checklistItem(page, 'title-length')).toHaveAttribute('data-passed', 'false')
  await expect(checklistItem(page, 'meta-description')).toHaveAttribute('data-passed', 'false')
  await expect(page.getByTestId('seo-checklist-caption')).toContainText('As typed, not saved yet (saved score 90/100)')
  // Nothing was saved.
  expect((await postRow(post.id))!.title).toBe(post.title)
  if (js) {
    // axe runs in the page (the markup is the same without JavaScript).
    await expectNoSeriousViolations(page, 'the editor with its notes')
    // Screen readers hear what the count means when that changes, not every keystroke.
    await expect(page.getByTestId('title-count-live')).toHaveText(
      `The title is ${LONG_TITLE.length - 60} characters over 60: search results will cut it off.`,
    )
  }
})

test('unsaved changes: the leave guard, the draft a reload offers back, cleared by the save', async ({ page }) => {
  const errors = pageErrors(page)
  const user = await signedIn(page)
  const post = await makePost(user)
  const key = draftKey(user.id, post.id)
  await page.goto(`/blogpost/${post.id}`)
  await page.getByRole('link', { name: 'Edit', exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`/blogpost/${post.id}/edit$`))
  await title(page).click()
  await title(page).fill('A title typed and not saved')
  await body(page).fill('Typed intro.\n\n## A typed section\n\nTyped text.')

  // A link in the app, then the back button: the dialog; 'Close' stays with the edits.
  const dialog = page.getByRole('alertdialog', { name: 'Leave without saving?' })
  for (const leave of [
    () => page.getByRole('link', { name: 'Back to the post' }).click(),
    () => page.evaluate(() => history.back()),
  ]) {
    await leave()
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toBeHidden()
    await expect(page).toHaveURL(new RegExp(`/blogpost/${post.id}/edit$`))
    await expect(title(page)).toHaveValue('A title typed and not saved')
  }
  // Closing or reloading the tab: the page asks the browser to confirm.
  const asked = await page.evaluate(() => {
    const event = new Event('beforeunload', { cancelable: true })
    window.dispatchEvent(event)
    return event.defaultPrevented
  })
  expect(asked).toBe(true)
  await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), key)).toContain('A title typed and not saved')

  // A reload (as after a crash): the saved post, and the offer to restore the draft.
  page.on('dialog', (d) => void d.accept())
  await page.reload()
  await expect(title(page)).toHaveValue(post.title)
  const offer = page.getByTestId('draft-offer')
  await expect(offer).toContainText(/^You have unsaved changes from .+\.Restore/)
  await offer.getByRole('button', { name: 'Restore' }).click()
  await expect(offer).toBeHidden()
  await expect(title(page)).toHaveValue('A title typed and not saved')
  await expect(body(page)).toHaveValue('Typed intro.\n\n## A typed section\n\nTyped text.')

  // Saved: the draft is gone, and leaving asks nothing.
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText(/Saved\. SEO score \d+\/100\./)).toBeVisible()
  await expect.poll(async () => (await postRow(post.id))!.title).toBe('A title typed and not saved')
  await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), key)).toBeNull()
  await page.getByRole('link', { name: 'Back to the post' }).click()
  await expect(page).toHaveURL(new RegExp(`/blogpost/${post.id}$`))

  // A draft older than the post's last save says so.
  const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id))
  const stale = {
    v: 1,
    savedAt: new Date(row!.editedAt!.getTime() - 3_600_000).toISOString(),
    base: 'an-older-version',
    title: 'An older draft',
    slug: row!.slug,
    metaDescription: row!.metaDescription,
    body: 'Older text.',
  }
  await page.evaluate(([k, v]) => localStorage.setItem(k!, v!), [key, JSON.stringify(stale)])
  await page.goto(`/blogpost/${post.id}/edit`)
  await expect(offer).toContainText('They are older than the post’s last save')
  await offer.getByRole('button', { name: 'Discard' }).click()
  await expect(offer).toBeHidden()
  expect(await page.evaluate((k) => localStorage.getItem(k), key)).toBeNull()
  expect(errors).toEqual([])
})
