import crypto from 'node:crypto'
import { hydrated, ownClientIp, pageErrors, signedIn } from '#tests/setup/browser'
import { addKeywords } from '#tests/setup/records'
import { serpControl } from '#tests/fakes/client'
import {
  doneWith,
  expect,
  expectFitsTheScreen,
  expectNoSeriousViolations,
  expectWithinWidth,
  pageForChecks,
  PHONE,
  test,
  withJs,
} from '#tests/setup/screen-checks'

/**
 * Issue 36: a keyword row's 'Top 10 results'. With JavaScript it opens the top 10 in a dialog over the list (loaded
 * from the results page's loader); without, the link is the results page itself. Desktop and phone, axe clean.
 */
test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

const letters = () =>
  crypto
    .randomBytes(5)
    .toString('hex')
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)

const SUMMARY = 'Who ranks: 2 big sites, 2 forums, 1 video and 5 smaller sites.'

test('a row opens its top 10: a dialog over the list with JavaScript, the results page without @no-js', async ({
  page,
}) => {
  const errors = pageErrors(page)
  const user = await signedIn(page)
  const t = letters()
  const keyword = `newsletter software ${t}`
  const dfs = serpControl()
  const urls = [
    'https://en.wikipedia.org/wiki/Newsletter',
    `https://www.reddit.com/r/saas/comments/${t}/newsletter_software/`,
    `https://www.youtube.com/watch?v=${t}`,
    'https://www.forbes.com/advisor/business/software/newsletter/',
    `https://www.quora.com/Which-newsletter-software-${t}`,
    `https://smallblog-${t}.com/newsletter-software`,
    `https://tiny-${t}.io/posts/newsletter`,
    `https://nerdy-${t}.net/guide`,
    `https://startup-${t}.co/blog/newsletter`,
    `https://indie-${t}.dev/newsletter`,
  ]
  for (const [i, url] of urls.entries())
    await dfs.place({
      keyword,
      url,
      position: i + 1,
      title: i === 5 ? '<b>Newsletter</b> software, <i>ranked</i>' : undefined,
    })
  const [kw] = await addKeywords(user, [keyword], {
    avgMonthlySearches: 2400,
    difficultyScore: 74,
    source: 'dataforseo',
  })

  await page.goto('/keywords')
  const link = page
    .locator(`tr[data-keyword="${keyword}"]`)
    .getByRole('link', { name: `Top 10 results for ${keyword}` })

  if (withJs()) {
    await hydrated(page)
    await link.click()
    const dialog = page.getByRole('dialog', { name: `Top 10 results for “${keyword}”` })
    await expect(dialog.locator('[data-serp-summary]')).toHaveText(SUMMARY)
    await expect(page).toHaveURL(/\/keywords$/)
    const rows = dialog.locator('[data-serp-row]')
    await expect(rows).toHaveCount(10)
    // A hostile title is text; links open elsewhere, unfollowed, without access to this page.
    await expect(rows.nth(5).locator('[data-serp-title]')).toHaveText('<b>Newsletter</b> software, <i>ranked</i>')
    const out = rows.nth(5).getByRole('link')
    await expect(out).toHaveAttribute('href', urls[5]!)
    await expect(out).toHaveAttribute('rel', 'nofollow noopener noreferrer')
    await expect(out).toHaveAttribute('target', '_blank')
    await expect(rows.nth(1)).toContainText('Forum')
    await expectNoSeriousViolations(page, 'the top 10 dialog')
    // On a phone: stacked rows inside the screen.
    await page.setViewportSize(PHONE)
    await expectWithinWidth(page, rows.first())
    await expectWithinWidth(page, rows.nth(5).getByRole('link'))
    await expectNoSeriousViolations(page, 'the top 10 dialog on a phone')
    // Escape closes it, the focus goes back to the row's link, the list never left.
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(link).toBeFocused()
  } else {
    await link.click()
    await expect(page).toHaveURL(new RegExp(`/keywords/${kw!.id}/serp$`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Top 10 results for “${keyword}”`)
    await expect(page.locator('[data-serp-summary]')).toHaveText(SUMMARY)
    await expect(page.locator('[data-serp-row]')).toHaveCount(10)
    await expect(page.locator('[data-serp-row="6"] [data-serp-title]')).toHaveText(
      '<b>Newsletter</b> software, <i>ranked</i>',
    )
    await expect(page.getByRole('link', { name: /Keyword Opportunities/ })).toHaveAttribute('href', '/keywords')
    // Axe and the fit on a phone, on the server's HTML.
    const checked = await pageForChecks(page)
    await checked.setViewportSize(PHONE)
    await checked.goto(`/keywords/${kw!.id}/serp`)
    await expect(checked.locator('[data-serp-row]')).toHaveCount(10)
    await expectFitsTheScreen(checked, 'the results page')
    await expectNoSeriousViolations(checked, 'the results page on a phone')
    await doneWith(checked, page)
  }
  expect(errors).toEqual([])
})
