import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { waitForSmtpMessage } from '#tests/fakes/client'
import { api, appUrl, createTestUser, uniqueEmail, uniqueIp, type TestUser } from '#tests/setup/app'
import { Browser, googleSignIn, path } from '#tests/setup/http-browser'
import { freshStep, recoveryCodesIn, totpCode, totpKeyIn } from '#tests/setup/totp'

// Issue 34, point 5, at the HTTP boundary: common passwords refused (sign-up, reset, change; pages and API); the
// second factor (TOTP, RFC 6238) turned on from /profile, asked at sign-in (pages: a pending cookie, no session
// before the code; API: `code`), a step accepted once, recovery codes used once, and a current code asked before
// a password change, an account deletion and turning it off.

const COMMON = 'This password is too common. Choose one that is harder to guess.'
const WRONG_CODE = 'That code is not correct or was already used. Please try the current code.'

const json = (ip: string, body: unknown, method = 'POST') => ({
  method,
  json: body,
  headers: { 'X-Forwarded-For': ip },
})

/** A browser signed in as `user` (its session cookie). */
function browserOf(user: TestUser) {
  const browser = new Browser()
  const at = user.cookie.indexOf('=')
  browser.cookies.set(user.cookie.slice(0, at), user.cookie.slice(at + 1))
  return browser
}

/** The HTML escaping React applies to text (an apostrophe or quote in a message). */
const html = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;')

/**
 * Turns two-step sign-in on from /profile as its owner would without JavaScript: 'Turn on', the key read from the
 * page, the app's code, and the recovery codes of the answer. Returns the key and the codes.
 */
async function turnOn(user: TestUser) {
  const browser = browserOf(user)
  const start = await browser.postForm(`${appUrl()}/profile`, { intent: '2fa-start' })
  expect(start.status).toBe(303)
  const page = await browser.get(`${appUrl()}/profile`)
  expect(page.headers.get('cache-control')).toContain('no-store')
  const setup = await page.text()
  expect(setup).toMatch(/<img[^>]+src="data:image\/svg\+xml;base64,/)
  const key = totpKeyIn(setup)
  await freshStep()
  const confirmed = await browser.postForm(`${appUrl()}/profile`, { intent: '2fa-confirm', code: await totpCode(key) })
  expect(confirmed.status).toBe(200)
  const codes = recoveryCodesIn(await confirmed.text())
  expect(codes).toHaveLength(10)
  return { key, codes, browser }
}

describe('common passwords', () => {
  it('are refused at sign-up (API and page), with the message next to the field', async () => {
    const email = uniqueEmail('common')
    const res = await api('/api/signup', json(uniqueIp(), { name: 'Sam', email, password: 'Password123' }))
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ message: COMMON, errors: { password: [COMMON] } })
    const page = await new Browser().postForm(`${appUrl()}/signup`, { name: 'Sam', email, password: 'iloveyou1' })
    expect(page.status).toBe(400)
    const body = await page.text()
    expect(body).toMatch(new RegExp(`id="[^"]*password[^"]*-error"[^>]*>${html(COMMON).replace(/[.]/g, '\\.')}<`))
    expect(await db.select().from(schema.users).where(eq(schema.users.email, email))).toHaveLength(0)
    // A strong one goes through.
    const ok = await api('/api/signup', json(uniqueIp(), { name: 'Sam', email, password: 'violet-harbour-92' }))
    expect(ok.status).toBe(201)
  })

  it('are refused at password reset (API and page) without using up the link, and at password change', async () => {
    const user = await createTestUser()
    const before = Date.now()
    expect((await api('/api/password/forgot', json(uniqueIp(), { email: user.email }))).status).toBe(200)
    const mail = await waitForSmtpMessage({
      to: user.email,
      predicate: (m) => m.text.includes('/reset-password') && Date.parse(m.receivedAt) >= before - 1000,
    })
    const token = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!
    const refused = await api('/api/password/reset', json(uniqueIp(), { token, password: 'qwertyuiop' }))
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ message: COMMON, errors: { password: [COMMON] } })
    const page = await new Browser().postForm(`${appUrl()}/reset-password?token=${token}`, {
      token,
      password: 'sunshine1',
    })
    expect(page.status).toBe(400)
    expect(await page.text()).toContain(html(COMMON))
    const ok = await api('/api/password/reset', json(uniqueIp(), { token, password: 'violet-harbour-92' }))
    expect(ok.status).toBe(200)

    const other = await createTestUser()
    const change = await browserOf(other).postForm(`${appUrl()}/profile`, {
      intent: 'change-password',
      currentPassword: other.password,
      newPassword: 'password1',
    })
    expect(change.status).toBe(400)
    expect(await change.text()).toContain(html(COMMON))
  })
})

describe('two-step sign-in', () => {
  it('turns on from /profile: the secret is stored encrypted, the recovery codes hashed', async () => {
    const user = await createTestUser()
    const { key, codes } = await turnOn(user)
    const [row] = await db.select().from(schema.userTotp).where(eq(schema.userTotp.userId, user.id))
    expect(row!.confirmedAt).toBeTruthy()
    expect(row!.secretEncrypted).not.toContain(key)
    const stored = await db.select().from(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, user.id))
    expect(stored).toHaveLength(10)
    for (const code of codes) expect(stored.map((s) => s.codeHash).join()).not.toContain(code)
    const page = await (await browserOf(user).get(`${appUrl()}/profile`)).text()
    expect(page).toContain('Two-step sign-in is on.')
    expect(recoveryCodesIn(page)).toEqual([]) // shown once
  })

  it("cannot be set up before the address is verified (an unverified account may be a squatter's)", async () => {
    const user = await createTestUser({ verified: false })
    const refused = await browserOf(user).postForm(`${appUrl()}/profile`, { intent: '2fa-start' })
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('Please verify your email address before turning on two-step sign-in.')
    expect(await db.select().from(schema.userTotp).where(eq(schema.userTotp.userId, user.id))).toHaveLength(0)
  })

  it('the API login asks for the code; a step is accepted once; a recovery code works once', async () => {
    const user = await createTestUser()
    const { key, codes } = await turnOn(user)
    const ip = uniqueIp()
    const missing = await api('/api/login', json(ip, { email: user.email, password: user.password }))
    expect(missing.status).toBe(401)
    expect(missing.body.mfaRequired).toBe(true)
    expect(missing.body.message).toMatch(/two-step sign-in/)
    expect(missing.body).not.toHaveProperty('token')

    const wrongPassword = await api('/api/login', json(ip, { email: user.email, password: 'nope-nope', code: '1' }))
    expect(wrongPassword.status).toBe(401)
    expect(wrongPassword.body).not.toHaveProperty('mfaRequired')

    const code = await totpCode(key, 1) // the confirmation used the current step: the app's next one
    const ok = await api('/api/login', json(ip, { email: user.email, password: user.password, code }))
    expect(ok.status).toBe(200)
    expect(typeof ok.body.token).toBe('string')
    expect((await api('/api/user', { as: { token: ok.body.token as string } })).status).toBe(200)

    // The same code again (a replay), or an older step: refused.
    const replay = await api('/api/login', json(ip, { email: user.email, password: user.password, code }))
    expect(replay.status).toBe(401)
    expect(replay.body).toMatchObject({ mfaRequired: true, errors: { code: [WRONG_CODE] } })
    const older = await totpCode(key, 0)
    expect(
      (await api('/api/login', json(ip, { email: user.email, password: user.password, code: older }))).status,
    ).toBe(401)

    const recovery = { email: user.email, password: user.password, code: codes[0]!.toUpperCase() }
    expect((await api('/api/login', json(ip, recovery))).status).toBe(200)
    expect((await api('/api/login', json(ip, recovery))).status).toBe(401)
    const rows = await db.select().from(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, user.id))
    expect(rows.filter((r) => r.usedAt !== null)).toHaveLength(1)
  })

  it('the sign-in page creates no session before the code; /signin/verify then signs in once', async () => {
    const user = await createTestUser()
    const { codes } = await turnOn(user)
    const browser = new Browser()
    const first = await browser.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })
    expect(first.status).toBe(303)
    expect(path(first)).toBe('/signin/verify')
    expect([...browser.cookies.keys()].some((name) => name.includes('rw_session'))).toBe(false)
    expect([...browser.cookies.keys()].some((name) => name.includes('rw_2fa_pending'))).toBe(true)
    expect((await api('/api/user', { headers: { Cookie: browser.header() } })).status).toBe(401)
    expect((await browser.get(`${appUrl()}/profile`)).status).toBe(302)

    const form = await browser.get(`${appUrl()}/signin/verify`)
    expect(form.status).toBe(200)
    expect(form.headers.get('cache-control')).toContain('no-store')
    expect(await form.text()).toContain('Two-step sign-in')

    const wrong = await browser.postForm(`${appUrl()}/signin/verify`, { code: '000000' })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toMatch(
      new RegExp(`id="[^"]*code[^"]*-error"[^>]*>${html(WRONG_CODE).replace(/[.]/g, '\\.')}<`),
    )

    const ok = await browser.postForm(`${appUrl()}/signin/verify`, { code: codes[1]! })
    expect(ok.status).toBe(302)
    expect(path(ok)).toBe('/keywords')
    expect([...browser.cookies.keys()].some((name) => name.includes('rw_2fa_pending'))).toBe(false)
    expect((await browser.get(`${appUrl()}/profile`)).status).toBe(200)

    // Without a pending sign-in (none, or a forged cookie), the step sends back to /signin.
    const stranger = new Browser()
    stranger.cookies.set('rw_2fa_pending', 'eyJ1Ijoi.forged')
    stranger.cookies.set('__Host-rw_2fa_pending', 'eyJ1Ijoi.forged')
    const none = await stranger.postForm(`${appUrl()}/signin/verify`, { code: codes[2]! })
    expect(path(none)).toBe('/signin?error=code-expired')
    const [unused] = await db
      .select()
      .from(schema.recoveryCodes)
      .where(eq(schema.recoveryCodes.userId, user.id))
      .then((rows) => rows.filter((r) => r.usedAt === null))
    expect(unused).toBeTruthy()
  })

  it('Google sign-in is the first step only: /oauth-callback leads to /signin/verify, no session before the code', async () => {
    const user = await createTestUser()
    const { codes } = await turnOn(user)
    const browser = new Browser()
    const { callbackPath } = await googleSignIn(browser, { email: user.email })
    expect(callbackPath).toMatch(/^\/oauth-callback\?token=/)
    const landed = await browser.get(`${appUrl()}${callbackPath}`)
    expect(landed.status).toBe(303)
    expect(path(landed)).toBe('/signin/verify')
    expect([...browser.cookies.keys()].some((name) => name.includes('rw_session'))).toBe(false)
    expect((await browser.get(`${appUrl()}/profile`)).status).toBe(302)
    const ok = await browser.postForm(`${appUrl()}/signin/verify`, { code: codes[0]! })
    expect(path(ok)).toBe('/keywords')
    expect((await browser.get(`${appUrl()}/profile`)).status).toBe(200)
  })

  it('wrong codes at the second step lock out like wrong passwords (429)', async () => {
    const user = await createTestUser()
    await turnOn(user)
    const browser = new Browser()
    await browser.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })
    const statuses: number[] = []
    for (let i = 0; i < 11; i++)
      statuses.push((await browser.postForm(`${appUrl()}/signin/verify`, { code: 'aaaaa-aaaaa' })).status)
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true)
    expect(statuses[10]).toBe(429)
  })

  it('asks for a current code before a password change and an account deletion (page and API)', async () => {
    const user = await createTestUser()
    const { codes, browser } = await turnOn(user)

    const apiNoCode = await api('/api/user', { method: 'DELETE', as: user, json: { password: user.password } })
    expect(apiNoCode.status).toBe(400)
    expect(apiNoCode.body.errors).toHaveProperty('code')
    const apiWrong = await api('/api/user', {
      method: 'DELETE',
      as: user,
      json: { password: user.password, code: 'zzzzz-zzzzz' },
    })
    expect(apiWrong.status).toBe(401)
    expect(apiWrong.body).toMatchObject({ message: WRONG_CODE, errors: { code: [WRONG_CODE] } })

    const noCode = await browser.postForm(`${appUrl()}/profile`, {
      intent: 'change-password',
      currentPassword: user.password,
      newPassword: 'violet-harbour-92',
    })
    expect(noCode.status).toBe(400)
    expect(await noCode.text()).toMatch(/id="[^"]*code[^"]*-error"[^>]*>Enter the 6-digit code/)
    const changed = await browser.postForm(`${appUrl()}/profile`, {
      intent: 'change-password',
      currentPassword: user.password,
      newPassword: 'violet-harbour-92',
      code: codes[0]!,
    })
    expect(changed.status).toBe(303)

    const pageNoCode = await browser.postForm(`${appUrl()}/profile`, {
      intent: 'delete-account',
      password: 'violet-harbour-92',
      confirm: 'DELETE',
    })
    expect(pageNoCode.status).toBe(400)
    expect(await db.select().from(schema.users).where(eq(schema.users.id, user.id))).toHaveLength(1)
    const deleted = await browser.postForm(`${appUrl()}/profile`, {
      intent: 'delete-account',
      password: 'violet-harbour-92',
      confirm: 'DELETE',
      code: codes[1]!,
    })
    expect(deleted.status).toBe(303)
    expect(await db.select().from(schema.users).where(eq(schema.users.id, user.id))).toHaveLength(0)
  })

  it('turning it off asks for the password and a current code; new recovery codes replace the old', async () => {
    const user = await createTestUser()
    const { codes, browser } = await turnOn(user)
    const fresh = await browser.postForm(`${appUrl()}/profile`, { intent: '2fa-recovery-codes', code: codes[0]! })
    expect(fresh.status).toBe(200)
    const newCodes = recoveryCodesIn(await fresh.text())
    expect(newCodes).toHaveLength(10)
    const oldOne = await browser.postForm(`${appUrl()}/profile`, {
      intent: '2fa-disable',
      password: user.password,
      code: codes[1]!,
    })
    expect(oldOne.status).toBe(401)
    const wrongPassword = await browser.postForm(`${appUrl()}/profile`, {
      intent: '2fa-disable',
      password: 'not-my-password',
      code: newCodes[0]!,
    })
    expect(wrongPassword.status).toBe(400)
    expect(await wrongPassword.text()).toContain('Your current password is not correct.')
    const off = await browser.postForm(`${appUrl()}/profile`, {
      intent: '2fa-disable',
      password: user.password,
      code: newCodes[0]!,
    })
    expect(off.status).toBe(303)
    expect(await db.select().from(schema.userTotp).where(eq(schema.userTotp.userId, user.id))).toHaveLength(0)
    expect(await db.select().from(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, user.id))).toHaveLength(0)
    const login = await api('/api/login', json(uniqueIp(), { email: user.email, password: user.password }))
    expect(login.status).toBe(200)
  })
})
