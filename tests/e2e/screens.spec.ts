import { ownClientIp, signInAs } from '#tests/setup/browser'
import { LONG_WORD, PUBLIC_SCREENS, screenPath, SIGNED_IN_SCREENS } from '#tests/setup/screens'
import {
  DESKTOP,
  doneWith,
  expect,
  expectFitsTheScreen,
  expectNoSeriousViolations,
  expectScrollRegionsFocusable,
  expectWithinWidth,
  pageForChecks,
  PHONE,
  shoot,
  test,
  withJs,
  type Page,
} from '#tests/setup/screen-checks'

/**
 * Every screen (public, and signed in as the worker's seeded account with long unbroken names), in one visit each:
 * - at phone width: no sideways scroll, every button on screen, long names wrapping (a screenshot of some);
 * - axe (no serious or critical violation) and keyboard access to every scrolling region: at desktop width with
 *   JavaScript (the js project: the same page, resized), at phone width without it (the no-js project: the server's
 *   HTML as a phone shows it).
 * So every screen fits a phone with JavaScript and without, and axe sees it at both widths and in both modes.
 */
test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

/** The screens whose screenshot is attached to the report (at phone width). */
const SHOTS: string[] = [
  '/',
  '/pricing',
  '/blogposts',
  '/rankings',
  '/calendar',
  '/settings/publishing',
  '/profile',
  '/blogpost/:post',
]

async function checkScreen(page: Page, screen: string, path: string) {
  test.slow() // axe over a long page takes a while on a busy machine
  const checked = await pageForChecks(page)
  await checked.setViewportSize(PHONE)
  const response = await checked.goto(path)
  expect(response?.status(), `${path} answered`).toBeLessThan(500)

  await expectFitsTheScreen(checked, path)
  if (screen === '/blogpost/:post') {
    await expectWithinWidth(checked, checked.getByRole('heading', { level: 1, name: LONG_WORD }))
  }
  if (screen === '/profile') await expectWithinWidth(checked, checked.getByText(LONG_WORD, { exact: true }).first())
  if (SHOTS.includes(screen)) await shoot(checked, screen)

  if (withJs()) await checked.setViewportSize(DESKTOP)
  const label = `${path} (${withJs() ? 'desktop' : 'phone'}, ${test.info().project.name})`
  await expectNoSeriousViolations(checked, label)
  await expectScrollRegionsFocusable(checked, label)
  await doneWith(checked, page)
}

test.describe('every screen: fits a phone, axe', () => {
  for (const path of PUBLIC_SCREENS) {
    test(`public page ${path} @no-js`, async ({ page }) => {
      await checkScreen(page, path, path)
    })
  }

  for (const screen of SIGNED_IN_SCREENS) {
    test(`signed-in page ${screen} @no-js`, async ({ page, seeded }) => {
      await signInAs(page, seeded.user)
      await checkScreen(page, screen, screenPath(screen, seeded))
    })
  }
})
