import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decryptSecret } from '#app/platform/security/crypto.server'
import { db, schema } from '#app/platform/db/client.server'
import { api, appUrl, createTestUser, type TestUser } from '#tests/setup/app'
import { Browser } from '#tests/setup/http-browser'
import { googleOAuthControl } from '#tests/fakes/client'

/**
 * Issue 34 (3): Search Console's OAuth by the book, against the production build and the Google fake: PKCE S256 on
 * the authorization request (the verifier kept in the signed state cookie), the state cookie cleared by every answer
 * of the callback, and the grant revoked at Google on disconnect and on account deletion, even when Google fails.
 */
const oauth = googleOAuthControl()
const tag = crypto.randomBytes(4).toString('hex')
const STATE_COOKIE = '__Host-rw_gsc'

beforeAll(async () => {
  await oauth.setAuto('allow')
})
afterAll(async () => {
  await oauth.setAuto(null)
})

/** A user whose website has a Search Console property at the fake, and a browser signed in as them. */
async function userWithProperty() {
  const domain = `pkce-${tag}-${crypto.randomBytes(3).toString('hex')}.example`
  const user = await createTestUser()
  await db
    .update(schema.users)
    .set({ website: `https://${domain}` })
    .where(eq(schema.users.id, user.id))
  await oauth.searchConsoleSite(`sc-domain:${domain}`, [])
  const browser = new Browser()
  const [name, ...value] = user.cookie.split('=')
  browser.cookies.set(name!, value.join('='))
  return { user, browser, siteUrl: `sc-domain:${domain}` }
}

/** 'Connect Google Search Console': the redirect to Google's consent screen and the state cookie it set. */
async function startConnect(browser: Browser) {
  const res = await browser.postForm(`${appUrl()}/rankings/search-console/connect`, {})
  expect(res.status).toBe(302)
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${STATE_COOKIE}=`))
  expect(line, 'the state cookie is set under its __Host- name').toBeTruthy()
  expect(line).toMatch(/; Secure/i)
  expect(line).toMatch(/; HttpOnly/i)
  return new URL(res.headers.get('location')!)
}

/** Google's answer to an authorization request (auto-allowed by the fake): the URL of our callback. */
async function consent(url: URL) {
  const res = await fetch(url, { redirect: 'manual' })
  expect(res.status).toBe(302)
  return new URL(res.headers.get('location')!)
}

/** Whether a response's Set-Cookie removes the state cookie. */
function clearsStateCookie(res: Response) {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${STATE_COOKIE}=`))
  return Boolean(line && /max-age=0|expires=thu, 01 jan 1970/i.test(line))
}

async function connection(userId: string) {
  const [row] = await db
    .select()
    .from(schema.searchConsoleConnections)
    .where(eq(schema.searchConsoleConnections.userId, userId))
  return row ?? null
}

/** Connects the user's Search Console the way a browser does; returns the refresh token stored. */
async function connect(browser: Browser, user: TestUser) {
  const back = await consent(await startConnect(browser))
  const res = await browser.get(back.toString())
  expect(res.status).toBe(302)
  const row = await connection(user.id)
  expect(row?.status).toBe('active')
  return decryptSecret(row!.refreshToken)
}

/** Whether Google still honours a refresh token (a refresh_token grant at the fake's token endpoint). */
async function refreshWorks(refreshToken: string) {
  const res = await fetch(`${oauth.url}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: process.env.GOOGLE_CLIENT_ID ?? '',
      client_secret: process.env.GOOGLE_CLIENT_SECRET ?? '',
    }),
  })
  return res.status === 200
}

async function toastOn(browser: Browser, res: Response) {
  expect(res.headers.get('location')).toBe('/rankings')
  return (await browser.get(`${appUrl()}/rankings`)).text()
}

describe('Search Console OAuth (issue 34)', () => {
  it('asks with an S256 PKCE challenge, sends the verifier from the state cookie, connects and clears the cookie', async () => {
    const { user, browser, siteUrl } = await userWithProperty()
    const authorize = await startConnect(browser)
    const challenge = authorize.searchParams.get('code_challenge') ?? ''
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
    // BASE64URL(SHA-256) without padding: 43 characters.
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(authorize.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/webmasters.readonly')

    const since = await oauth.mark()
    const back = await consent(authorize)
    const callback = await browser.get(back.toString())
    expect(callback.status).toBe(302)
    expect(clearsStateCookie(callback)).toBe(true)
    expect(await toastOn(browser, callback)).toContain(`Google Search Console connected (${siteUrl}).`)

    const [exchange] = await oauth.requests({ path: '/token', since })
    const sent = exchange!.body as Record<string, string>
    expect(sent.grant_type).toBe('authorization_code')
    expect(sent.code_verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/)
    expect(crypto.createHash('sha256').update(sent.code_verifier!).digest('base64url')).toBe(challenge)
    expect(await connection(user.id)).toMatchObject({ status: 'active', siteUrl })

    // The state was good for one callback: the same answer again (the cookie is gone) connects nothing new.
    const replay = await browser.get(back.toString())
    expect(await toastOn(browser, replay)).toContain('The Google sign-in expired. Please try connecting again.')
  })

  it('refuses a code exchanged with the wrong verifier with a clear message, and clears the cookie on every failure', async () => {
    const { user, browser } = await userWithProperty()
    // Two connection attempts in one browser: the second's cookie (state and verifier) replaced the first's. A code
    // issued for the first attempt's challenge, delivered with the second's state, reaches Google with the wrong verifier.
    const first = await startConnect(browser)
    const second = await startConnect(browser)
    const injected = new URL(first)
    injected.searchParams.set('state', second.searchParams.get('state')!)
    const since = await oauth.mark()
    const callback = await browser.get((await consent(injected)).toString())
    expect(callback.status).toBe(302)
    expect(clearsStateCookie(callback)).toBe(true)
    expect(await toastOn(browser, callback)).toContain(
      'Google could not confirm that this browser started the connection. Please try connecting again.',
    )
    const [exchange] = await oauth.requests({ path: '/token', since })
    expect((exchange!.body as Record<string, string>).code_verifier).toBeTruthy()
    expect(await connection(user.id)).toBeNull()

    // A state that does not match the cookie's.
    await startConnect(browser)
    const mismatch = await browser.get(
      `${appUrl()}/rankings/search-console/callback?state=forged&code=4%2F0Afake-forged`,
    )
    expect(clearsStateCookie(mismatch)).toBe(true)
    expect(await toastOn(browser, mismatch)).toContain('The Google sign-in expired. Please try connecting again.')

    // Google's refusal (the user said no).
    const denied = await startConnect(browser)
    const refused = await browser.get(
      `${appUrl()}/rankings/search-console/callback?error=access_denied&state=${denied.searchParams.get('state')}`,
    )
    expect(clearsStateCookie(refused)).toBe(true)
    expect(await toastOn(browser, refused)).toContain('Google Search Console access was not granted.')
    expect(await connection(user.id)).toBeNull()
  })

  it('revokes the grant at Google on disconnect, and disconnects anyway when Google fails', async () => {
    const { user, browser } = await userWithProperty()
    const token = await connect(browser, user)
    expect(await refreshWorks(token)).toBe(true)
    const done = await browser.postForm(`${appUrl()}/rankings`, { intent: 'disconnect-search-console' })
    expect(done.status).toBeLessThan(400)
    expect(await connection(user.id)).toBeNull()
    const revoked = (await oauth.revocations()).filter((r) => r.token === token)
    expect(revoked).toEqual([expect.objectContaining({ token, revoked: true })])
    expect(await refreshWorks(token)).toBe(false)

    // Google answers 503 to the revocation: the disconnect goes through and the local token is deleted.
    const again = await connect(browser, user)
    const since = await oauth.mark()
    await oauth.enqueue({
      path: '/revoke',
      status: 503,
      body: { error: 'backend_error' },
      bodyIncludes: new URLSearchParams({ token: again }).toString(),
    })
    const down = await browser.postForm(`${appUrl()}/rankings`, { intent: 'disconnect-search-console' })
    expect(down.status).toBeLessThan(400)
    expect(await toastOn(browser, down)).toContain('Google Search Console disconnected.')
    expect(await connection(user.id)).toBeNull()
    const calls = await oauth.requests({ path: '/revoke', since })
    expect(calls.map((c) => (c.body as { token?: string }).token)).toContain(again)
  })

  it('revokes the grant at Google when the account is deleted', async () => {
    const { user, browser } = await userWithProperty()
    const token = await connect(browser, user)
    const deleted = await api('/api/user', { method: 'DELETE', as: user, json: { password: user.password } })
    expect(deleted.status).toBe(200)
    expect(await connection(user.id)).toBeNull()
    expect((await oauth.revocations()).filter((r) => r.token === token)).toEqual([
      expect.objectContaining({ token, revoked: true }),
    ])
    expect(await refreshWorks(token)).toBe(false)
  })

  it('deletes the account even when Google cannot revoke the grant', async () => {
    const { user, browser } = await userWithProperty()
    const token = await connect(browser, user)
    const since = await oauth.mark()
    await oauth.enqueue({
      path: '/revoke',
      status: 400,
      body: { error: 'invalid_token', error_description: 'Token expired or revoked' },
      bodyIncludes: new URLSearchParams({ token }).toString(),
    })
    const deleted = await api('/api/user', { method: 'DELETE', as: user, json: { password: user.password } })
    expect(deleted.status).toBe(200)
    expect(await connection(user.id)).toBeNull()
    const [user2] = await db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(user2).toBeUndefined()
    expect(
      (await oauth.requests({ path: '/revoke', since })).map((c) => (c.body as { token?: string }).token),
    ).toContain(token)
  })
})
