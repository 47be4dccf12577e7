import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { googleOAuthControl, waitForSmtpMessage } from '#tests/fakes/client'
import { api, appUrl, createTestUser, uniqueEmail, uniqueIp } from '#tests/setup/app'
import { Browser, googleSignIn, path } from '#tests/setup/http-browser'
import { freePort, startWeb } from '#tests/setup/processes'
import { cookieName } from '#app/platform/http/cookies.server'

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

async function userByEmail(email: string) {
  const [user] = await db.select().from(schema.users).where(eq(schema.users.email, email.trim().toLowerCase()))
  return user
}

/** Other web processes of the built app with some environment overridden (e.g. no Google, broken SMTP). */
const extra: Array<{ stop: () => Promise<unknown> }> = []
afterAll(async () => {
  await Promise.all(extra.map((e) => e.stop()))
})

const json = (ip: string, body: unknown, token?: string, method = 'POST'): RequestInit & { json: unknown } => ({
  method,
  json: body,
  headers: { 'X-Forwarded-For': ip, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
})

// ---------------------------------------------------------------------------------------------------------------
// POST /api/signup and POST /api/login
// ---------------------------------------------------------------------------------------------------------------

describe('accounts API: sign-up and login', () => {
  it('signs up with a trimmed, lower-cased e-mail, an argon2id hash and a trial, and returns a working token', async () => {
    const email = uniqueEmail('signup')
    const res = await api(
      '/api/signup',
      json(uniqueIp(), { name: ' Ada ', email: `  ${email.toUpperCase()} `, password: 'a-long-password' }),
    )
    expect(res.status).toBe(201)
    expect(res.body.message).toBe('Account created successfully. Welcome to Rankwell!')
    expect(typeof res.body.token).toBe('string')
    const user = await userByEmail(email)
    expect(user).toBeTruthy()
    expect(user!.email).toBe(email)
    expect(user!.name).toBe('Ada')
    expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    const [sub] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, user!.id))
    expect(sub!.status).toBe('trial')
    const me = await api('/api/user', { as: { token: res.body.token as string } })
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ email, name: 'Ada', onboardingComplete: false })
  })

  it('refuses a duplicate e-mail (any case, any spaces) with a clear 409', async () => {
    const email = uniqueEmail('dup')
    expect((await api('/api/signup', json(uniqueIp(), { name: 'A', email, password: 'a-long-password' }))).status).toBe(
      201,
    )
    const again = await api(
      '/api/signup',
      json(uniqueIp(), { name: 'B', email: ` ${email.toUpperCase()}`, password: 'another-password' }),
    )
    expect(again.status).toBe(409)
    expect(again.body.message).toBe('An account with this email already exists. Please sign in instead.')
    expect(again.body.token).toBeUndefined()
  })

  it('answers bad sign-up input with 400 and field errors', async () => {
    const res = await api('/api/signup', json(uniqueIp(), { name: '', email: 'nope', password: 'short' }))
    expect(res.status).toBe(400)
    const errors = res.body.errors as Record<string, string[]>
    expect(errors.name?.[0]).toBe('Name is required.')
    expect(errors.email?.[0]).toBe('Please enter a valid email address.')
    expect(errors.password?.[0]).toMatch(/at least 8/)
    const notJson = await api('/api/signup', {
      method: 'POST',
      body: '{oops',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': uniqueIp() },
    })
    expect(notJson.status).toBe(400)
    expect((await api('/api/signup')).status).toBe(405)
  })

  it('logs in with token, onboardingComplete and message, whatever the e-mail case', async () => {
    const user = await createTestUser({ onboarded: true })
    const res = await api(
      '/api/login',
      json(uniqueIp(), { email: ` ${user.email.toUpperCase()} `, password: user.password }),
    )
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ onboardingComplete: true, message: 'Signed in successfully. Welcome back!' })
    const claims = JSON.parse(Buffer.from((res.body.token as string).split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >
    expect(claims).toMatchObject({ userId: user.id, onboardingComplete: true })
    const me = await api('/api/user', { as: { token: res.body.token as string } })
    expect(me.body.email).toBe(user.email)

    const fresh = await createTestUser({ onboarded: false })
    const second = await api('/api/login', json(uniqueIp(), { email: fresh.email, password: fresh.password }))
    expect(second.body.onboardingComplete).toBe(false)
  })

  it('says the same thing for a wrong password and an unknown e-mail', async () => {
    const user = await createTestUser()
    const wrong = await api('/api/login', json(uniqueIp(), { email: user.email, password: 'not-the-password' }))
    const unknown = await api(
      '/api/login',
      json(uniqueIp(), { email: uniqueEmail('ghost'), password: 'whatever-it-is' }),
    )
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.body).toEqual({ message: 'Invalid email or password.' })
    expect(unknown.body).toEqual(wrong.body)
  })

  it('refuses password sign-in for an account that only uses Google', async () => {
    const email = uniqueEmail('googleonly')
    await googleSignIn(new Browser(), { email })
    const res = await api('/api/login', json(uniqueIp(), { email, password: '' }))
    expect(res.status).toBe(400)
    const res2 = await api('/api/login', json(uniqueIp(), { email, password: 'anything-at-all' }))
    expect(res2.status).toBe(401)
  })

  it('answers bad login input with 400 and field errors', async () => {
    const res = await api('/api/login', json(uniqueIp(), { email: 'x', password: '' }))
    expect(res.status).toBe(400)
    expect(Object.keys(res.body.errors as object).sort()).toEqual(['email', 'password'])
    expect((await api('/api/login', json(uniqueIp(), ['not', 'an', 'object']))).status).toBe(400)
  })
})

describe('accounts API: rate limits', () => {
  it('limits sign-in attempts per IP with a 429 and Retry-After', async () => {
    const ip = uniqueIp()
    const statuses: number[] = []
    for (let i = 0; i < 21; i++) {
      const res = await api('/api/login', json(ip, { email: uniqueEmail('rl'), password: 'wrong-password' }))
      statuses.push(res.status)
      if (res.status === 429) {
        expect(res.body.message).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/)
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
      }
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true)
    expect(statuses[20]).toBe(429)
    // Another client is not affected.
    expect(
      (await api('/api/login', json(uniqueIp(), { email: uniqueEmail('rl'), password: 'wrong-password' }))).status,
    ).toBe(401)
  })

  it('limits sign-in attempts per account, from any IP, even with the right password', async () => {
    const user = await createTestUser()
    for (let i = 0; i < 10; i++) {
      const res = await api('/api/login', json(uniqueIp(), { email: user.email, password: 'wrong-password' }))
      expect(res.status).toBe(401)
    }
    const blocked = await api(
      '/api/login',
      json(uniqueIp(), { email: user.email.toUpperCase(), password: user.password }),
    )
    expect(blocked.status).toBe(429)
    expect(blocked.body.token).toBeUndefined()
  })

  it('limits sign-ups per IP', async () => {
    const ip = uniqueIp()
    for (let i = 0; i < 10; i++) {
      expect(
        (await api('/api/signup', json(ip, { name: 'R', email: uniqueEmail('rls'), password: 'a-long-password' })))
          .status,
      ).toBe(201)
    }
    const email = uniqueEmail('rls')
    const blocked = await api('/api/signup', json(ip, { name: 'R', email, password: 'a-long-password' }))
    expect(blocked.status).toBe(429)
    expect(await userByEmail(email)).toBeUndefined()
  })

  it('limits the sign-in page too, with the message on the form', async () => {
    const browser = new Browser()
    let last: Response | undefined
    for (let i = 0; i < 21; i++)
      last = await browser.postForm(`${appUrl()}/signin`, { email: uniqueEmail('rlp'), password: 'wrong-password' })
    expect(last!.status).toBe(429)
    expect(await last!.text()).toContain('Too many attempts.')
  })
})

// ---------------------------------------------------------------------------------------------------------------
// GET /api/user, PUT /api/user/update, POST /api/onboarding
// ---------------------------------------------------------------------------------------------------------------

describe('accounts API: user, profile update and onboarding', () => {
  it('returns the user fields, reading the subscription and Auto Pilot rows', async () => {
    const user = await createTestUser({ onboarded: true, name: 'Grace' })
    const fresh = await api('/api/user', { as: user })
    expect(fresh.status).toBe(200)
    expect(fresh.body).toMatchObject({
      name: 'Grace',
      email: user.email,
      marketSegment: 'Indie SaaS founders',
      productService: 'email marketing software',
      subscriptionStatus: 'trial',
      keywordSearchCount: 0,
      blogPostCount: 0,
      subscriptionAmount: null,
      subscriptionRenewalDate: null,
      autoPilotEnabled: false,
      webhookUrl: null,
      onboardingComplete: true,
      website: 'https://example.com',
      country: { code: '2840', name: 'United States' },
      language: { code: '1000', name: 'English' },
    })
    expect(fresh.body.passwordHash).toBeUndefined()

    const renewal = new Date('2030-01-15T00:00:00Z')
    await db
      .update(schema.subscriptions)
      .set({ status: 'active', amountCents: 4990, currentPeriodEnd: renewal, keywordSearchCount: 3, blogPostCount: 2 })
      .where(eq(schema.subscriptions.userId, user.id))
    await db
      .update(schema.autopilotSettings)
      .set({ enabled: true, webhookUrl: 'https://hooks.example.com/x' })
      .where(eq(schema.autopilotSettings.userId, user.id))
    const paid = await api('/api/user', { as: user })
    expect(paid.body).toMatchObject({
      subscriptionStatus: 'active',
      subscriptionAmount: 49.9,
      subscriptionRenewalDate: renewal.toISOString(),
      keywordSearchCount: 3,
      blogPostCount: 2,
      autoPilotEnabled: true,
      webhookUrl: 'https://hooks.example.com/x',
    })
  })

  it('works with the session cookie too', async () => {
    const user = await createTestUser()
    const res = await api('/api/user', { as: user, auth: 'cookie' })
    expect(res.status).toBe(200)
    expect(res.body.email).toBe(user.email)
  })

  it('refuses missing and bad tokens (401) and tokens of gone users or ended sessions (403)', async () => {
    expect((await api('/api/user')).status).toBe(401)
    expect((await api('/api/user', { headers: { Authorization: 'Bearer not.a.token' } })).status).toBe(401)
    const user = await createTestUser()
    const [head, body] = user.token.split('.')
    const forged = `${head}.${body}.${crypto.createHmac('sha256', 'some-other-secret').update(`${head}.${body}`).digest('base64url')}`
    expect((await api('/api/user', { headers: { Authorization: `Bearer ${forged}` } })).status).toBe(401)

    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString()) as { sid: string }
    await db.delete(schema.sessions).where(eq(schema.sessions.id, claims.sid))
    expect((await api('/api/user', { as: user })).status).toBe(403)

    const gone = await createTestUser()
    await db.delete(schema.users).where(eq(schema.users.id, gone.id))
    const res = await api('/api/user', { as: gone })
    expect(res.status).toBe(403)
    for (const [route, method] of [
      ['/api/user/update', 'PUT'],
      ['/api/onboarding', 'POST'],
    ] as const) {
      expect((await api(route, { method, json: {} })).status).toBe(401)
      expect((await api(route, { method, json: {}, headers: { Authorization: 'Bearer x.y.z' } })).status).toBe(401)
      expect((await api(route, { method, json: {}, as: gone })).status).toBe(403)
    }
  })

  it('updates the profile with PUT and returns the merged user', async () => {
    const user = await createTestUser()
    const res = await api('/api/user/update', {
      method: 'PUT',
      as: user,
      json: {
        name: ' Linus ',
        marketSegment: 'Dev teams',
        productService: 'Git hosting',
        country: { code: '2276', name: 'x' },
      },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      message: 'Profile updated successfully!',
      name: 'Linus',
      marketSegment: 'Dev teams',
      productService: 'Git hosting',
      email: user.email,
      website: 'https://example.com',
      country: { code: '2276', name: 'Germany' },
      language: { code: '1000', name: 'English' },
    })
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(row).toMatchObject({
      name: 'Linus',
      marketSegment: 'Dev teams',
      productService: 'Git hosting',
      countryCode: '2276',
      website: 'https://example.com',
    })
  })

  it('answers bad profile input with 400 and field errors, and other methods with 405', async () => {
    const user = await createTestUser()
    const res = await api('/api/user/update', {
      method: 'PUT',
      as: user,
      json: { name: '', marketSegment: 'x', productService: 'y', website: 'nope' },
    })
    expect(res.status).toBe(400)
    expect(Object.keys(res.body.errors as object).sort()).toEqual(['name', 'website'])
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(row!.name).toBe('Test User')
    expect(
      (
        await api('/api/user/update', {
          method: 'PUT',
          as: user,
          body: 'nope',
          headers: { 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(400)
    expect((await api('/api/user/update', { method: 'POST', as: user, json: {} })).status).toBe(405)
  })

  it('completes onboarding and says where the first search runs', async () => {
    const user = await createTestUser({ onboarded: false })
    const res = await api('/api/onboarding', {
      method: 'POST',
      as: user,
      json: {
        website: 'https://shop.example.com',
        marketSegment: 'Coffee lovers',
        productService: 'specialty coffee beans',
        country: { code: '2826', name: 'United Kingdom' },
        language: { code: '1000', name: 'English' },
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.onboardingComplete).toBe(true)
    const to = new URL(res.body.redirectTo as string, appUrl())
    expect(to.pathname).toBe('/keywords')
    expect(Object.fromEntries(to.searchParams)).toEqual({
      query: 'specialty coffee beans',
      countryCode: '2826',
      languageCode: '1000',
      countryName: 'United Kingdom',
      languageName: 'English',
      run: '1',
    })
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(row).toMatchObject({
      onboardingComplete: true,
      website: 'https://shop.example.com',
      marketSegment: 'Coffee lovers',
      productService: 'specialty coffee beans',
      countryCode: '2826',
      countryName: 'United Kingdom',
      languageCode: '1000',
      languageName: 'English',
    })
    expect((await api('/api/user', { as: user })).body.onboardingComplete).toBe(true)
  })

  it('accepts onboarding without website, country and language', async () => {
    const user = await createTestUser({ onboarded: false })
    const res = await api('/api/onboarding', {
      method: 'POST',
      as: user,
      json: { website: '', marketSegment: 'Anyone', productService: 'crm', country: null, language: null },
    })
    expect(res.status).toBe(200)
    expect(res.body.redirectTo).toBe('/keywords?query=crm&run=1')
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(row).toMatchObject({ website: null, countryCode: null, languageCode: null, onboardingComplete: true })
  })

  it('answers bad onboarding input with 400 and field errors', async () => {
    const user = await createTestUser({ onboarded: false })
    const res = await api('/api/onboarding', {
      method: 'POST',
      as: user,
      json: { website: 'not a url', marketSegment: '', country: { code: '1', name: 'Nowhere' }, language: 'English' },
    })
    expect(res.status).toBe(400)
    expect(Object.keys(res.body.errors as object).sort()).toEqual([
      'country',
      'language',
      'marketSegment',
      'productService',
      'website',
    ])
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(row!.onboardingComplete).toBe(false)
    expect((await api('/api/onboarding', { as: user })).status).toBe(405)
  })
})

// ---------------------------------------------------------------------------------------------------------------
// The pages: forms without JavaScript, sessions, the guard, log out
// ---------------------------------------------------------------------------------------------------------------

describe('accounts pages: sign-up, sign-in, guard and log out', () => {
  it('signs up through the form and always lands on /onboarding with a session', async () => {
    const browser = new Browser()
    const email = uniqueEmail('form')
    const res = await browser.postForm(`${appUrl()}/signup`, { name: 'Form User', email, password: 'a-long-password' })
    expect(res.status).toBe(302)
    expect(path(res)).toBe('/onboarding')
    expect(browser.cookies.has(cookieName('rw_session'))).toBe(true)
    expect((await browser.get(`${appUrl()}/onboarding`)).status).toBe(200)
    const dup = await new Browser().postForm(`${appUrl()}/signup`, {
      name: 'Again',
      email: email.toUpperCase(),
      password: 'a-long-password',
    })
    expect(dup.status).toBe(409)
    const html = await dup.text()
    expect(html).toContain('An account with this email already exists.')
    expect(html).not.toContain('a-long-password')
  })

  it('signs in to /keywords or /onboarding, honouring only a safe redirectTo', async () => {
    const onboarded = await createTestUser({ onboarded: true })
    const a = await new Browser().postForm(`${appUrl()}/signin`, {
      email: onboarded.email,
      password: onboarded.password,
    })
    expect(path(a)).toBe('/keywords')
    const b = await new Browser().postForm(`${appUrl()}/signin`, {
      email: onboarded.email,
      password: onboarded.password,
      redirectTo: '/blogposts?x=1',
    })
    expect(path(b)).toBe('/blogposts?x=1')
    const c = await new Browser().postForm(`${appUrl()}/signin`, {
      email: onboarded.email,
      password: onboarded.password,
      redirectTo: '//evil.example',
    })
    expect(path(c)).toBe('/keywords')
    const notYet = await createTestUser({ onboarded: false })
    const d = await new Browser().postForm(`${appUrl()}/signin`, {
      email: notYet.email,
      password: notYet.password,
      redirectTo: '/blogposts',
    })
    expect(path(d)).toBe('/onboarding')
  })

  it('shows a red message, keeps the e-mail and drops the password after a failed sign-in', async () => {
    const user = await createTestUser()
    const res = await new Browser().postForm(`${appUrl()}/signin`, {
      email: user.email,
      password: 'wrong-password-123',
    })
    expect(res.status).toBe(401)
    const html = await res.text()
    expect(html).toContain('Invalid email or password.')
    expect(html).toContain(`value="${user.email}"`)
    expect(html).not.toContain('wrong-password-123')
  })

  it('sends signed-out visitors of protected pages to /signin with a safe return path', async () => {
    for (const page of ['/profile', '/onboarding', '/help']) {
      const res = await new Browser().get(`${appUrl()}${page}`)
      expect(res.status).toBe(302)
      expect(path(res)).toBe(`/signin?redirectTo=${encodeURIComponent(page)}`)
    }
  })

  it('ends the session on log out: the old cookie no longer works', async () => {
    const browser = new Browser()
    const user = await createTestUser()
    await browser.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })
    const cookie = browser.header()
    expect((await browser.get(`${appUrl()}/profile`)).status).toBe(200)
    const out = await browser.postForm(`${appUrl()}/logout`, {})
    expect(out.status).toBe(302)
    expect(path(out)).toBe('/signin')
    const replay = await fetch(`${appUrl()}/profile`, { redirect: 'manual', headers: { Cookie: cookie } })
    expect(replay.status).toBe(302)
    expect(replay.headers.get('location')).toContain('/signin')
    const apiReplay = await fetch(`${appUrl()}/api/user`, { headers: { Cookie: cookie } })
    expect(apiReplay.status).toBe(401)
    // GET never signs anybody out.
    const other = new Browser()
    await other.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })
    await other.get(`${appUrl()}/logout`)
    expect((await other.get(`${appUrl()}/profile`)).status).toBe(200)
  })

  it('completes onboarding through the form and goes to the first search', async () => {
    const user = await createTestUser({ onboarded: false })
    const browser = new Browser()
    await browser.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })
    const bad = await browser.postForm(`${appUrl()}/onboarding`, {
      website: 'nope',
      marketSegment: 'Bakers',
      productService: '',
      countryCode: '',
      languageCode: '',
    })
    expect(bad.status).toBe(400)
    const html = await bad.text()
    expect(html).toContain('Please enter a valid URL')
    expect(html).toContain('Product/Service is required.')
    expect(html).toContain('value="Bakers"')
    const res = await browser.postForm(`${appUrl()}/onboarding`, {
      website: 'https://bakery.example',
      marketSegment: 'Bakers',
      productService: 'sourdough starter',
      countryCode: '2840',
      languageCode: '1003',
    })
    expect(res.status).toBe(302)
    expect(path(res)).toBe(
      '/keywords?query=sourdough+starter&countryCode=2840&languageCode=1003&countryName=United+States&languageName=Spanish&run=1',
    )
  })

  it('saves the profile form, business details included', async () => {
    const user = await createTestUser()
    const browser = new Browser()
    await browser.postForm(`${appUrl()}/signin`, { email: user.email, password: user.password })
    const bad = await browser.postForm(`${appUrl()}/profile`, {
      intent: 'update-profile',
      name: '',
      marketSegment: 'a',
      productService: 'b',
    })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('Name is required.')
    const res = await browser.postForm(`${appUrl()}/profile`, {
      intent: 'update-profile',
      name: 'New Name',
      marketSegment: 'Yoga studios',
      productService: 'booking app',
      website: '',
      countryCode: '2036',
      languageCode: '',
    })
    expect(res.status).toBe(302)
    expect(path(res)).toBe('/profile')
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(row).toMatchObject({
      name: 'New Name',
      marketSegment: 'Yoga studios',
      productService: 'booking app',
      website: null,
      countryCode: '2036',
      countryName: 'Australia',
      languageCode: null,
    })
    const page = await (await browser.get(`${appUrl()}/profile`)).text()
    expect(page).toContain('Profile updated successfully!')
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Help
// ---------------------------------------------------------------------------------------------------------------

/** The modal posts with a fetcher, which asks Remix for the action's data rather than a page. */
const HELP_FETCHER = '/help?_data=routes%2Fhelp'

describe('accounts help requests', () => {
  it('stores the question and e-mails it to support with the user as reply-to', async () => {
    const user = await createTestUser()
    const question = `How do I export keywords? ${crypto.randomUUID()}`
    const res = await api(HELP_FETCHER, {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({ question, mode: 'modal' }),
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true })
    const mail = await waitForSmtpMessage({ to: 'support@rankwell.test', predicate: (m) => m.text.includes(question) })
    expect(mail.headers['reply-to']).toContain(user.email)
    const [row] = await db.select().from(schema.helpRequests).where(eq(schema.helpRequests.question, question))
    expect(row).toMatchObject({ userId: user.id, email: user.email })
    expect(row!.emailedAt).toBeTruthy()
  })

  it('redirects back with a toast when the page form (no JavaScript) is used', async () => {
    const user = await createTestUser()
    const question = `Page form question ${crypto.randomUUID()}`
    const res = await api('/help', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({ question, redirectTo: '/blogposts' }),
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/blogposts')
    await waitForSmtpMessage({ predicate: (m) => m.text.includes(question) })
  })

  it('refuses an empty question and signed-out visitors', async () => {
    const user = await createTestUser()
    const res = await api(HELP_FETCHER, {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({ question: '  ', mode: 'modal' }),
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ ok: false, result: { error: { question: ['Please describe your question.'] } } })
    const anon = await api('/help', { method: 'POST', body: new URLSearchParams({ question: 'hi' }) })
    expect(anon.status).toBe(302)
    expect(anon.headers.get('location')).toContain('/signin')
  })

  it('keeps the question and reports an error when the e-mail cannot be sent', async () => {
    const web = await startWeb(
      { SMTP_URL: `smtp://127.0.0.1:${await freePort()}` },
      { host: 'localhost', ownAppUrl: true },
    )
    extra.push(web)
    const user = await createTestUser()
    const question = `Broken mail question ${crypto.randomUUID()}`
    const res = await fetch(`${web.url}${HELP_FETCHER}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: user.cookie, Origin: web.url, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ question, mode: 'modal' }),
    })
    expect(res.status).toBe(502)
    // Conform's reply (decision 0311): the message as the form's error, the question kept.
    expect(await res.json()).toEqual({
      ok: false,
      result: {
        status: 'error',
        error: { '': ['We could not send your question right now. Please try again in a moment.'] },
        initialValue: { question, mode: 'modal' },
        fields: ['question', 'mode'],
      },
    })
    const [row] = await db.select().from(schema.helpRequests).where(eq(schema.helpRequests.question, question))
    expect(row).toBeTruthy()
    expect(row!.emailedAt).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Google sign-in and /oauth-callback
// ---------------------------------------------------------------------------------------------------------------

describe('accounts Google sign-in', () => {
  it('creates an account for a new Google user, then signs the returning user into the same account', async () => {
    const email = uniqueEmail('google')
    const browser = new Browser()
    const { callbackPath } = await googleSignIn(browser, { email, name: 'Gia Google' })
    expect(callbackPath).toMatch(/^\/oauth-callback\?token=[\w-]{40,}$/)
    const landed = await browser.get(`${appUrl()}${callbackPath}`)
    expect(landed.status).toBe(302)
    expect(path(landed)).toBe('/onboarding')
    expect(browser.cookies.has(cookieName('rw_session'))).toBe(true)
    const me = await fetch(`${appUrl()}/api/user`, { headers: { Cookie: browser.header() } })
    expect(((await me.json()) as { email: string }).email).toBe(email)
    const user = await userByEmail(email)
    expect(user).toMatchObject({ name: 'Gia Google', passwordHash: null })
    expect(user!.googleSub).toMatch(/^\d+$/)

    await db.update(schema.users).set({ onboardingComplete: true }).where(eq(schema.users.id, user!.id))
    const again = new Browser()
    const second = await googleSignIn(again, { email })
    const landedAgain = await again.get(`${appUrl()}${second.callbackPath}`)
    expect(path(landedAgain)).toBe('/keywords')
    const users = await db.select().from(schema.users).where(eq(schema.users.googleSub, user!.googleSub!))
    expect(users).toHaveLength(1)
  })

  it('links an existing password account by its verified e-mail', async () => {
    const existing = await createTestUser({ onboarded: true })
    const browser = new Browser()
    const { callbackPath } = await googleSignIn(browser, { email: existing.email.toUpperCase() })
    const landed = await browser.get(`${appUrl()}${callbackPath}`)
    expect(path(landed)).toBe('/keywords')
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, existing.id))
    expect(row!.googleSub).toBeTruthy()
    expect(row!.passwordHash).toBeTruthy()
  })

  it('refuses an unverified Google e-mail', async () => {
    const email = uniqueEmail('unverified')
    const { callbackPath } = await googleSignIn(new Browser(), { email, verified: false })
    expect(callbackPath).toBe('/signin?error=google-unverified')
    expect(await userByEmail(email)).toBeUndefined()
  })

  it('goes back to /signin with a clear error when consent is denied', async () => {
    const email = uniqueEmail('denied')
    const browser = new Browser()
    const { callbackPath } = await googleSignIn(browser, { email, decision: 'deny' })
    expect(callbackPath).toBe('/signin?error=google-denied')
    const page = await (await browser.get(`${appUrl()}${callbackPath}`)).text()
    expect(page).toContain('Google sign-in was cancelled.')
    expect(await userByEmail(email)).toBeUndefined()
  })

  it('refuses a callback whose state does not match', async () => {
    const res = await new Browser().get(`${appUrl()}/api/auth/google/callback?code=abc&state=forged`)
    expect(res.status).toBe(302)
    expect(path(res)).toBe('/signin?error=google-failed')
  })

  it('accepts a sign-in code only once, only in the browser that got it, and only for a minute', async () => {
    const email = uniqueEmail('code')
    const browser = new Browser()
    const { callbackPath } = await googleSignIn(browser, { email })
    const token = new URL(callbackPath, appUrl()).searchParams.get('token')!

    // A crafted link: the same valid code in another browser never signs that browser in.
    const victim = new Browser()
    const crafted = await victim.get(`${appUrl()}/oauth-callback?token=${token}`)
    expect(path(crafted)).toBe('/signin?error=link-expired')
    expect(victim.cookies.has(cookieName('rw_session'))).toBe(false)

    const pending = browser.cookies.get(cookieName('rw_oauth'))
    expect(pending).toBeTruthy()
    const first = await browser.get(`${appUrl()}${callbackPath}`)
    expect(path(first)).toBe('/onboarding')
    const hash = crypto.createHash('sha256').update(token).digest('hex')
    const [row] = await db.select().from(schema.oauthCodes).where(eq(schema.oauthCodes.codeHash, hash))
    expect(row!.usedAt).toBeTruthy()
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(61_000)

    // Replaying it, even with the pending-code cookie put back, fails: it is used.
    browser.cookies.set(cookieName('rw_oauth'), pending!)
    browser.cookies.delete(cookieName('rw_session'))
    const replay = await browser.get(`${appUrl()}${callbackPath}`)
    expect(path(replay)).toBe('/signin?error=link-expired')
    expect(browser.cookies.has(cookieName('rw_session'))).toBe(false)

    // A code older than a minute fails too.
    const late = new Browser()
    const again = await googleSignIn(late, { email })
    const lateToken = new URL(again.callbackPath, appUrl()).searchParams.get('token')!
    await db
      .update(schema.oauthCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.oauthCodes.codeHash, crypto.createHash('sha256').update(lateToken).digest('hex')))
    const expired = await late.get(`${appUrl()}${again.callbackPath}`)
    expect(path(expired)).toBe('/signin?error=link-expired')
    expect(late.cookies.has(cookieName('rw_session'))).toBe(false)
  })

  it('sends /oauth-callback without a token, or with a made-up one, to /signin', async () => {
    expect(path(await new Browser().get(`${appUrl()}/oauth-callback`))).toBe('/signin')
    expect(path(await new Browser().get(`${appUrl()}/oauth-callback?token=made-up`))).toBe('/signin?error=link-expired')
  })

  it('reaches the fake through GOOGLE_OAUTH_URL for the token and the userinfo', async () => {
    const email = uniqueEmail('urls')
    await googleSignIn(new Browser(), { email })
    const control = googleOAuthControl()
    expect((await control.requests({ method: 'POST', path: '/token' })).length).toBeGreaterThan(0)
    expect((await control.requests({ method: 'GET', path: '/oauth2/v3/userinfo' })).length).toBeGreaterThan(0)
  })

  it('explains that Google is unavailable when it is not configured', async () => {
    const web = await startWeb(
      { GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '' },
      { host: 'localhost', ownAppUrl: true },
    )
    extra.push(web)
    const start = await fetch(`${web.url}/api/auth/google`, { redirect: 'manual' })
    expect(start.status).toBe(302)
    expect(start.headers.get('location')).toBe('/signin?error=google-unavailable')
    const page = await (await fetch(`${web.url}/signin`)).text()
    expect(page).toContain('Google sign-in is unavailable right now.')
    expect(page).not.toContain('href="/api/auth/google"')
  })
})
