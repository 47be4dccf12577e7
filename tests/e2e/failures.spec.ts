import crypto from 'node:crypto'
import { expect, test, type Page } from '#tests/setup/playwright'
import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { AUTOPILOT_MESSAGES } from '#app/features/autopilot/settings/autopilot'
import { CONTENT_SETTINGS_MESSAGES } from '#app/features/content/content-settings'
import { EDITOR_FAILED_MESSAGES } from '#app/features/content/post-editor'
import { LEAD_MESSAGES } from '#app/features/marketing/leads'
import { POST_MESSAGES } from '#app/features/content/posts'
import { TOOL_MESSAGES } from '#app/features/marketing/seo-tools'
import { generateWebhookSecret } from '#app/platform/webhooks/signing.server'
import { ownClientIp, signedIn } from '#tests/setup/browser'
import { makePost } from '../integration/publishing-helpers'

/**
 * Issue 12 point 1: with JavaScript on, every action whose request fails (connection dropped, a 500, a proxy's 502
 * HTML page) shows its own message and keeps the page and what was typed; point 6: the progress bar.
 * JavaScript only by nature: no test here is tagged @no-js (playwright.config.ts).
 *
 * The guard (app/ui/client-failure.ts) turns each of the three failures into the same `ClientFailure`: its unit
 * tests (app/ui/client-failure.test.ts) go through the three modes as Remix's own data layer reports them. Here each
 * form is broken in one mode, the modes taking turns over the forms, so that every form's own message and kept input
 * is seen in the browser and every mode end to end on several forms.
 */
// The spec's copy (section 8), and the help modal's own message.
const PROFILE_MESSAGES = { failed: 'Failed to update profile.', loadFailed: 'Failed to load profile data.' }
const SEARCH_ERROR_MESSAGE = 'An error occurred while searching for keywords. Please try again.'
const HELP_SEND_FAILED = 'Your question could not be sent. Please try again in a moment.'
type Mode = 'network' | '500' | '502'
const MODES: Mode[] = ['network', '500', '502']
let turn = 0
/** The next mode in turn (the order of declaration: the same form always gets the same mode). */
const nextMode = () => MODES[turn++ % MODES.length]!

/** A test of one form whose requests fail in the next mode in turn (named in the title). */
function failureTest(title: string, body: (page: Page, mode: Mode) => Promise<void>) {
  const mode = nextMode()
  test(`${title} (${mode})`, async ({ page }) => body(page, mode))
}

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

/** Makes the app's JavaScript data requests to `pathname` (POSTs unless told) fail the way `mode` says. */
async function breakRequests(page: Page, pathname: string, mode: Mode, method = 'POST') {
  await page.unrouteAll({ behavior: 'ignoreErrors' })
  await page.route(
    (url) => url.pathname === pathname && url.searchParams.has('_data'),
    async (route) => {
      if (route.request().method() !== method) return route.fallback()
      if (mode === 'network') return route.abort('connectionreset')
      if (mode === '500')
        return route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' })
      return route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>Bad gateway</body></html>' })
    },
  )
}

/** Opens a page and waits until its JavaScript has taken over (so submissions go through the router). */
async function open(page: Page, path: string) {
  await page.goto(path)
  await page.waitForFunction(() => {
    const router = (window as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter
    return router?.state.initialized === true
  })
}

async function pageStillThere(page: Page) {
  await expect(page.getByText('Unexpected Application Error!')).toHaveCount(0)
  await expect(page.getByRole('navigation', { name: 'Main' }).first()).toBeVisible()
}

const toast = (page: Page, text: string) => page.locator('[data-toast="error"]').filter({ hasText: text })

async function savedKeyword(userId: string, keyword: string) {
  const [row] = await db
    .insert(schema.savedKeywords)
    .values({
      userId,
      keyword,
      countryCode: '2840',
      countryName: 'United States',
      languageCode: '1000',
      languageName: 'English',
      source: 'dataforseo',
      avgMonthlySearches: 1200,
      difficultyScore: 20,
    })
    .returning()
  return row!
}

async function autopilotOn(userId: string) {
  await db
    .update(schema.autopilotSettings)
    .set({ enabled: true, webhookSecret: generateWebhookSecret() })
    .where(eq(schema.autopilotSettings.userId, userId))
}

test.describe('when the request fails', () => {
  failureTest('keyword search: the search error dialog, the typed keyword kept', async (page, mode) => {
    await signedIn(page)
    await open(page, '/keywords')
    await breakRequests(page, '/keywords', mode)
    await page.getByLabel('Keyword/Topic').fill('failing search topic')
    await page.getByLabel('Country', { exact: true }).selectOption({ label: 'United States' })
    await page.getByLabel('Language', { exact: true }).selectOption({ label: 'English' })
    await page.getByRole('button', { name: 'Find Keywords' }).click()
    await expect(page.getByTestId('dialog-message')).toHaveText(SEARCH_ERROR_MESSAGE)
    await pageStillThere(page)
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()
    await expect(page.getByLabel('Keyword/Topic')).toHaveValue('failing search topic')
    await expect(page.getByRole('button', { name: 'Find Keywords' })).toBeEnabled()
  })

  failureTest('Create Post: the error toast, the button usable again', async (page, mode) => {
    const user = await signedIn(page)
    const keyword = `failure post ${crypto.randomBytes(3).toString('hex')}`
    await savedKeyword(user.id, keyword)
    await open(page, '/keywords')
    await breakRequests(page, '/blogposts', mode)
    const row = page.locator(`tr[data-keyword="${keyword}"]`)
    await row.getByRole('button', { name: 'Create Post' }).click()
    await expect(toast(page, POST_MESSAGES.failed)).toBeVisible()
    await expect(row.getByRole('button', { name: 'Create Post' })).toBeEnabled()
    await pageStillThere(page)
    const posts = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.userId, user.id))
    expect(posts).toHaveLength(0)
  })

  failureTest('Auto Pilot toggle: reverts and toasts', async (page, mode) => {
    await signedIn(page)
    await open(page, '/autopilot')
    await breakRequests(page, '/autopilot', mode)
    const toggle = page.getByRole('button', { name: 'Auto Pilot', exact: true })
    await expect(toggle).toHaveAttribute('aria-pressed', 'false')
    await toggle.click()
    await expect(toast(page, AUTOPILOT_MESSAGES.toggleFailed)).toBeVisible()
    await expect(toggle).toHaveAttribute('aria-pressed', 'false')
    await expect(page.getByTestId('autopilot-state')).toHaveText('Off')
    await pageStillThere(page)
  })

  failureTest('webhook save: toasts and keeps the typed URL', async (page, mode) => {
    const user = await signedIn(page)
    await autopilotOn(user.id)
    await open(page, '/autopilot')
    await breakRequests(page, '/autopilot', mode)
    await page.getByLabel('Webhook URL').fill('https://example.com/hooks/rankwell')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(toast(page, AUTOPILOT_MESSAGES.webhookFailed)).toBeVisible()
    await expect(page.getByLabel('Webhook URL')).toHaveValue('https://example.com/hooks/rankwell')
    await pageStillThere(page)
  })

  failureTest('Auto Pilot status refresh: says so and keeps the page', async (page, mode) => {
    const user = await signedIn(page)
    await autopilotOn(user.id)
    await open(page, '/autopilot')
    await expect(page.getByRole('heading', { name: 'Auto Pilot Status' })).toBeVisible()
    await breakRequests(page, '/autopilot', mode, 'GET')
    await page.getByRole('link', { name: 'Refresh' }).click()
    await expect(page.getByRole('alert').filter({ hasText: AUTOPILOT_MESSAGES.statusFailed }).first()).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Auto Pilot Status' })).toBeVisible()
    await pageStillThere(page)
  })

  failureTest('Help: the modal stays open with the question, no longer busy', async (page, mode) => {
    await signedIn(page)
    await open(page, '/keywords')
    await breakRequests(page, '/help', mode)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).first().click()
    const dialog = page.getByTestId('help-dialog')
    await dialog.getByPlaceholder('Describe your question...').fill('How do I connect WordPress?')
    await dialog.getByRole('button', { name: 'Send Question' }).click()
    await expect(dialog.getByText(HELP_SEND_FAILED)).toBeVisible()
    await expect(dialog).toBeVisible()
    await expect(dialog.getByPlaceholder('Describe your question...')).toHaveValue('How do I connect WordPress?')
    await expect(dialog.getByRole('button', { name: 'Send Question' })).toBeEnabled()
    await pageStillThere(page)
  })

  failureTest('profile save: stays in edit mode with the edits', async (page, mode) => {
    await signedIn(page)
    await open(page, '/profile?edit=1')
    await breakRequests(page, '/profile', mode)
    await page.getByLabel('Name', { exact: true }).fill('Edited Name')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByText(PROFILE_MESSAGES.failed)).toBeVisible()
    await expect(page.getByText(PROFILE_MESSAGES.loadFailed)).toHaveCount(0)
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Edited Name')
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeEnabled()
    await pageStillThere(page)
  })

  failureTest('content settings save: the message, the typed settings kept, nothing saved', async (page, mode) => {
    const user = await signedIn(page)
    await open(page, '/settings/content')
    await breakRequests(page, '/settings/content', mode)
    await page.getByLabel('Value proposition').fill('Typed value proposition')
    await page.getByRole('radio', { name: /Expert/ }).check()
    await page.getByRole('button', { name: 'Save content settings' }).click()
    await expect(page.getByTestId('form-message')).toHaveText(CONTENT_SETTINGS_MESSAGES.failed)
    await expect(page.getByLabel('Value proposition')).toHaveValue('Typed value proposition')
    await expect(page.getByRole('radio', { name: /Expert/ })).toBeChecked()
    await expect(page.getByLabel('Product/Service')).toHaveValue('email marketing software')
    await expect(page.getByRole('button', { name: 'Save content settings' })).toBeEnabled()
    await pageStillThere(page)
    const [row] = await db.select().from(schema.contentSettings).where(eq(schema.contentSettings.userId, user.id))
    expect(row?.valueProposition ?? '').not.toBe('Typed value proposition')
  })

  failureTest('post editor save: the message, the edits kept, nothing saved', async (page, mode) => {
    const user = await signedIn(page)
    const post = await makePost(user)
    await open(page, `/blogpost/${post.id}/edit`)
    await breakRequests(page, `/blogpost/${post.id}/edit`, mode)
    await page.getByLabel('Title', { exact: true }).fill('A title typed before the failure')
    await page.getByLabel('Post (Markdown)').fill('Typed intro.\n\n## A typed section\n\nTyped text.')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByTestId('form-message')).toHaveText(EDITOR_FAILED_MESSAGES.save!)
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue('A title typed before the failure')
    await expect(page.getByLabel('Post (Markdown)')).toHaveValue('Typed intro.\n\n## A typed section\n\nTyped text.')
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeEnabled()
    await pageStillThere(page)
    const [row] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id))
    expect(row!.title).toBe(post.title)
  })

  failureTest('ebook: the thrown-error message, the address kept', async (page, mode) => {
    await open(page, '/seo-guide-ebook')
    await breakRequests(page, '/seo-guide-ebook', mode)
    const form = page.getByRole('form', { name: 'Get the ebook', exact: true })
    await form.getByLabel('Email address').fill('reader@example.com')
    await form.getByRole('button', { name: 'Get My Free Ebook' }).click()
    await expect(form.getByTestId('ebook-message')).toHaveText(LEAD_MESSAGES.thrown)
    await expect(form.getByLabel('Email address')).toHaveValue('reader@example.com')
  })

  const tools = [
    { path: '/free-keyword-research', tool: 'keywords', fields: ['Content Topic'], button: 'Generate Keywords' },
    { path: '/free-blog-title', tool: 'titles', fields: ['Main Keyword'], button: 'Generate Titles' },
    { path: '/free-blog-outline', tool: 'outline', fields: ['Main Topic'], button: 'Generate Outline' },
    {
      path: '/free-seo-strategy',
      tool: 'strategy',
      fields: ['Business Type', 'Market Segment'],
      button: /Generate|Strategy/,
    },
  ] as const
  for (const t of tools) {
    failureTest(`free tool ${t.path}: its own message in the red box, the text kept`, async (page, mode) => {
      await open(page, t.path)
      await breakRequests(page, t.path, mode)
      for (const label of t.fields) await page.getByLabel(label, { exact: true }).fill(`typed ${label}`)
      await page.getByRole('button', { name: t.button }).first().click()
      await expect(page.getByTestId('tool-error')).toHaveText(TOOL_MESSAGES[t.tool].failed)
      for (const label of t.fields) await expect(page.getByLabel(label, { exact: true })).toHaveValue(`typed ${label}`)
    })
  }

  failureTest('competitor gap (issue 36): the message above the forms, the typed domain kept', async (page, mode) => {
    await signedIn(page)
    await open(page, '/keywords/domain')
    await breakRequests(page, '/keywords/domain', mode)
    await page.getByLabel('Competitor’s domain').fill('rival-example.com')
    await page.getByRole('button', { name: 'Find their keywords' }).click()
    await expect(page.getByText('The lookup could not be sent. Check your connection and try again.')).toBeVisible()
    await pageStillThere(page)
    await expect(page.getByLabel('Competitor’s domain')).toHaveValue('rival-example.com')
    await expect(page.getByRole('button', { name: 'Find their keywords' })).toBeEnabled()
  })
})

test('profile save: a failed answer that carries a message shows that message', async ({ page }) => {
  await signedIn(page)
  await open(page, '/profile?edit=1')
  await page.route(
    (url) => url.pathname === '/profile' && url.searchParams.has('_data'),
    (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Profiles are read-only."}' })
        : route.fallback(),
  )
  await page.getByLabel('Name', { exact: true }).fill('Another Name')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Profiles are read-only.')).toBeVisible()
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Another Name')
})

test('post editor restore: a toast, the editor as it was', async ({ page }) => {
  const user = await signedIn(page)
  const post = await makePost(user)
  const version = {
    postId: post.id,
    title: post.title,
    slug: post.slug,
    metaDescription: post.metaDescription,
    contentMarkdown: post.contentMarkdown,
    contentHtml: post.contentHtml,
    seoScore: 90,
  }
  await db.insert(schema.postVersions).values([
    { ...version, origin: 'generated', createdAt: new Date(Date.now() - 120_000) },
    { ...version, origin: 'edit', createdAt: new Date(Date.now() - 60_000) },
  ])
  await open(page, `/blogpost/${post.id}/edit`)
  await breakRequests(page, `/blogpost/${post.id}/edit`, 'network')
  await page.getByLabel('Title', { exact: true }).fill('Typed, not saved yet')
  await page
    .getByTestId('versions')
    .getByRole('button', { name: /Restore/ })
    .click()
  await expect(toast(page, EDITOR_FAILED_MESSAGES.restore!)).toBeVisible()
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Typed, not saved yet')
  await expect(page.getByTestId('versions').locator('li')).toHaveCount(2)
  await pageStillThere(page)
})

test('a slow navigation shows the progress bar', async ({ page }) => {
  await signedIn(page)
  await open(page, '/keywords')
  await expect(page.getByTestId('global-progress')).toHaveCount(0)
  await page.route(
    (url) => url.pathname === '/blogposts' && url.searchParams.has('_data'),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await route.fallback()
    },
  )
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog Posts' }).first().click()
  const bar = page.getByRole('progressbar')
  await expect(bar).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Your SEO Content Library' })).toBeVisible()
  await expect(page.getByTestId('global-progress')).toHaveCount(0)
})
