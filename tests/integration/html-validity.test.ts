// Every page's server HTML is valid HTML: html-validate (pure JavaScript, so it runs wherever the tests run) with
// the project's rules in .htmlvalidate.json, over the public pages and the signed-in ones of an account that has
// something on every screen, including the states with a dialog open.
import path from 'node:path'
import { FileSystemConfigLoader, HtmlValidate, type Message } from 'html-validate'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, createTestUser } from '#tests/setup/app'
import { PUBLIC_SCREENS, screenPath, seedAccount, SIGNED_IN_SCREENS, type SeededAccount } from '#tests/setup/screens'

const validator = new HtmlValidate(new FileSystemConfigLoader())

/** The page's server HTML (no JavaScript ran) and what html-validate says about it, one line per error. */
async function problems(pagePath: string, cookie?: string) {
  const res = await api(pagePath, { as: cookie ? { cookie } : undefined, auth: 'cookie' })
  expect([200, 404], `${pagePath} answered ${res.status}`).toContain(res.status)
  expect(res.headers.get('content-type')).toMatch(/^text\/html/)
  // Validated as a file of the project, so that its .htmlvalidate.json applies.
  const report = await validator.validateString(res.text, path.join(process.cwd(), 'page.html'))
  const lines = res.text.split('\n')
  return report.results
    .flatMap((r) => r.messages)
    .filter((m: Message) => m.severity === 2)
    .map(
      (m: Message) =>
        `${m.ruleId}: ${m.message} at ${m.line}:${m.column} near ${JSON.stringify(lines[m.line - 1]?.slice(Math.max(0, m.column - 60), m.column + 60))}`,
    )
}

describe('server HTML is valid', () => {
  let account: SeededAccount
  beforeAll(async () => {
    account = await seedAccount()
  })

  it.each(PUBLIC_SCREENS)('public page %s', async (pagePath) => {
    expect(await problems(pagePath)).toEqual([])
  })

  it.each(SIGNED_IN_SCREENS)('signed-in page %s', async (screen) => {
    expect(await problems(screenPath(screen, account), account.user.cookie)).toEqual([])
  })

  // Issue 35: the Auto Pilot switch was `<button type="submit" role="switch">`, the one error the W3C checker found.
  it('/autopilot with its switch (on and off)', async () => {
    const off = await createTestUser()
    for (const cookie of [account.user.cookie, off.cookie]) {
      const res = await api('/autopilot', { as: { cookie }, auth: 'cookie' })
      expect(res.text).toMatch(/<button[^>]*aria-pressed="(true|false)"[^>]*aria-label="Auto Pilot"/)
      expect(await problems('/autopilot', cookie)).toEqual([])
    }
  })

  it('onboarding', async () => {
    const user = await createTestUser({ onboarded: false })
    expect(await problems('/onboarding', user.cookie)).toEqual([])
  })
})
