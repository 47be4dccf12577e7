import crypto from 'node:crypto'
import { expect, test, type Page } from '#tests/setup/playwright'
import { and, eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import { waitForSmtpMessage } from '#tests/fakes/client'
import { uniqueEmail } from '#tests/setup/app'
import { ownClientIp, pageErrors } from '#tests/setup/browser'
import { startWordPress, wordpressUnavailable, type WordPressSite } from '#tests/setup/wordpress'

/**
 * Issue 35, a founder's first hour: a NEW account goes from sign-up to a post published on a real WordPress (Debian's
 * package on loopback, tests/setup/wordpress.ts) by following the 'Get started' checklist alone: each step is reached
 * by clicking the checklist's link (and back to it by the logo), never by typing an address. One walk at desktop and
 * at phone width, each with JavaScript (project js) and without (project no-js): four walks. The desktop walks end
 * with the last step (Auto Pilot on: the checklist is gone); the phone walks with 'Hide'. The post is written by the
 * worker against the OpenAI fake. `--skip-wordpress` (or a machine without the packages) leaves it out and says so,
 * as the integration tests against WordPress do.
 */
const unavailable = process.env.RANKWELL_SKIP_WORDPRESS ? 'skipped with --skip-wordpress' : wordpressUnavailable()
if (unavailable) console.warn(`[first-run] the walk to a real WordPress is not run: ${unavailable}`)

const withJs = () => test.info().project.name === 'js'
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 900 }
const toast = (page: Page, text: string | RegExp) => page.locator('[data-toast]').filter({ hasText: text })
const checklist = (page: Page) => page.getByTestId('getting-started')
const step = (page: Page, id: string) => checklist(page).locator(`[data-step="${id}"]`)

/** The checklist says in words which steps are done. */
async function expectDone(page: Page, done: string[]) {
  const all = ['verify', 'business', 'blog', 'write', 'review', 'publish', 'autopilot']
  await expect(checklist(page).getByTestId('getting-started-progress')).toHaveText(`${done.length} of 7 done`)
  for (const id of all) await expect(step(page, id)).toContainText(done.includes(id) ? 'Done' : /Next|Not done yet/)
}

/** Back to the checklist the way a founder would: the logo (it leads to Keyword Ideas). */
async function backToChecklist(page: Page) {
  await page.getByRole('link', { name: 'Rankwell home' }).click()
  await expect(page).toHaveURL(/\/keywords/)
  await expect(checklist(page)).toBeVisible()
}

/** Follows a step's link in the checklist. */
async function follow(page: Page, id: string, label: string) {
  await step(page, id).getByRole('link', { name: label }).click()
}

test.describe('first run', () => {
  // The desktop and phone walks of a project one after the other in one worker, so that they share one WordPress:
  // with every test on its own (fullyParallel), each walk started a WordPress of its own (beforeAll runs per test).
  // A walk that fails does not skip the other (the default mode; only 'serial' would).
  test.describe.configure({ mode: 'default' })
  let wp: WordPressSite

  test.beforeAll(async () => {
    if (unavailable) return
    test.setTimeout(180_000)
    wp = await startWordPress()
  })
  test.afterAll(async () => wp?.stop())

  for (const screen of ['desktop', 'phone'] as const) {
    test(`a new account follows the Get started checklist from sign-up to a post on WordPress (${screen}) @no-js`, async ({
      page,
    }) => {
      test.skip(Boolean(unavailable), unavailable ?? '')
      test.setTimeout(300_000)
      const errors = pageErrors(page)
      await ownClientIp(page)
      await page.setViewportSize(screen === 'desktop' ? DESKTOP : PHONE)
      const tag = crypto.randomBytes(3).toString('hex')
      const email = uniqueEmail(`first-run-${tag}`)

      // Sign up: the onboarding, and the verification e-mail whose link continues there.
      await page.goto('/signup')
      await page.getByLabel('Name', { exact: true }).fill('Frida Founder')
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password', { exact: true }).fill('a-long-password')
      await page.getByRole('button', { name: 'Create Account' }).click()
      await expect(page).toHaveURL(/\/onboarding$/)
      const mail = await waitForSmtpMessage({ to: email, predicate: (m) => m.text.includes('/verify-email') })
      expect(mail.text).toContain("If this wasn't you, ignore this e-mail")
      const link = new URL(/https?:\/\/\S+\/verify-email\?\S+/.exec(mail.text)![0])
      expect(link.searchParams.get('next')).toBe('/onboarding')
      await page.goto(`${link.pathname}${link.search}`)
      await expect(page).toHaveURL(/\/onboarding$/)
      await expect(toast(page, 'Your email address is verified.')).toBeVisible()

      await page.getByLabel('Website').fill(`https://frida-${tag}.example`)
      await page.getByLabel('Ideal Customer').fill('Freelance designers')
      await page.getByLabel('Product/Service').fill('invoice templates')
      await page.getByLabel('Country').selectOption({ label: 'United States' })
      await page.getByLabel('Language').selectOption({ label: 'English' })
      await page.getByRole('button', { name: 'Continue to SEO Setup' }).click()
      await expect(page).toHaveURL(/\/keywords/)
      // The first search ran; its keywords are listed under the checklist.
      const createPost = page.locator('tbody tr').first().getByRole('button', { name: 'Create Post', exact: true })
      await expect(createPost).toBeVisible({ timeout: 30_000 })
      await expect(checklist(page).getByRole('heading', { name: 'Get started' })).toBeVisible()
      await expectDone(page, ['verify'])

      // Content settings, Publishing and the Calendar are in the signed-in bar's Settings menu; Escape closes it and
      // gives the focus back to its button. On a phone, the menu's Settings group (a <details>: no JavaScript needed).
      if (screen === 'desktop') {
        const settings = page.locator('[data-settings-menu]')
        await settings.locator('summary').click()
        await expect(settings.getByRole('link', { name: 'Calendar' })).toBeVisible()
        if (withJs()) {
          await page.keyboard.press('Escape')
          await expect(settings.locator('summary')).toBeFocused()
        } else {
          await settings.locator('summary').click()
        }
        await expect(settings).not.toHaveAttribute('open')
      } else {
        const menu = page.locator('[data-mobile-menu]')
        await menu.locator('summary').click()
        const group = menu.getByRole('group', { name: 'Settings' })
        for (const name of ['Content settings', 'Publishing', 'Calendar'])
          await expect(group.getByRole('link', { name })).toBeVisible()
        if (withJs()) {
          await page.keyboard.press('Escape')
          await expect(menu.locator('summary')).toBeFocused()
        } else {
          await menu.locator('summary').click()
        }
        await expect(menu).not.toHaveAttribute('open')
      }

      // Business and voice: the content settings, saved once.
      await follow(page, 'business', 'Describe your business and voice')
      await expect(page).toHaveURL(/\/settings\/content$/)
      await page.getByLabel('Value proposition').fill('Invoices that get paid on time')
      await page.getByRole('button', { name: 'Save content settings' }).click()
      await expect(toast(page, /saved/i)).toBeVisible()
      await backToChecklist(page)
      await expectDone(page, ['verify', 'business'])

      // The blog: the real WordPress.
      await follow(page, 'blog', 'Connect your blog')
      await expect(page).toHaveURL(/\/settings\/publishing$/)
      await page.getByRole('link', { name: 'Add WordPress' }).click()
      await page.getByLabel('Name (optional)').fill('Frida’s blog')
      await page.getByLabel('Site URL').fill(wp.url)
      await page.getByLabel('User name').fill('admin')
      await page.getByLabel('Application Password').fill(wp.admin.appPassword)
      await page.getByRole('button', { name: 'Test connection and save' }).click()
      await expect(page.getByTestId('destination-list')).toContainText('Frida’s blog')
      await backToChecklist(page)
      await expectDone(page, ['verify', 'business', 'blog'])

      // The first post, from a keyword of the first search; written by the worker.
      await follow(page, 'write', 'Write your first post')
      await expect(page).toHaveURL(/\/keywords/)
      await createPost.click()
      await expect(page.getByRole('status').filter({ hasText: 'Your post is being generated!' })).toBeVisible()
      await expect(async () => {
        await page.reload()
        await expect(step(page, 'write')).toContainText('Done', { timeout: 1_000 })
      }).toPass({ timeout: 180_000 })
      await expectDone(page, ['verify', 'business', 'blog', 'write'])

      // Review: the post's page, 'Mark as reviewed', then 'Reviewed ✓' with 'Undo'.
      await follow(page, 'review', 'Review your post')
      await expect(page).toHaveURL(/\/blogpost\/[0-9a-f-]+$/)
      const postId = new URL(page.url()).pathname.split('/').pop()!
      await page.getByRole('button', { name: 'Mark as reviewed' }).click()
      await expect(page.getByTestId('post-reviewed')).toContainText('Reviewed ✓')
      await expect(page.getByTestId('post-reviewed').getByRole('button', { name: 'Undo' })).toBeVisible()
      await backToChecklist(page)
      await expectDone(page, ['verify', 'business', 'blog', 'write', 'review'])

      // Publish it to the WordPress.
      await follow(page, 'publish', 'Publish it')
      await expect(page).toHaveURL(new RegExp(`/blogpost/${postId}/publish$`))
      await expect(page.getByLabel(/Frida’s blog/)).toBeChecked()
      await page.getByRole('button', { name: 'Publish', exact: true }).click()
      await expect(toast(page, 'Publishing started')).toBeVisible()
      await expect(async () => {
        if (!withJs()) await page.reload()
        await expect(page.getByTestId('publication-status')).toContainText('Published', { timeout: 1_000 })
      }).toPass({ timeout: 60_000 })
      const [publication] = await db
        .select()
        .from(schema.publications)
        .where(and(eq(schema.publications.postId, postId), eq(schema.publications.status, 'published')))
      const [post] = await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, postId))
      // WordPress itself has it, public, with the post's title.
      const remote = await fetch(`${wp.url}/wp-json/wp/v2/posts/${publication!.remoteId}`)
      expect(remote.status).toBe(200)
      const body = (await remote.json()) as { status: string; title: { rendered: string } }
      expect(body.status).toBe('publish')
      expect(body.title.rendered).toContain(post!.title.split(' ')[0])
      await backToChecklist(page)
      await expectDone(page, ['verify', 'business', 'blog', 'write', 'review', 'publish'])

      if (screen === 'desktop') {
        // The last step: Auto Pilot on (a form post, with or without JavaScript); then the checklist is gone.
        await follow(page, 'autopilot', 'Switch Auto Pilot on')
        await expect(page).toHaveURL(/\/autopilot$/)
        await page.locator('form:has(input[name="intent"][value="toggle"]) button[type="submit"]').click()
        await expect(toast(page, 'Auto Pilot Enabled.')).toBeVisible()
        await page.getByRole('link', { name: 'Rankwell home' }).click()
        await expect(page).toHaveURL(/\/keywords/)
        await expect(checklist(page)).toHaveCount(0)
      } else {
        // 'Hide' puts it away without JavaScript too; the profile offers it back.
        await checklist(page).getByRole('button', { name: 'Hide' }).click()
        await expect(checklist(page)).toHaveCount(0)
        await expect(page.getByRole('heading', { level: 1, name: 'Keyword Opportunities' })).toBeVisible()
      }
      expect(errors).toEqual([])
    })
  }
})
