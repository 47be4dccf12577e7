import { ownClientIp, signedIn, signInAs } from '#tests/setup/browser'
import {
  DESKTOP,
  doneWith,
  expect,
  expectNoSeriousViolations,
  expectScrollRegionsFocusable,
  pageForChecks,
  PHONE,
  test,
  withJs,
  type Locator,
} from '#tests/setup/screen-checks'

// Every screen's axe check is in screens.spec.ts (one visit per screen); here: states that take more than a visit
// (open dialogs and menus) and the keyboard in dialogs and scrolling regions.

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

/** Whether the focused element is inside `container`. */
const focusInside = (container: Locator) => container.evaluate((e) => e.contains(document.activeElement))

test.describe('accessibility', () => {
  test('axe: onboarding, the open help modal and the open phone menu @no-js', async ({ page }) => {
    test.slow()
    await signedIn(page, { onboarded: false })
    // At desktop width with JavaScript, at phone width without (as every screen in screens.spec.ts).
    const onboarding = await pageForChecks(page)
    await onboarding.setViewportSize(withJs() ? DESKTOP : PHONE)
    const response = await onboarding.goto('/onboarding')
    expect(response?.status(), '/onboarding answered').toBeLessThan(500)
    const label = `/onboarding (${withJs() ? 'desktop' : 'phone'}, ${test.info().project.name})`
    await expectNoSeriousViolations(onboarding, label)
    await expectScrollRegionsFocusable(onboarding, label)
    await doneWith(onboarding, page)

    await signedIn(page)
    const phone = await pageForChecks(page)
    await phone.setViewportSize(PHONE)
    await phone.goto('/profile')
    await phone.locator('[data-mobile-menu] > summary').click()
    await expect(phone.locator('[data-mobile-menu]')).toHaveAttribute('open', '')
    await expectNoSeriousViolations(phone, '/profile with the menu open (phone)')
    await doneWith(phone, page)
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

  test('the message dialog: focus inside, Tab trapped, Escape closes, focus back to the opener; Close is a button @no-js', async ({
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

  test('the help modal: focus on the question, Tab trapped, Escape closes, focus back to Help @no-js', async ({
    page,
  }) => {
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

  test('the confirm dialog: focus on Close, Tab trapped, Escape closes, focus back to Delete @no-js', async ({
    page,
    seeded,
  }) => {
    // The worker's account: the dialog is closed, nothing deleted.
    await signInAs(page, seeded.user)
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
