/**
 * The checks of a screen as a whole, for the specs that go over every screen (screens.spec.ts) and the accessibility
 * and small-screen specs: axe, keyboard access to scrolling regions, the fit on a phone; and `test` with `seeded`, one
 * account with something on every screen (`seedAccount`) per Playwright worker, for the tests that only look at it.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test as base, type Locator, type Page } from '#tests/setup/playwright'
import { baseURL, ownClientIp } from '#tests/setup/browser'
import { seedAccount, type SeededAccount } from '#tests/setup/screens'

export { expect } from '#tests/setup/playwright'
export type { Locator, Page } from '#tests/setup/playwright'

export const DESKTOP = { width: 1280, height: 800 }
/** A phone: 390×844 (an iPhone 12–15). */
export const PHONE = { width: 390, height: 844 }

export const withJs = () => test.info().project.name === 'js'

/**
 * Playwright's `test` (#tests/setup/playwright) with `seeded`: an account made once per worker by `seedAccount`.
 * Only for tests that change nothing in it (they look at screens, open and close dialogs): a test that changes what
 * it has makes its own.
 */
export const test = base.extend<object, { seeded: SeededAccount }>({
  seeded: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture without dependencies (Playwright reads the pattern)
    async ({}, provide) => {
      await provide(await seedAccount())
    },
    { scope: 'worker' },
  ],
})

/** axe over the page as it is now: no serious or critical violation (every rule axe runs by default). */
export async function expectNoSeriousViolations(page: Page, label: string) {
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
export async function expectScrollRegionsFocusable(page: Page, label: string) {
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
 * The page the checks look at. With JavaScript (the js project) it is `page` itself. Without (the no-js project),
 * axe cannot run in `page` (its checks wait on timers, and a page with scripting off runs none), so it is a page of
 * its own context with the same cookies whose documents come with `Content-Security-Policy: script-src 'none'`: the
 * browser runs none of the app's scripts (the server's HTML as a browser without JavaScript shows it: the app has
 * no <noscript>), while axe and the tests' own checks, evaluated through the DevTools protocol, run. Close it with
 * `doneWith`.
 */
export async function pageForChecks(page: Page): Promise<Page> {
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

/** Closes a page made by `pageForChecks` (not the test's own `page`). */
export async function doneWith(checked: Page, page: Page) {
  if (checked !== page) await checked.context().close()
}

/** The page does not scroll sideways, and every visible button (and button-like link) lies within the viewport. */
export async function expectFitsTheScreen(page: Page, path: string) {
  const width = page.viewportSize()!.width
  const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth)
  expect(scrollWidth, `${path} scrolls sideways`).toBeLessThanOrEqual(width)
  const outside = await page.evaluate((width) => {
    const controls = document.querySelectorAll<HTMLElement>(
      'button, [role="button"], [role="switch"], input[type="submit"], a.btn-primary, a.btn-secondary, a.btn-danger',
    )
    return Array.from(controls)
      .filter((e) => e.checkVisibility({ visibilityProperty: true }) && e.getClientRects().length > 0)
      .map((e) => ({
        name: (e.textContent || e.getAttribute('aria-label') || '').trim(),
        box: e.getBoundingClientRect(),
      }))
      .filter(({ box }) => box.left < -0.5 || box.right > width + 0.5)
      .map(({ name, box }) => `${name} [${Math.round(box.left)}, ${Math.round(box.right)}]`)
  }, width)
  expect(outside, `controls outside the viewport on ${path}`).toEqual([])
}

/** The element lies within the viewport's width. */
export async function expectWithinWidth(page: Page, locator: Locator) {
  await expect(locator).toBeVisible()
  const box = (await locator.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width)
}

/** The page's screenshot, attached to the test's report (not compared: fonts and dates change). */
export async function shoot(page: Page, name: string) {
  await test.info().attach(`${name} (${page.viewportSize()!.width}px, ${test.info().project.name})`, {
    body: await page.screenshot({ fullPage: true }),
    contentType: 'image/png',
  })
}
