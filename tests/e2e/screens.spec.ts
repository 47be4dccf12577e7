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
 *
 * The screens go in groups of a few per test, one after another in the same browser page: a fresh page per screen
 * loaded the app's scripts and styles anew every time (a third of a screen's time). Every screen of a group is
 * checked even when an earlier one failed, each in a step named after it, and the test's failure names each screen
 * that failed with its error.
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

/** How many screens one test visits: a few, so that the two workers share the groups evenly. */
const GROUP_SIZE = 4

function groups<T>(items: readonly T[]): T[][] {
  const count = Math.ceil(items.length / GROUP_SIZE)
  // Spread evenly: 22 screens in groups of 5, 5, 4, 4, 4 rather than 4, 4, 4, 4, 4, 2.
  return Array.from({ length: count }, (_, i) =>
    items.slice(Math.round((i * items.length) / count), Math.round(((i + 1) * items.length) / count)),
  )
}

async function checkScreen(checked: Page, screen: string, path: string) {
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
}

/** Checks each screen of a group in turn in one page; fails at the end, naming every screen that failed. */
async function checkScreens(page: Page, screens: Array<{ screen: string; path: string }>) {
  // axe over a long page takes a while on a busy machine: as much time per screen as a test of its own had (slow).
  test.setTimeout(screens.length * 180_000)
  const checked = await pageForChecks(page)
  const failed: string[] = []
  try {
    for (const { screen, path } of screens) {
      try {
        await test.step(path, () => checkScreen(checked, screen, path))
      } catch (error) {
        failed.push(`${path}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  } finally {
    await doneWith(checked, page)
  }
  expect(failed, `screens that failed (${failed.length} of ${screens.length})`).toEqual([])
}

test.describe('every screen: fits a phone, axe', () => {
  for (const group of groups(PUBLIC_SCREENS)) {
    test(`public pages ${group.join(' ')} @no-js`, async ({ page }) => {
      await checkScreens(
        page,
        group.map((path) => ({ screen: path, path })),
      )
    })
  }

  for (const group of groups(SIGNED_IN_SCREENS)) {
    test(`signed-in pages ${group.join(' ')} @no-js`, async ({ page, seeded }) => {
      await signInAs(page, seeded.user)
      await checkScreens(
        page,
        group.map((screen) => ({ screen, path: screenPath(screen, seeded) })),
      )
    })
  }
})
