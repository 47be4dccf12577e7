import { expect, test } from '#tests/setup/playwright'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { fakeControl } from '#tests/fakes/client'
import { ownClientIp, pageErrors, signedIn } from '#tests/setup/browser'
import { chatCompletion } from '#tests/setup/openai'
import { makePost } from '../integration/publishing-helpers'

const withJs = () => test.info().project.name === 'js'

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

test.describe('content settings', () => {
  test('from the profile: a bad CTA URL is shown next to its field with the input kept, then the settings save @no-js', async ({
    page,
  }) => {
    const user = await signedIn(page)
    await page.goto('/profile')
    await page.getByRole('link', { name: 'Content settings' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Content settings' })).toBeVisible()
    await expect(page.getByLabel('Product/Service')).toHaveValue('email marketing software')

    await page.getByLabel('Value proposition').fill('Send better newsletters in half the time')
    await page.getByLabel('Call to action text').fill('Start your free trial')
    // type=url inputs are checked by the browser too: bypass that to see the server's message.
    await page.locator('form[aria-label="Content settings"]').evaluate((f) => f.setAttribute('novalidate', ''))
    await page.getByLabel('Call to action URL').fill('ftp://example.com/signup')
    await page.getByRole('radio', { name: /Expert/ }).check()
    await page.getByLabel('Words and claims to avoid').fill('cheapest\nguaranteed')
    await page.getByRole('button', { name: 'Save content settings' }).click()

    await expect(page.getByText('Please enter a valid URL, such as https://example.com/signup.').first()).toBeVisible()
    await expect(page.getByLabel('Call to action URL')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByLabel('Call to action text')).toHaveValue('Start your free trial')
    await expect(page.getByRole('radio', { name: /Expert/ })).toBeChecked()
    await expect(page.getByLabel('Words and claims to avoid')).toHaveValue('cheapest\nguaranteed')

    await page.getByLabel('Call to action URL').fill('https://example.com/signup')
    await page.getByRole('button', { name: 'Save content settings' }).click()
    await expect(page.locator('[data-toast]').filter({ hasText: 'Content settings saved.' })).toBeVisible()
    await expect(page.getByLabel('Call to action URL')).toHaveValue('https://example.com/signup')
    await expect(page.getByRole('radio', { name: /Expert/ })).toBeChecked()
    await expect
      .poll(async () => {
        const [row] = await db.select().from(schema.contentSettings).where(eq(schema.contentSettings.userId, user.id))
        return row ? { tone: row.tone, ctaUrl: row.ctaUrl, avoid: row.avoid } : null
      })
      .toEqual({ tone: 'expert', ctaUrl: 'https://example.com/signup', avoid: 'cheapest\nguaranteed' })
  })
})

test.describe('content editor', () => {
  test('edits with a preview, saves with a new score, rewrites a section and restores a version @no-js', async ({
    page,
  }) => {
    const errors = pageErrors(page)
    const user = await signedIn(page)
    const tag = crypto.randomUUID().slice(0, 8)
    const post = await makePost(user, {
      contentMarkdown: `# Publishing guide ${tag}\n\nIntro.\n\n## Why it matters\n\nPublishing is the last step.\n\n## How to start\n\nPick a platform.\n`,
    })
    await page.goto(`/blogpost/${post.id}`)
    await page.getByRole('link', { name: 'Edit', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/blogpost/${post.id}/edit$`), { timeout: 20_000 })
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Edit “')

    const body = page.getByLabel('Post (Markdown)')
    await expect(body).toHaveValue(/^Intro\./)
    await page.getByLabel('Title', { exact: true }).fill(`Edited guide ${tag}`)
    await body.fill(
      `Intro.\n\n## Why it matters\n\nA **bold** new paragraph ${tag}.\n\n## How to start\n\nPick a platform.`,
    )
    if (!withJs()) await page.getByRole('button', { name: 'Preview' }).click()
    await expect(page.getByTestId('editor-preview').locator('strong')).toHaveText('bold')
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(`Edited guide ${tag}`)

    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.locator('[data-toast]').filter({ hasText: /Saved\. SEO score \d+\/100\./ })).toBeVisible()
    await expect(page.getByTestId('versions').locator('li')).toHaveCount(1)
    await expect(page.getByTestId('seo-checklist')).toBeVisible()

    // Rewrite the second section (one model call through the OpenAI fake).
    const instruction = `Make it a list ${tag}`
    await fakeControl('openai').enqueue({
      status: 200,
      bodyIncludes: [instruction],
      times: 1,
      body: chatCompletion(`- Pick a platform ${tag}\n- Connect it\n- Publish`),
    })
    await page.getByLabel('Section', { exact: true }).selectOption({ label: 'How to start' })
    await page.getByLabel('Instruction').fill(instruction)
    await page.getByRole('button', { name: 'Rewrite section' }).click()
    await expect(page.locator('[data-toast]').filter({ hasText: 'Section rewritten.' })).toBeVisible()
    await expect(page.getByLabel('Post (Markdown)')).toHaveValue(new RegExp(`- Pick a platform ${tag}`))
    await expect(page.getByTestId('versions').locator('li')).toHaveCount(2)

    // Restore the first edit.
    await page
      .getByTestId('versions')
      .getByRole('button', { name: /Restore/ })
      .click()
    await expect(page.locator('[data-toast]').filter({ hasText: 'Version restored.' })).toBeVisible()
    await expect(page.getByLabel('Post (Markdown)')).toHaveValue(new RegExp(`A \\*\\*bold\\*\\* new paragraph ${tag}`))
    await expect(page.getByTestId('versions').locator('li')).toHaveCount(3)
    const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id))
    expect(row!.title).toBe(`Edited guide ${tag}`)
    expect(row!.contentHtml).toContain('<strong>bold</strong>')
    // The editor's route module loads in the browser (it once bundled jsdom and failed: Remix reloaded the page).
    expect(errors).toEqual([])
  })
})

test.describe('links from older posts', () => {
  test('a live post offers its older related posts; Add link changes the older post and the offer goes @no-js', async ({
    page,
  }) => {
    const user = await signedIn(page)
    const tag = crypto.randomUUID().slice(0, 8)
    const url = `https://example.com/blog/churn-surveys-${tag}`
    const fresh = await makePost(user, {
      keyword: `churn surveys ${tag}`,
      title: `Churn surveys that explain ${tag}`,
      contentMarkdown: `# Churn surveys that explain ${tag}\n\nAsk why.\n`,
      publishedUrl: url,
      publishedAt: new Date(),
    })
    const older = await makePost(user, {
      keyword: `reduce churn ${tag}`,
      title: `Reduce churn ${tag}`,
      contentMarkdown: `# Reduce churn ${tag}\n\nRun churn surveys ${tag} every month.\n\n## Next steps\n\nCall customers.\n`,
      createdAt: new Date(Date.now() - 7 * 86_400_000),
    })

    await page.goto(`/blogpost/${fresh.id}`)
    await expect(page.getByTestId('post-live')).toContainText(url)
    await page.getByRole('link', { name: 'Link to it from older posts' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Link to this post from older posts' })).toBeVisible({
      timeout: 20_000,
    })
    const offer = page.getByTestId('link-suggestion').filter({ hasText: `Reduce churn ${tag}` })
    await expect(offer).toContainText('Links the first mention of this post’s keyword:')
    await expect(offer.locator('blockquote')).toContainText(`Run churn surveys ${tag} every month.`)

    await offer.getByRole('button', { name: `Add the link to “Reduce churn ${tag}”` }).click()
    await expect(page.locator('[data-toast]').filter({ hasText: `Link added to “Reduce churn ${tag}”.` })).toBeVisible()
    await expect(page.getByTestId('link-suggestion').filter({ hasText: `Reduce churn ${tag}` })).toHaveCount(0)
    await expect
      .poll(async () => {
        const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, older.id))
        return row?.contentMarkdown ?? ''
      })
      .toContain(`Run [churn surveys ${tag}](${url}) every month.`)

    // The older post shows the link.
    await page.goto(`/blogpost/${older.id}`)
    await expect(page.locator('article a', { hasText: `churn surveys ${tag}` })).toHaveAttribute('href', url)
  })
})
