/** Helpers for the Playwright specs (tests/e2e). */
import { expect, test, type Page } from '@playwright/test'
import { createTestUser, uniqueIp } from '#tests/setup/app'

export const baseURL = () => test.info().project.use.baseURL ?? process.env.BASE_URL!

/** Makes the page's browser context a client of its own (a unique X-Forwarded-For), so rate limits of tests never meet. */
export async function ownClientIp(page: Page) {
  await page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': uniqueIp() })
}

/** A user made in the database (onboarded unless told otherwise), signed in to the browser with a session cookie. */
export async function signedIn(page: Page, opts: Parameters<typeof createTestUser>[0] = {}) {
  const user = await createTestUser(opts)
  await signInAs(page, user)
  return user
}

/** Signs the page's browser in as a user made by `createTestUser` (its session cookie). */
export async function signInAs(page: Page, user: { cookie: string }) {
  const [name, ...rest] = user.cookie.split('=')
  // Host-only, Path=/ and Secure, as the app sets it: a `__Host-` cookie (production) is refused otherwise; Chromium
  // keeps Secure cookies for http://localhost.
  const url = new URL(baseURL())
  await page.context().addCookies([
    {
      name: name!,
      value: rest.join('='),
      domain: url.hostname,
      path: '/',
      secure: url.protocol === 'https:' || name!.startsWith('__Host-'),
      httpOnly: true,
      sameSite: 'Lax',
    },
  ])
}

/**
 * Errors of the page that no assertion on its content would notice: uncaught exceptions, and React's and Remix's
 * console errors (a hydration mismatch, a route module that failed to load and made Remix reload the page).
 * Collect them from the start of a spec and expect none at its end.
 */
export function pageErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error' && /hydrat|Minified React error|Error loading route module/i.test(message.text()))
      errors.push(message.text())
  })
  return errors
}

/**
 * Waits until React has hydrated the page (root.tsx marks <html data-hydrated>). A click before that is handled by the
 * browser alone, as without JavaScript: a spec that asserts what JavaScript adds waits for this first.
 */
export async function hydrated(page: Page) {
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1)
}
