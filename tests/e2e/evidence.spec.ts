import { eq } from 'drizzle-orm'
import { db, schema } from '#app/platform/db/client.server'
import type { Claim, Evidence } from '#app/features/content/evidence'
import { ownClientIp, pageErrors, signedIn } from '#tests/setup/browser'
import type { TestUser } from '#tests/setup/app'
import {
  doneWith,
  expect,
  expectFitsTheScreen,
  expectNoSeriousViolations,
  pageForChecks,
  test,
  withJs,
  type Page,
} from '#tests/setup/screen-checks'
import { makePost } from '../integration/publishing-helpers'

/**
 * The reviewer sees the evidence (issue 32): 'Claims and their sources' on the post page and the review screen, with
 * its filter 'Unverified only' (a link the loader reads without JavaScript, at once with it), and the content
 * setting 'When a figure cannot be verified'. Posts are written straight into the database with claims and evidence
 * of the new shape (the pipeline is tested elsewhere).
 */

test.beforeEach(async ({ page }) => {
  await ownClientIp(page)
})

const FRAGMENT = 'https://research.example/late-payments#:~:text=Late%20payments%20cost%20small%20firms%2040%25'

const CLAIMS: Claim[] = [
  {
    text: 'Late payments cost small firms 40% of their cash flow.',
    status: 'verified',
    sourceUrl: 'https://research.example/late-payments',
    sourceTitle: 'Late payments report 2024',
    factId: 'F1',
    quote: 'Late payments cost small firms 40% of their cash flow, the survey found.',
    evidenceUrl: FRAGMENT,
    original: null,
    reason: null,
  },
  {
    text: 'In 2023, 1.2 million invoices were paid after 60 days.',
    status: 'verified',
    sourceUrl: 'https://www.stats.example/invoices',
    sourceTitle: 'Invoice statistics',
    factId: 'F4',
    quote: 'In 2023, 1,200,000 invoices were paid after 60 days.',
    evidenceUrl: null,
    original: null,
    reason: null,
  },
  {
    text: 'Most founders say late payments hurt their cash flow.',
    status: 'rewritten',
    sourceUrl: null,
    sourceTitle: null,
    factId: 'F2',
    quote: 'Founders named late payments among their top worries.',
    evidenceUrl: null,
    original: '73% of founders say late payments hurt their cash flow.',
    reason: 'The page it cites does not say 73%.',
  },
  {
    text: 'A 2023 study found 9 in 10 invoices are paid late.',
    status: 'unverified',
    // A source the model made up: never shown, never linked (readClaims drops it for a claim not verified).
    sourceUrl: 'https://evil.example/study',
    sourceTitle: 'Invented study',
    factId: null,
    quote: null,
    evidenceUrl: 'https://evil.example/study#:~:text=9%20in%2010',
    original: null,
    reason: 'It cites no page that was read.',
  },
  {
    text: '',
    status: 'removed',
    sourceUrl: null,
    sourceTitle: null,
    factId: null,
    quote: null,
    evidenceUrl: null,
    original: 'Invoices sent on Fridays are paid 3 days faster.',
    reason: 'No page read says it.',
  },
]

const EVIDENCE: Evidence = {
  pages: [
    {
      url: 'https://research.example/late-payments',
      title: 'Late payments report 2024',
      domain: 'research.example',
      rank: 1,
      status: 'read',
      reason: null,
      fetchedAt: '2025-03-04T10:00:00.000Z',
    },
    {
      url: 'https://www.stats.example/invoices',
      title: 'Invoice statistics',
      domain: 'stats.example',
      rank: 2,
      status: 'read',
      reason: null,
      fetchedAt: '2025-03-04T10:00:01.000Z',
    },
    {
      url: 'https://broken.example/report',
      title: 'Broken report',
      domain: 'broken.example',
      rank: 3,
      status: 'not read',
      reason: 'HTTP 500',
      fetchedAt: null,
    },
    {
      url: 'https://slow.example/guide',
      title: '',
      domain: 'slow.example',
      rank: 4,
      status: 'not read',
      reason: 'timed out',
      fetchedAt: null,
    },
    {
      url: 'https://private.example/data',
      title: 'Private data',
      domain: 'private.example',
      rank: 5,
      status: 'not read',
      reason: 'robots.txt disallows it',
      fetchedAt: null,
    },
  ],
  facts: [
    {
      id: 'F1',
      url: 'https://research.example/late-payments',
      sentence: 'Late payments cost small firms 40% of their cash flow, the survey found.',
      kinds: ['figure'],
    },
  ],
}

async function postWithEvidence(user: TestUser, overrides: Parameters<typeof makePost>[1] = {}) {
  return makePost(user, {
    source: 'autopilot',
    reviewStatus: 'waiting',
    claims: CLAIMS,
    evidence: EVIDENCE,
    ...overrides,
  })
}

/** Clicks a filter link; with JavaScript, proves the page was not loaded again (a marker on `window` survives). */
async function filterBy(page: Page, name: RegExp) {
  const panel = page.getByTestId('claims-panel')
  if (withJs()) await page.evaluate(() => Object.assign(window, { samePage: true }))
  await panel.getByRole('link', { name }).click()
  if (withJs()) expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
}

/** The claims panel as a reviewer reads it, and its filter both ways. */
async function expectEvidencePanel(page: Page, path: string) {
  const panel = page.getByTestId('claims-panel')
  await expect(panel.getByRole('heading', { name: 'Claims and their sources' })).toBeVisible()
  await expect(panel.getByTestId('claim-counts')).toHaveText('2 verified · 1 rewritten · 1 removed · 1 unverified')
  await expect(panel.getByTestId('unverified-warning')).toContainText(
    '1 unverified claim: Auto Pilot will not publish this post until it is fixed.',
  )
  const claims = panel.getByTestId('claim')
  await expect(claims).toHaveCount(5)
  // Each status in words, not by colour alone.
  await expect(claims.getByTestId('claim-status')).toHaveText([
    /Verified/,
    /Verified/,
    /Rewritten/,
    /Unverified/,
    /Removed/,
  ])

  // A verified claim: the exact sentence of its source, and a link to that sentence on its page.
  const first = claims.nth(0)
  await expect(first).toContainText('Late payments cost small firms 40% of their cash flow.')
  await expect(first.locator('blockquote')).toHaveText(
    '“Late payments cost small firms 40% of their cash flow, the survey found.”',
  )
  const see = first.getByRole('link', { name: /^See it on research\.example/ })
  await expect(see).toHaveAttribute('href', FRAGMENT)
  await expect(see).toHaveAttribute('target', '_blank')
  await expect(see).toHaveAttribute('rel', 'noopener noreferrer nofollow')
  // Without a text fragment: the page itself, named by its domain without www.
  await expect(claims.nth(1).getByRole('link', { name: /^See it on stats\.example/ })).toHaveAttribute(
    'href',
    'https://www.stats.example/invoices',
  )

  // Rewritten and removed: what was written before, and why.
  await expect(claims.nth(2)).toContainText('Was: “73% of founders say late payments hurt their cash flow.”')
  await expect(claims.nth(2)).toContainText('Why: The page it cites does not say 73%.')
  await expect(claims.nth(2).getByRole('link')).toHaveCount(0)
  await expect(claims.nth(4)).toContainText('Was: “Invoices sent on Fridays are paid 3 days faster.”')
  await expect(claims.nth(4)).toContainText('Why: No page read says it.')
  // Unverified: the reason, and no link to the source the model claimed (anywhere on the page).
  await expect(claims.nth(3)).toContainText('Why: It cites no page that was read.')
  await expect(claims.nth(3).getByRole('link')).toHaveCount(0)
  await expect(page.locator('a[href*="evil.example"]')).toHaveCount(0)

  // The research pages: read (linked) and not read (with the reason, never linked).
  const research = panel.getByTestId('research-pages')
  await expect(research).toContainText('2 read, 3 not read.')
  await expect(research.getByTestId('page-read')).toHaveCount(2)
  await expect(research.getByRole('link', { name: /Late payments report 2024/ })).toHaveAttribute(
    'href',
    'https://research.example/late-payments',
  )
  const notRead = research.getByTestId('page-not-read')
  await expect(notRead).toHaveText([
    /Broken report.*HTTP 500/,
    /slow\.example.*timed out/,
    /Private data.*robots\.txt disallows it/,
  ])
  await expect(notRead.getByRole('link')).toHaveCount(0)

  // 'Unverified only': a link to ?claims=unverified (read by the loader), at once with JavaScript.
  await filterBy(page, /^Unverified only/)
  await expect(claims).toHaveCount(1)
  await expect(claims.first()).toHaveAttribute('data-status', 'unverified')
  await expect(panel.getByRole('link', { name: /^Unverified only/ })).toHaveAttribute('aria-current', 'true')
  await expect(page).toHaveURL(new RegExp(`${path}\\?claims=unverified(#claims)?$`))
  await filterBy(page, /^All claims/)
  await expect(claims).toHaveCount(5)
  await expect(page).toHaveURL(new RegExp(`${path}(#claims)?$`))
}

test.describe('the evidence a reviewer sees', () => {
  test('the post page: each claim with its status, source sentence and link; the filter; the pages read @no-js', async ({
    page,
  }) => {
    const errors = pageErrors(page)
    const user = await signedIn(page)
    const post = await postWithEvidence(user)
    await page.goto(`/blogpost/${post.id}`)
    await expectEvidencePanel(page, `/blogpost/${post.id}`)

    // The filter in the URL (a shared link, a reload): the loader shows only the unverified claims.
    await page.goto(`/blogpost/${post.id}?claims=unverified`)
    await expect(page.getByTestId('claim')).toHaveCount(1)
    await expect(page.getByTestId('claim-counts')).toHaveText('2 verified · 1 rewritten · 1 removed · 1 unverified')
    expect(errors).toEqual([])
  })

  test('the review screen: the unverified count up front, the same panel and filter @no-js', async ({ page }) => {
    const user = await signedIn(page)
    const post = await postWithEvidence(user)
    await page.goto('/autopilot')
    const draft = page.getByTestId('review-list').locator('li', { hasText: post.title })
    await expect(draft.getByTestId('draft-unverified')).toContainText(
      '1 unverified claim: Auto Pilot will not publish this post until it is fixed.',
    )
    await draft.getByRole('link', { name: 'See the claims' }).click()
    await expect(page).toHaveURL(new RegExp(`/blogpost/${post.id}/publish\\?claims=unverified`))
    await expect(page.getByTestId('claim')).toHaveCount(1)

    await page.goto(`/blogpost/${post.id}/publish`)
    await expect(page.getByTestId('review-panel')).toBeVisible()
    await expect(page.getByTestId('review-unverified')).toContainText(
      '1 unverified claim: Auto Pilot will not publish this post until it is fixed.',
    )
    await expectEvidencePanel(page, `/blogpost/${post.id}/publish`)
  })

  test('empty states, and a post written before claims were checked', async ({ page }) => {
    const user = await signedIn(page)
    const none = await makePost(user, { claims: [], evidence: { pages: [], facts: [] } })
    await page.goto(`/blogpost/${none.id}`)
    await expect(page.getByTestId('claims-panel')).toContainText('No figures or quotations in this post.')
    await expect(page.getByTestId('claim-counts')).toHaveCount(0)

    const allVerified = await makePost(user, { claims: [CLAIMS[0]!], evidence: EVIDENCE })
    await page.goto(`/blogpost/${allVerified.id}?claims=unverified`)
    await expect(page.getByTestId('claims-panel')).toContainText('No unverified claims.')
    await expect(page.getByTestId('unverified-warning')).toHaveCount(0)
    await page.goto(`/blogpost/${allVerified.id}/publish`)
    await expect(page.getByTestId('review-unverified')).toHaveCount(0)

    // An old row ({text, sourceUrl}, no evidence): its source was never checked, so it reads unverified, unlinked.
    const old = await makePost(user, {
      claims: [{ text: '40% of teams ship weekly', sourceUrl: 'https://a.example/x' }],
      evidence: null,
    })
    await page.goto(`/blogpost/${old.id}`)
    const claim = page.getByTestId('claim')
    await expect(claim).toHaveCount(1)
    await expect(claim.getByTestId('claim-status')).toHaveText(/Unverified/)
    await expect(claim).toContainText('Why: Written before figures were checked against their sources.')
    await expect(claim.getByRole('link')).toHaveCount(0)
    await expect(page.getByTestId('research-pages')).toHaveCount(0)
    // Auto Pilot's gate lets an older sourced entry through: no warning that it would hold the post.
    await expect(page.getByTestId('unverified-warning')).toHaveCount(0)
  })

  test('axe and fit: the post page and the review screen with their evidence @no-js', async ({ page }) => {
    test.slow()
    const user = await signedIn(page)
    const post = await postWithEvidence(user)
    const checked = await pageForChecks(page)
    for (const path of [`/blogpost/${post.id}`, `/blogpost/${post.id}/publish?claims=unverified`]) {
      const response = await checked.goto(path)
      expect(response?.status()).toBe(200)
      await expect(checked.getByTestId('claims-panel')).toBeVisible()
      // Without JavaScript the checked page is phone-wide: long quotes and URLs wrap.
      await expectFitsTheScreen(checked, path)
      await expectNoSeriousViolations(checked, `${path} (${test.info().project.name})`)
    }
    await doneWith(checked, page)
  })
})

test.describe('content settings: when a figure cannot be verified', () => {
  test('the default is rewrite; a bad value is refused next to the field; a choice is saved @no-js', async ({
    page,
  }) => {
    const user = await signedIn(page)
    await page.goto('/settings/content')
    const group = page.getByRole('radiogroup', { name: 'When a figure cannot be verified' })
    await expect(group.getByRole('radio', { name: /^Rewrite the sentence without the figure/ })).toBeChecked()

    // A value the list does not offer (a tampered form, an input of its own React does not re-render): refused, with
    // the message next to the field.
    await group.evaluate((g) =>
      g.insertAdjacentHTML('beforeend', '<input type="radio" name="unverifiedClaims" value="ignore" checked>'),
    )
    await expect(group.getByRole('radio', { checked: true })).toHaveCount(1)
    await expect(group.locator('input[value="ignore"]')).toBeChecked()
    await page.getByRole('button', { name: 'Save content settings' }).click()
    await expect(group.getByRole('alert')).toHaveText('Please choose what happens to a figure that cannot be verified.')
    expect(
      (await db.select().from(schema.contentSettings).where(eq(schema.contentSettings.userId, user.id)))[0]
        ?.unverifiedClaims ?? 'rewrite',
    ).toBe('rewrite')

    await page.goto('/settings/content')
    await page
      .getByRole('radiogroup', { name: 'When a figure cannot be verified' })
      .getByRole('radio', { name: /^Keep it, marked unverified \(Auto Pilot will not publish the post\)/ })
      .check()
    await page.getByRole('button', { name: 'Save content settings' }).click()
    await expect(page.locator('[data-toast]').filter({ hasText: 'Content settings saved.' })).toBeVisible()
    await expect(
      page
        .getByRole('radiogroup', { name: 'When a figure cannot be verified' })
        .getByRole('radio', { name: /^Keep it, marked unverified/ }),
    ).toBeChecked()
    await expect
      .poll(async () => {
        const [row] = await db.select().from(schema.contentSettings).where(eq(schema.contentSettings.userId, user.id))
        return row?.unverifiedClaims
      })
      .toBe('mark')
  })
})
