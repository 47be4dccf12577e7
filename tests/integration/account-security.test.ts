import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { smtpMessages, waitForSmtpMessage } from '#tests/fakes/client'
import type { StoredMessage } from '#tests/fakes/smtp'
import { api, appUrl, createTestUser, uniqueEmail, uniqueIp } from '#tests/setup/app'
import { Browser, googleSignIn, path } from '#tests/setup/http-browser'
import { startWeb } from '#tests/setup/processes'
import { cookieName } from '#app/platform/http/cookies.server'

// Issue 13: client IPs, e-mail verification and takeover, password reset and change, sessions, lockout, data.

const extra: Array<{ stop: () => Promise<unknown> }> = []
afterAll(async () => {
  await Promise.all(extra.map((e) => e.stop()))
})

const post = (ip: string, body: unknown, headers: Record<string, string> = {}, token?: string) => ({
  method: 'POST',
  json: body,
  headers: { 'X-Forwarded-For': ip, ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
})

async function userRow(id: string) {
  const [row] = await db.select().from(schema.users).where(eq(schema.users.id, id))
  return row
}

/** The link of an e-mail (checks it is built from APP_URL and present in both the text and the HTML part). */
function linkIn(message: StoredMessage, pathname: string) {
  const escaped = `${appUrl()}${pathname}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const match = new RegExp(`${escaped}\\?token=([A-Za-z0-9_-]+)`).exec(message.text)
  expect(match, `no ${pathname} link in: ${message.text}`).toBeTruthy()
  expect(message.html).toContain(`${pathname}?token=${match![1]}`)
  return { url: match![0], token: match![1]! }
}

async function signUpByApi(email: string, password = 'a-long-password', ip = uniqueIp()) {
  const res = await api('/api/signup', post(ip, { name: 'Sam', email, password }))
  expect(res.status).toBe(201)
  return res.body.token as string
}

// ---------------------------------------------------------------------------------------------------------------
// 13.1 client IP
// ---------------------------------------------------------------------------------------------------------------

describe('client IP for rate limits (TRUST_PROXY)', () => {
  const wrongLogins = async (base: string, headers: () => Record<string, string>, n: number) => {
    const statuses: number[] = []
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers() },
        body: JSON.stringify({ email: uniqueEmail('ip'), password: 'wrong-password' }),
      })
      statuses.push(res.status)
    }
    return statuses
  }

  it('with one trusted proxy, forged Fly-Client-IP and leftmost X-Forwarded-For values do not move the bucket', async () => {
    const real = uniqueIp()
    const statuses = await wrongLogins(
      appUrl(),
      () => ({
        'Fly-Client-IP': uniqueIp(),
        'CF-Connecting-IP': uniqueIp(),
        'X-Forwarded-For': `${uniqueIp()}, ${real}`,
      }),
      21,
    )
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true)
    expect(statuses[20]).toBe(429)
  })

  it('with none (the default), no header moves the bucket; with fly, Fly-Client-IP does', async () => {
    const none = await startWeb({ TRUST_PROXY: 'none' })
    extra.push(none)
    const forged = () => ({
      'Fly-Client-IP': uniqueIp(),
      'CF-Connecting-IP': uniqueIp(),
      'X-Forwarded-For': uniqueIp(),
    })
    const statuses = await wrongLogins(none.url, forged, 21)
    expect(statuses[20]).toBe(429)
    await none.stop()

    const fly = await startWeb({ TRUST_PROXY: 'fly' })
    extra.push(fly)
    const flyStatuses = await wrongLogins(fly.url, () => ({ 'Fly-Client-IP': uniqueIp() }), 22)
    expect(flyStatuses.every((s) => s === 401)).toBe(true)
    await fly.stop()
  }, 300_000)
})

// ---------------------------------------------------------------------------------------------------------------
// 13.2 verification and takeover
// ---------------------------------------------------------------------------------------------------------------

describe('e-mail verification', () => {
  it('sends a single-use link on sign-up; the unverified account sees the banner and cannot turn Auto Pilot on', async () => {
    const email = uniqueEmail('verify')
    const token = await signUpByApi(email)
    const message = await waitForSmtpMessage({ to: email, predicate: (m) => m.subject.includes('Verify') })
    const link = linkIn(message, '/verify-email')
    const [stored] = await db.select().from(schema.accountTokens).where(eq(schema.accountTokens.email, email))
    expect(stored!.tokenHash).toBe(crypto.createHash('sha256').update(link.token).digest('hex'))
    expect(stored!.expiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000)

    const toggle = await api('/api/autopilot/toggle', { method: 'POST', as: { token }, json: { enabled: true } })
    expect(toggle.status).toBe(409)
    expect(toggle.body.message).toBe('Please verify your email address before Auto Pilot can publish.')

    const browser = new Browser()
    const signin = await browser.postForm(`${appUrl()}/signin`, { email, password: 'a-long-password' })
    expect(signin.status).toBe(302)
    const page = await (await browser.get(`${appUrl()}/profile`)).text()
    expect(page).toContain('data-testid="verify-banner"')

    // Issue 35: the link continues where the user was: the onboarding, not yet done (never an empty /profile).
    const used = await browser.get(link.url)
    expect(path(used)).toBe('/onboarding')
    const user = (await db.select().from(schema.users).where(eq(schema.users.email, email)))[0]!
    expect(user.emailVerifiedAt).toBeTruthy()
    expect(await (await browser.get(`${appUrl()}/profile`)).text()).not.toContain('data-testid="verify-banner"')
    const on = await api('/api/autopilot/toggle', { method: 'POST', as: { token }, json: { enabled: true } })
    expect(on.status).toBe(200)

    // Single use: the same link again, or a made-up one, verifies nothing.
    await db.update(schema.users).set({ emailVerifiedAt: null }).where(eq(schema.users.id, user.id))
    expect(path(await browser.get(link.url))).toBe('/onboarding')
    expect(
      path(await browser.get(`${appUrl()}/verify-email?token=${crypto.randomBytes(32).toString('base64url')}`)),
    ).toBe('/onboarding')
    expect((await userRow(user.id))!.emailVerifiedAt).toBeNull()
  })

  it('resends a new link from the banner, which replaces the old one', async () => {
    const email = uniqueEmail('resend')
    await signUpByApi(email)
    const first = linkIn(await waitForSmtpMessage({ to: email }), '/verify-email')
    const browser = new Browser()
    await browser.postForm(`${appUrl()}/signin`, { email, password: 'a-long-password' })
    const resend = await browser.postForm(`${appUrl()}/verify-email`, { intent: 'resend' })
    expect(resend.status).toBe(303)
    const second = linkIn(
      await waitForSmtpMessage({ to: email, predicate: (m) => !m.text.includes(first.token) }),
      '/verify-email',
    )
    expect(second.token).not.toBe(first.token)
    await browser.get(first.url)
    const user = (await db.select().from(schema.users).where(eq(schema.users.email, email)))[0]!
    expect(user.emailVerifiedAt).toBeNull()
    await browser.get(second.url)
    expect((await userRow(user.id))!.emailVerifiedAt).toBeTruthy()
  })
})

describe('no account takeover through an unverified e-mail', () => {
  it("an attacker's pre-registered account is taken over by the address's owner signing in with Google", async () => {
    const victim = uniqueEmail('victim')
    // The attacker signs up first with the victim's address, keeps a token and a browser session.
    const attackerToken = await signUpByApi(victim, 'attacker-password')
    const attacker = new Browser()
    expect(
      (await attacker.postForm(`${appUrl()}/signin`, { email: victim, password: 'attacker-password' })).status,
    ).toBe(302)
    expect((await api('/api/user', { as: { cookie: attacker.header() }, auth: 'cookie' })).status).toBe(200)

    // The owner signs in with Google (verified e-mail).
    const owner = new Browser()
    const { callbackPath } = await googleSignIn(owner, { email: victim })
    expect(callbackPath).toContain('notice=account-secured')
    const landed = await owner.get(`${appUrl()}${callbackPath}`)
    expect(landed.status).toBe(302)
    const page = await (await owner.get(`${appUrl()}/onboarding`)).text()
    expect(page).toContain('Google confirmed the address is yours')

    const user = (await db.select().from(schema.users).where(eq(schema.users.email, victim)))[0]!
    expect(user.passwordHash).toBeNull()
    expect(user.googleSub).toBeTruthy()
    expect(user.emailVerifiedAt).toBeTruthy()

    // The attacker is out: the token, the cookie and the password all fail.
    expect((await api('/api/user', { as: { token: attackerToken } })).status).toBe(403)
    expect((await api('/api/user', { as: { cookie: attacker.header() }, auth: 'cookie' })).status).toBe(401)
    const login = await api('/api/login', post(uniqueIp(), { email: victim, password: 'attacker-password' }))
    expect(login.status).toBe(401)
  })

  it('links a verified password account without touching its password', async () => {
    const existing = await createTestUser()
    const browser = new Browser()
    const { callbackPath } = await googleSignIn(browser, { email: existing.email })
    expect(callbackPath).not.toContain('notice')
    const row = await userRow(existing.id)
    expect(row!.passwordHash).toBeTruthy()
    expect((await api('/api/user', { as: existing })).status).toBe(200)
  })
})

// ---------------------------------------------------------------------------------------------------------------
// 13.3 forgot, reset and change password
// ---------------------------------------------------------------------------------------------------------------

describe('forgot and reset password', () => {
  it('answers the same for unknown and known addresses and e-mails a one-hour link only to the real one', async () => {
    const user = await createTestUser()
    const unknown = uniqueEmail('nobody')
    const a = await api('/api/password/forgot', post(uniqueIp(), { email: unknown }))
    const b = await api('/api/password/forgot', post(uniqueIp(), { email: user.email }))
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    expect(a.body).toEqual(b.body)
    const message = await waitForSmtpMessage({ to: user.email })
    expect(message.subject).toBe('Reset your Rankwell password')
    linkIn(message, '/reset-password')
    expect(await smtpMessages(unknown)).toHaveLength(0)
    const [row] = await db.select().from(schema.accountTokens).where(eq(schema.accountTokens.userId, user.id))
    expect(row!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(3600 * 1000)
    expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(3500 * 1000)
  })

  it('resets once: every session and token ends; the link cannot be reused, and guessed or expired links fail', async () => {
    const user = await createTestUser()
    const other = await createTestUser()
    await api('/api/password/forgot', post(uniqueIp(), { email: user.email }))
    const { token } = linkIn(await waitForSmtpMessage({ to: user.email }), '/reset-password')

    const guessed = await api(
      '/api/password/reset',
      post(uniqueIp(), { token: crypto.randomBytes(32).toString('base64url'), password: 'new-password-1' }),
    )
    expect(guessed.status).toBe(400)
    expect(guessed.body.message).toMatch(/invalid, has expired or was already used/)
    const short = await api('/api/password/reset', post(uniqueIp(), { token, password: 'short' }))
    expect(short.status).toBe(400)
    expect(short.body.errors).toHaveProperty('password')

    const ok = await api('/api/password/reset', post(uniqueIp(), { token, password: 'new-password-1' }))
    expect(ok.status).toBe(200)
    expect((await api('/api/user', { as: user })).status).toBe(403)
    expect((await api('/api/user', { as: user, auth: 'cookie' })).status).toBe(401)
    expect((await api('/api/user', { as: other })).status).toBe(200)
    const reused = await api('/api/password/reset', post(uniqueIp(), { token, password: 'new-password-2' }))
    expect(reused.status).toBe(400)
    expect((await api('/api/login', post(uniqueIp(), { email: user.email, password: 'new-password-1' }))).status).toBe(
      200,
    )
    expect((await api('/api/login', post(uniqueIp(), { email: user.email, password: user.password }))).status).toBe(401)

    // Expired: a fresh link whose hour has passed.
    await api('/api/password/forgot', post(uniqueIp(), { email: other.email }))
    const late = linkIn(await waitForSmtpMessage({ to: other.email }), '/reset-password')
    await db
      .update(schema.accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.accountTokens.userId, other.id))
    const expired = await api(
      '/api/password/reset',
      post(uniqueIp(), { token: late.token, password: 'new-password-3' }),
    )
    expect(expired.status).toBe(400)
    expect((await api('/api/user', { as: other })).status).toBe(200)
  })

  it('works with plain forms: /forgot-password, then /reset-password, then sign in', async () => {
    const user = await createTestUser()
    const browser = new Browser()
    const signin = await (await browser.get(`${appUrl()}/signin`)).text()
    expect(signin).toContain('href="/forgot-password"')
    const asked = await browser.postForm(`${appUrl()}/forgot-password`, { email: user.email })
    expect(asked.status).toBe(200)
    expect(await asked.text()).toContain('If an account exists for that address')
    const link = linkIn(await waitForSmtpMessage({ to: user.email }), '/reset-password')
    const form = await (await browser.get(link.url)).text()
    expect(form).toContain('name="token"')
    const done = await browser.postForm(`${appUrl()}/reset-password?token=${link.token}`, {
      token: link.token,
      password: 'form-password-1',
    })
    expect(done.status).toBe(303)
    expect(path(done)).toBe('/signin')
    const again = await (await browser.get(link.url)).text()
    expect(again).not.toContain('name="token"')
    expect(again).toContain('invalid, has expired or was already used')
  })

  it('limits reset requests per client', async () => {
    const ip = uniqueIp()
    const statuses: number[] = []
    for (let i = 0; i < 11; i++)
      statuses.push((await api('/api/password/forgot', post(ip, { email: uniqueEmail('flood') }))).status)
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true)
    expect(statuses[10]).toBe(429)
  })
})

describe('change password on /profile', () => {
  it('needs the current password, then ends every other session and token but keeps this one', async () => {
    const user = await createTestUser()
    const browser = new Browser()
    await browser.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })
    const wrong = await browser.postForm(`${appUrl()}/profile`, {
      intent: 'change-password',
      currentPassword: 'not-it',
      newPassword: 'changed-password',
    })
    expect(wrong.status).toBe(400)
    expect(await wrong.text()).toContain('Your current password is not correct.')
    const ok = await browser.postForm(`${appUrl()}/profile`, {
      intent: 'change-password',
      currentPassword: user.password,
      newPassword: 'changed-password',
    })
    expect(ok.status).toBe(303)
    expect((await browser.get(`${appUrl()}/profile`)).status).toBe(200)
    expect((await api('/api/user', { as: user })).status).toBe(403)
    expect((await api('/api/user', { as: user, auth: 'cookie' })).status).toBe(401)
    expect(
      (await api('/api/login', post(uniqueIp(), { email: user.email, password: 'changed-password' }))).status,
    ).toBe(200)
  })
})

// ---------------------------------------------------------------------------------------------------------------
// 13.4 sessions
// ---------------------------------------------------------------------------------------------------------------

describe('sessions you control', () => {
  it('lists sessions and tokens with device and IP prefix, ends one, or all others', async () => {
    const user = await createTestUser()
    const browser = new Browser('10.20.30.40')
    await browser.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })
    const login = await api(
      '/api/login',
      post('10.9.8.7', { email: user.email, password: user.password }, { 'User-Agent': 'curl/8.5.0' }),
    )
    const apiToken = login.body.token as string
    const page = await (await browser.get(`${appUrl()}/profile`)).text()
    expect(page).toContain('10.20.30.x')
    expect(page).toContain('10.9.8.x')
    expect(page).toContain('API token · curl')
    expect(page).toContain('(this browser)')
    const ids = [...page.matchAll(/name="sessionId" value="([^"]+)"/g)].map((m) => m[1]!)
    expect(ids.length).toBeGreaterThanOrEqual(2)

    // Ending the curl token's row by its id.
    const row = page.slice(page.indexOf('API token · curl'))
    const curlId = /name="sessionId" value="([^"]+)"/.exec(row)![1]!
    expect((await browser.postForm(`${appUrl()}/profile`, { intent: 'end-session', sessionId: curlId })).status).toBe(
      303,
    )
    expect((await api('/api/user', { as: { token: apiToken } })).status).toBe(403)
    expect((await api('/api/user', { as: user })).status).toBe(200)

    // Everywhere else: the helper's token and cookie end; this browser stays.
    expect((await browser.postForm(`${appUrl()}/profile`, { intent: 'end-other-sessions' })).status).toBe(303)
    expect((await api('/api/user', { as: user })).status).toBe(403)
    expect((await api('/api/user', { as: user, auth: 'cookie' })).status).toBe(401)
    expect((await browser.get(`${appUrl()}/profile`)).status).toBe(200)
  })

  it("POST /api/logout ends the token's session", async () => {
    const user = await createTestUser()
    const res = await api('/api/logout', { method: 'POST', as: user })
    expect(res.status).toBe(200)
    expect((await api('/api/user', { as: user })).status).toBe(403)
    expect((await api('/api/user', { as: user, auth: 'cookie' })).status).toBe(200)
    expect((await api('/api/logout', { method: 'POST' })).status).toBe(401)
  })
})

// ---------------------------------------------------------------------------------------------------------------
// 13.5 lockout
// ---------------------------------------------------------------------------------------------------------------

describe('lockout that cannot be aimed at a victim', () => {
  it('lets the owner in from a browser that signed in before while the account is hammered from elsewhere', async () => {
    const user = await createTestUser()
    const own = new Browser()
    expect((await own.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })).status).toBe(302)
    expect(own.cookies.has(cookieName('rw_device'))).toBe(true)
    await own.postForm(`${appUrl()}/logout`, {})

    for (let i = 0; i < 12; i++)
      await api('/api/login', post(uniqueIp(), { email: user.email, password: `guess-${i}` }))
    const stranger = await api('/api/login', post(uniqueIp(), { email: user.email, password: user.password }))
    expect(stranger.status).toBe(429)
    expect(stranger.body.message).toMatch(/Please wait \d+ minutes?/)

    const back = await own.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })
    expect(back.status).toBe(302)
    expect(path(back)).toBe('/keywords')
  })

  it('still limits wrong passwords from the known browser, per account and client', async () => {
    const user = await createTestUser()
    const own = new Browser()
    await own.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })
    // Signed out again: the device cookie stays, and /signin answers a signed-in browser with a redirect.
    await own.postForm(`${appUrl()}/logout`, {})
    const statuses: number[] = []
    for (let i = 0; i < 11; i++)
      statuses.push((await own.postForm(`${appUrl()}/signin`, { email: user.email, password: 'nope' })).status)
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true)
    expect(statuses[10]).toBe(429)
    // A forged device cookie is no way around it.
    const forged = new Browser()
    forged.cookies.set(cookieName('rw_device'), own.cookies.get(cookieName('rw_device'))!.replace(/.$/, 'x'))
    for (let i = 0; i < 10; i++)
      await api('/api/login', post(uniqueIp(), { email: user.email, password: `guess-${i}` }))
    expect((await forged.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })).status).toBe(
      429,
    )
  })
})

// ---------------------------------------------------------------------------------------------------------------
// 13.6 export and delete
// ---------------------------------------------------------------------------------------------------------------

describe('download my data and delete account', () => {
  it('exports the account without secrets', async () => {
    const user = await createTestUser()
    const res = await api('/api/user/export', { as: user })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="rankwell-data-/)
    expect(res.body).toMatchObject({ account: { email: user.email }, keywords: [], posts: [] })
    expect(res.text).not.toContain('passwordHash')
    expect(res.text).not.toContain('$argon2id')
    expect(res.text).not.toMatch(/webhookSecret/)
  })

  it('deletes with the password: rows gone, sessions ended, confirmation e-mailed', async () => {
    const user = await createTestUser()
    const wrong = await api('/api/user', { method: 'DELETE', as: user, json: { password: 'nope' } })
    expect(wrong.status).toBe(400)
    expect(await userRow(user.id)).toBeTruthy()
    const ok = await api('/api/user', { method: 'DELETE', as: user, json: { password: user.password } })
    expect(ok.status).toBe(200)
    expect(await userRow(user.id)).toBeUndefined()
    expect((await api('/api/user', { as: user })).status).toBe(403)
    const mail = await waitForSmtpMessage({ to: user.email })
    expect(mail.subject).toBe('Your Rankwell account has been deleted')
  })

  it('deletes from /profile with a typed confirmation', async () => {
    const user = await createTestUser()
    const browser = new Browser()
    await browser.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })
    const missing = await browser.postForm(`${appUrl()}/profile`, { intent: 'delete-account', password: user.password })
    expect(missing.status).toBe(400)
    expect(await missing.text()).toContain('Type DELETE to confirm.')
    const done = await browser.postForm(`${appUrl()}/profile`, {
      intent: 'delete-account',
      password: user.password,
      confirm: 'DELETE',
    })
    expect(done.status).toBe(303)
    expect(path(done)).toBe('/')
    expect(await userRow(user.id)).toBeUndefined()
  })
})

// ---------------------------------------------------------------------------------------------------------------
// 13.8 smaller leaks
// ---------------------------------------------------------------------------------------------------------------

describe('content security policy', () => {
  it('names Google Tag Manager only when a GA4 id is set', async () => {
    const res = await fetch(`${appUrl()}/`)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('googletagmanager')
  })
})
