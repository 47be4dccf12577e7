import crypto from 'node:crypto'
import { expect, test } from '#tests/setup/playwright'
import { signedIn } from '#tests/setup/browser'
import {
  doneWith,
  expectFitsTheScreen,
  expectNoSeriousViolations,
  pageForChecks,
  PHONE,
} from '#tests/setup/screen-checks'
import { trackKeyword, weekly, weekOf } from '#tests/setup/ai-visibility'

/**
 * /rankings/ai at phone width, with JavaScript on and off: the rates with their intervals (seeded weekly figures),
 * a refused prompt keeping its text with the message beside the field, a prompt added, the settings saved
 * (normalised), and axe on the page with an error showing.
 */
// PROMPT_MESSAGES.secret (settings.ts imports the market lists' JSON, which Playwright's loader cannot import).
const SECRET_MESSAGE =
  'This looks like a key, password or token. Prompts are sent to ChatGPT, Perplexity, Gemini and Claude: leave secrets out.'

test('AI visibility: rates, prompts and settings at phone width @no-js', async ({ page }) => {
  await page.setViewportSize(PHONE)
  const user = await signedIn(page)
  const t = crypto.randomBytes(3).toString('hex')
  const keyword = await trackKeyword(user.id, `crm for plumbers ${t}`)
  await weekly(user.id, { kind: 'keyword', id: keyword.id }, 'google_ai_overview', weekOf(0), {
    answers: 9,
    present: 7,
    cited: 4,
    citedUrls: { 'https://example.com/crm-guide': 4 },
    competitors: { 'rival.com': 3 },
  })
  await weekly(user.id, { kind: 'keyword', id: keyword.id }, 'google_ai_overview', weekOf(1), { answers: 9 })

  await page.goto('/rankings')
  await page.getByRole('link', { name: 'AI visibility' }).first().click()
  await expect(page.getByRole('heading', { name: 'AI visibility', level: 1 })).toBeVisible()
  const subject = page.getByRole('article', { name: keyword.keyword })
  await expect(subject).toContainText('Your site cited in 4 of 9 answers this week (19–73%)')
  await expect(subject).toContainText('No clear change from the week before')
  await expect(subject.getByRole('img', { name: /Site cited by Google AI Overviews, week by week/ })).toBeVisible()
  await expect(page.getByTestId('ai-no-prompts')).toBeVisible()
  await expectFitsTheScreen(page, '/rankings/ai')

  // A prompt with a secret in it: refused, the message beside the field, the text kept.
  const field = page.getByLabel('A question a buyer would ask')
  const secret = `Which CRM for plumbers? api_key=abc123def456 ${t}`
  await field.fill(secret)
  await page.getByRole('button', { name: 'Add prompt' }).click()
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  const describedBy = await field.getAttribute('aria-describedby')
  await expect(page.locator(`[id="${describedBy}"]`)).toHaveText(SECRET_MESSAGE)
  await expect(field).toHaveValue(secret)
  // axe on the page with the error showing. Without JavaScript axe runs in a page of its own (scripts blocked by CSP,
  // see pageForChecks), so the refused submission is made again there (a refusal changes nothing).
  const checked = await pageForChecks(page)
  if (checked !== page) {
    await checked.goto('/rankings/ai')
    await checked.getByLabel('A question a buyer would ask').fill(secret)
    await checked.getByRole('button', { name: 'Add prompt' }).click()
    await expect(checked.getByLabel('A question a buyer would ask')).toHaveAttribute('aria-invalid', 'true')
  }
  await expectNoSeriousViolations(checked, `/rankings/ai with a refused prompt (${test.info().project.name})`)
  await doneWith(checked, page)

  // A good one is added and listed, with honest gaps until its first checks.
  const good = `Which CRM should a small plumbing business use ${t}?`
  await field.fill(good)
  await page.getByRole('button', { name: 'Add prompt' }).click()
  const added = page.getByRole('article', { name: good })
  await expect(added).toBeVisible()
  await expect(added.getByTestId('ai-engine')).toHaveCount(4)
  await expect(added).toContainText('Mentioned: no answers this week')
  await expect(page.getByLabel('A question a buyer would ask')).toHaveValue('')

  // Settings: saved, the competitor's domain normalised.
  await page.getByLabel("Competitors' domains").fill('https://www.Rival.com/\nother.io')
  await page.getByLabel('Answers per prompt and day').selectOption('5')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.locator('[data-toast]').filter({ hasText: 'AI visibility settings saved.' })).toBeVisible()
  await expect(page.getByLabel("Competitors' domains")).toHaveValue('rival.com\nother.io')
  await expect(page.getByLabel('Answers per prompt and day')).toHaveValue('5')
  await expectFitsTheScreen(page, '/rankings/ai after saving')
})
