import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '#tests/setup/playwright'
import { baseURL, ownClientIp, signedIn, signInAs } from '#tests/setup/browser'
import { PUBLIC_SCREENS, screenPath, seedAccount, SIGNED_IN_SCREENS } from '#tests/setup/screens'

const withJs = () => test.info().project.name === 'js'
const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

/** axe over the page as it is now: no serious or critical violation (every rule axe runs by default). */
async function expectNoSeriousViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ')}`)
          .join('\n'),
    )
  expect(serious, `axe on ${label}`).toEqual([])
}

/** Every region that scrolls (sideways or down) can get the keyboard focus and has a name, or holds a control. */
async function expectScrollRegionsFocusable(page: Page, label: string) {
  const unreachable = await page.evaluate(() => {
    const scrolls = (e: Element) => {
      const style = getComputedStyle(e)
      const x = /(auto|scroll)/.test(style.overflowX) && e.scrollWidth > e.clientWidth + 1
      const y = /(auto|scroll)/.test(style.overflowY) && e.scrollHeight > e.clientHeight + 1
      return x || y
    }
    const focusable = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])'
    return Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((e) => !['TEXTAREA', 'SELECT', 'INPUT'].includes(e.tagName) && scrolls(e))
      .filter((e) => {
        const ownStop = e.tabIndex >= 0 && (e.getAttribute('aria-label') || e.getAttribute('aria-labelledby'))
        return !ownStop && !e.querySelector(focusable)
      })
      .map((e) => `${e.tagName.toLowerCase()}.${String(e.className).slice(0, 60)}`)
  })
  expect(unreachable, `scrollable regions without keyboard access on ${label}`).toEqual([])
}

/**
 * The page axe looks at. With JavaScript (the js project) it is `page` itself. Without (the no-js project), axe
 * cannot run in `page` (its checks wait on timers, and a page with scripting off runs none), so it is a page of its
 * own context with the same cookies whose documents come with `Content-Security-Policy: script-src 'none'`: the
 * browser runs none of the app's scripts (the server's HTML as a browser without JavaScript shows it), while axe,
 * evaluated by the test through the DevTools protocol, runs.
 */
async function pageForChecks(page: Page): Promise<Page> {
  if (withJs()) return page
  const context = await page
    .context()
    .browser()!
    .newContext({ javaScriptEnabled: true, baseURL: baseURL(), viewport: PHONE })
  await context.addCookies(await page.context().cookies())
  await context.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue()
    const response = await route.fetch({ maxRedirects: 0 })
    await route.fulfill({
      response,
      headers: { ...response.headers(), 'content-security-policy': "script-src 'none'" },
    })
  })
  const checked = await context.newPage()
  await ownClientIp(checked)
  return checked
}

/**
 * axe and the scroll-region check. Each screen is checked at desktop width with JavaScript (the js project) and at
 * phone width without it (the no-js project: the server's HTML as a phone shows it), so that every screen is seen
 * at both widths and in both modes without running axe four times per screen on a small CI machine.
 */
async function checkScreen(page: Page, path: string) {
  const [name, viewport] = withJs() ? (['desktop', DESKTOP] as const) : (['phone', PHONE] as const)
  const checked = await pageForChecks(page)
  await checked.setViewportSize(viewport)
  const response = await checked.goto(path)
  expect(response?.status(), `${path} answered`).toBeLessThan(500)
  await expectNoSeriousViolations(checked, `${path} (${name}, ${test.info().project.name})`)
  await expectScrollRegionsFocusable(checked, `${path} (${name}, ${test.info().project.name})`)
  if (checked !== page) await checked.context().close()
}

/** Whether the focused element is inside `container`. */
const focusInside = (container: Locator) => container.evaluate((e) => e.contains(document.activeElement))

test.describe('accessibility', () => {
  for (const path of PUBLIC_SCREENS) {
    test(`axe: public page ${path}`, async ({ page }) => {
      test.slow() // axe over a long page takes a while on a busy machine
      await checkScreen(page, path)
    })
  }

  for (const screen of SIGNED_IN_SCREENS) {
    test(`axe: signed-in page ${screen}`, async ({ page }) => {
      test.slow()
      const account = await seedAccount()
      await signInAs(page, account.user)
      await checkScreen(page, screenPath(screen, account))
    })
  }

  test('axe: onboarding, the open help modal and the open phone menu', async ({ page }) => {
    test.slow()
    await signedIn(page, { onboarded: false })
    await checkScreen(page, '/onboarding')

    await signedIn(page)
    const phone = await pageForChecks(page)
    await phone.setViewportSize(PHONE)
    await phone.goto('/profile')
    await phone.locator('[data-mobile-menu] > summary').click()
    await expect(phone.locator('[data-mobile-menu]')).toHaveAttribute('open', '')
    await expectNoSeriousViolations(phone, '/profile with the menu open (phone)')
    if (withJs()) {
      await page.setViewportSize(DESKTOP)
      await page.goto('/profile')
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).first().click()
      await expect(page.getByRole('dialog', { name: 'How can we help?' })).toBeVisible()
      await expectNoSeriousViolations(page, '/profile with the help modal open')
    }
  })

  test('the 404 page has a title, also for a record that does not exist', async ({ page }) => {
    const response = await page.goto('/no-such-page')
    expect(response?.status()).toBe(404)
    await expect(page).toHaveTitle('Page not found | Rankwell')
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()

    // A route whose loader throws its own 404 (an unknown article) shows the same page, with the same title.
    const missing = await page.goto('/blog/no-such-article')
    expect(missing?.status()).toBe(404)
    await expect(page).toHaveTitle('Page not found | Rankwell')
  })

  test('the message dialog: focus inside, Tab trapped, Escape closes, focus back to the opener; Close is a button', async ({
    page,
  }) => {
    await signedIn(page)
    if (!withJs()) {
      // Without JavaScript the server renders the dialog; its Close button goes back to the page without it.
      await page.goto('/keywords?dialog=error')
      const dialog = page.getByRole('dialog', { name: 'Message' })
      await expect(dialog).toContainText('An error occurred while searching for keywords.')
      const close = dialog.getByRole('button', { name: 'Close' })
      expect(await close.evaluate((e) => e.tagName)).toBe('BUTTON')
      await close.click()
      // A GET form without fields: the browser adds an empty query ('?'), the page is the same.
      await expect(page).toHaveURL(/\/keywords\??$/)
      await expect(page.getByRole('dialog', { name: 'Message' })).toHaveCount(0)
      return
    }
    await page.goto('/keywords')
    await page.getByLabel('Keyword/Topic').fill('')
    const opener = page.getByRole('button', { name: 'Find Keywords' })
    await opener.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Message' })
    await expect(dialog).toBeVisible()
    const close = dialog.getByRole('button', { name: 'Close' })
    expect(await close.evaluate((e) => e.tagName)).toBe('BUTTON')
    await expect(close).toBeFocused()
    for (const key of ['Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key)
      expect(await focusInside(dialog), `focus left the dialog after ${key}`).toBe(true)
    }
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(opener).toBeFocused()

    // Closed with its Close button (the keyboard's Enter), the focus goes back too.
    await page.keyboard.press('Enter')
    await expect(dialog).toBeVisible()
    await expect(close).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(dialog).toHaveCount(0)
    await expect(opener).toBeFocused()
  })

  test('the help modal: focus on the question, Tab trapped, Escape closes, focus back to Help', async ({ page }) => {
    await signedIn(page)
    await page.goto('/profile')
    const help = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).first()
    if (!withJs()) {
      // Without JavaScript, Help is the /help page.
      await help.click()
      await expect(page).toHaveURL(/\/help\?redirectTo=%2Fprofile$/)
      await expect(page.getByPlaceholder('Describe your question...')).toBeVisible()
      return
    }
    await help.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'How can we help?' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByPlaceholder('Describe your question...')).toBeFocused()
    expect(await dialog.getByRole('button', { name: 'Close' }).evaluate((e) => e.tagName)).toBe('BUTTON')
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key)
      expect(await focusInside(dialog), `focus left the modal after ${key}`).toBe(true)
    }
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(help).toBeFocused()

    // The Close button (X) closes it too, and the focus returns.
    await page.keyboard.press('Enter')
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toBeHidden()
    await expect(help).toBeFocused()
  })

  test('the confirm dialog: focus on Close, Tab trapped, Escape closes, focus back to Delete', async ({ page }) => {
    const account = await seedAccount()
    await signInAs(page, account.user)
    await page.goto('/blogposts')
    const remove = page.getByRole('link', { name: /^Delete: / }).first()
    if (!withJs()) {
      await remove.click()
      const dialog = page.getByRole('alertdialog', { name: 'Delete blog post' })
      await expect(dialog).toBeVisible()
      await dialog.getByRole('button', { name: 'Close' }).click()
      await expect(page).toHaveURL(/\/blogposts\??$/)
      await expect(dialog).toHaveCount(0)
      return
    }
    await remove.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('alertdialog', { name: 'Delete blog post' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused()
    for (const key of ['Tab', 'Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key)
      expect(await focusInside(dialog), `focus left the dialog after ${key}`).toBe(true)
    }
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(remove).toBeFocused()
  })

  test('scrollable regions take the keyboard focus and scroll with the arrow keys', async ({ page }) => {
    await signedIn(page)
    await page.setViewportSize(PHONE)
    await page.goto('/how-grow')
    const region = page.getByRole('region', { name: 'The difficulty bands used in Rankwell' })
    await expect(region).toHaveAttribute('tabindex', '0')
    await expect(region).toHaveAttribute('aria-label', /.+/)
    await region.focus()
    await expect(region).toBeFocused()
    if (withJs()) {
      // The arrow keys scroll a focused region (the browser does it; page scripts only make it observable).
      await page.keyboard.press('ArrowRight')
      await expect.poll(() => region.evaluate((e) => e.scrollLeft)).toBeGreaterThan(0)
    }
  })
})
