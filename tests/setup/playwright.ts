import { test as base, type Page, type Response } from '@playwright/test'

export { expect } from '@playwright/test'
export type { Locator, Page } from '@playwright/test'

/** How long a navigation waits for React to hydrate the page it loaded (the js project only). */
const HYDRATION_TIMEOUT_MS = 20_000

async function afterNavigation(page: Page, response: Response | null) {
  const type = response?.headers()['content-type'] ?? ''
  if (!type.startsWith('text/html')) return
  // A reading page (the blog) comes without the app's scripts (root.tsx: no <Scripts>, so no __remixContext): it
  // never hydrates, and there is nothing to wait for.
  const appScripts = await page.evaluate(() => '__remixContext' in window).catch(() => true)
  if (!appScripts) return
  // A page whose scripts never run (blocked on purpose by a spec) simply goes on after the wait.
  await page
    .locator('html[data-hydrated="true"]')
    .waitFor({ state: 'attached', timeout: HYDRATION_TIMEOUT_MS })
    .catch(() => {})
}

/**
 * Playwright's `test`, whose page, in the js project, waits after `goto` and `reload` until React has hydrated what
 * was loaded (root.tsx marks <html data-hydrated>). Before that a click is the browser's own (a plain link or form,
 * as without JavaScript), so a spec asserting what JavaScript adds (pending states, optimistic toggles) would race
 * the hydration on a loaded machine. The no-js project's page is left as it is.
 */
export const test = base.extend({
  page: async ({ page }, provide, testInfo) => {
    if (testInfo.project.name === 'js') {
      const goto = page.goto.bind(page)
      const reload = page.reload.bind(page)
      page.goto = async (...args: Parameters<Page['goto']>) => {
        const response = await goto(...args)
        await afterNavigation(page, response)
        return response
      }
      page.reload = async (...args: Parameters<Page['reload']>) => {
        const response = await reload(...args)
        await afterNavigation(page, response)
        return response
      }
    }
    await provide(page)
  },
})
