import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { createApiKey } from '#app/features/accounts/api-keys.server'
import { formatApiKey } from '#app/features/accounts/api-keys'
import { db, schema } from '#app/platform/db/client.server'
import { encryptSecret } from '#app/platform/security/crypto.server'
import { waitForSmtpMessage } from '#tests/fakes/client'
import { api, appUrl, createTestUser, type TestUser } from '#tests/setup/app'
import { Browser } from '#tests/setup/http-browser'
import { freshStep, totpCode } from '#tests/setup/totp'

// Issue 38, personal API keys at the HTTP boundary: made on /profile without JavaScript (shown once, stored hashed,
// a security e-mail), accepted as Bearer within their scopes (403 in the spec's error shape beyond them), last use
// recorded, refused at once when revoked, rate-limited per key, listed in the data export without the secret.

const INVALID = { message: 'Invalid or revoked API key.' }
const missing = (scope: string) => ({ message: `This API key does not have the '${scope}' scope.` })
const KEY_IN_PAGE = /data-testid="new-api-key-value"[^>]*>(rwk_[0-9A-Za-z]{49})</

function browserOf(user: TestUser) {
  const browser = new Browser()
  const at = user.cookie.indexOf('=')
  browser.cookies.set(user.cookie.slice(0, at), user.cookie.slice(at + 1))
  return browser
}

/** A request with a key as Bearer, from `ip`. */
const withKey = (key: string, ip: string, init: { method?: string; json?: unknown } = {}) => ({
  ...init,
  headers: { Authorization: `Bearer ${key}`, 'X-Forwarded-For': ip },
})

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex')

describe('personal API keys', () => {
  it('are made on /profile and shown once, work within their scopes, record their last use and stop at once when revoked', async () => {
    const user = await createTestUser()
    const browser = browserOf(user)
    const profile = `${appUrl()}/profile`
    const hostile = '<img src=x onerror=alert(1)> & "CI"'

    // Hostile and wrong input: errors beside the fields, nothing made.
    const bad = await browser.postForm(profile, [
      ['intent', 'api-key-create'],
      ['name', 'bad\u0000name'],
      ['scopes', 'admin'],
    ])
    expect(bad.status).toBe(400)
    const badPage = await bad.text()
    expect(badPage).toMatch(/id="[^"]*name[^"]*-error"[^>]*>This field contains characters that are not allowed\.</)
    expect(badPage).toMatch(/id="[^"]*scopes[^"]*-error"[^>]*>Choose scopes from read, write and publish\.</)
    expect(await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.userId, user.id))).toHaveLength(0)

    // Made: shown once in the answer (never cached), the name as text.
    const before = Date.now()
    const made = await browser.postForm(profile, [
      ['intent', 'api-key-create'],
      ['name', hostile],
      ['scopes', 'write'],
    ])
    expect(made.status).toBe(200)
    expect(made.headers.get('cache-control')).toContain('no-store')
    const page = await made.text()
    const key = KEY_IN_PAGE.exec(page)?.[1]
    expect(key).toBeDefined()
    expect(page).toContain('API key created. Copy it now: it is shown only once.')
    expect(page).not.toContain('<img src=x')
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;CI&quot;')
    const [row] = await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.userId, user.id))
    expect(row).toMatchObject({ secretHash: sha256(key!), prefix: key!.slice(0, 12), scopes: ['read', 'write'] })
    expect(JSON.stringify(row)).not.toContain(key!.slice(12))
    const mail = await waitForSmtpMessage({
      to: user.email,
      predicate: (m) => m.subject.includes('new API key') && Date.parse(m.receivedAt) >= before - 1000,
    })
    expect(mail.text).toContain(key!.slice(0, 12))
    expect(`${mail.text}${mail.html}`).not.toContain(key!.slice(12))
    expect(mail.html).not.toContain('<img src=x')
    // The page again: the key is listed by its start, never shown whole again.
    const again = await (await browser.get(profile)).text()
    expect(again).toContain(`${key!.slice(0, 12)}…`)
    expect(again).not.toContain(key!.slice(12))
    expect(again).toContain('never used')

    // Within its scopes: reads and writes; not publishing (403, the spec's error shape, the scope named).
    const ip = '10.38.7.99'
    const me = await api('/api/user', withKey(key!, ip))
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ email: user.email })
    const update = await api('/api/user/update', {
      ...withKey(key!, ip, { method: 'PUT' }),
      json: { name: 'Keyed', marketSegment: 'Founders', productService: 'Tools' },
    })
    expect(update.status).toBe(200)
    const publish = await api(`/api/blogpost/${crypto.randomUUID()}/publish`, {
      ...withKey(key!, ip, { method: 'POST' }),
      json: { action: 'approve' },
    })
    expect(publish.status).toBe(403)
    expect(publish.body).toEqual(missing('publish'))
    expect(publish.headers.get('www-authenticate')).toContain('insufficient_scope')
    // Signing out is for sessions: the key says so and keeps working.
    const logout = await api('/api/logout', withKey(key!, ip, { method: 'POST' }))
    expect(logout.status).toBe(400)
    expect(logout.body.message).toMatch(/not a session/)
    // Last use: when and from which network (the address cut to its /24).
    const [used] = await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, row!.id))
    expect(used!.lastUsedIpPrefix).toBe('10.38.7.x')
    expect(used!.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(await (await browser.get(profile)).text()).toMatch(/last used [^<]+ from 10\.38\.7\.x/)

    // Revoked on /profile: refused on the very next request; a second revoke finds nothing.
    const revoke = await browser.postForm(profile, { intent: 'api-key-revoke', keyId: row!.id })
    expect(revoke.status).toBe(303)
    const refused = await api('/api/user', withKey(key!, ip))
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual(INVALID)
    const twice = await browser.postForm(profile, { intent: 'api-key-revoke', keyId: row!.id })
    expect(twice.status).toBe(400)
    expect(await twice.text()).toContain('That API key was already revoked.')
    await waitForSmtpMessage({ to: user.email, predicate: (m) => m.subject === 'An API key was revoked' })

    // The data export lists it (revoked), without the secret or its hash.
    const exported = await api('/api/user/export', { as: user, auth: 'cookie' })
    expect(exported.status).toBe(200)
    expect(exported.body.apiKeys).toEqual([
      expect.objectContaining({ id: row!.id, name: hostile, prefix: key!.slice(0, 12), scopes: ['read', 'write'] }),
    ])
    expect((exported.body.apiKeys as Array<{ revokedAt: string | null }>)[0]!.revokedAt).not.toBeNull()
    expect(exported.text).not.toContain(key!.slice(12))
    expect(exported.text).not.toContain(row!.secretHash)
  })

  it('read-only keys cannot write, publish keys can publish, unknown keys get 401, each key has its own rate limit', async () => {
    const user = await createTestUser()
    const made = async (scopes: Array<'read' | 'write' | 'publish'>) => {
      const created = await createApiKey(user.id, { name: scopes.join('+'), scopes })
      if (!created.ok) throw new Error('no key')
      return created.key
    }
    const [reader, publisher] = [await made(['read']), await made(['read', 'publish'])]
    const ip = '10.38.8.1'
    expect((await api('/api/saved-keywords', withKey(reader, ip))).status).toBe(200)
    for (const [path, method, json] of [
      ['/api/creator', 'POST', { keywordId: crypto.randomUUID() }],
      ['/api/user/update', 'PUT', { name: 'x', marketSegment: 'x', productService: 'x' }],
      ['/api/user', 'DELETE', { password: user.password }],
      ['/api/autopilot/toggle', 'POST', { enabled: true }],
    ] as const) {
      const res = await api(path, { ...withKey(reader, ip, { method }), json })
      expect([path, res.status, res.body]).toEqual([path, 403, missing('write')])
    }
    expect((await db.select().from(schema.users).where(eq(schema.users.id, user.id))).length).toBe(1)
    // 'publish' passes the scope check (the post is not waiting for review: refused after it).
    const notWaiting = { message: 'This draft is not waiting for review.' }
    const publish = await api(`/api/blogpost/${crypto.randomUUID()}/publish`, {
      ...withKey(publisher, ip, { method: 'POST' }),
      json: { action: 'reject' },
    })
    expect([publish.status, publish.body]).toEqual([400, notWaiting])
    // A session token holds every scope.
    const viaToken = await api(`/api/blogpost/${crypto.randomUUID()}/publish`, {
      method: 'POST',
      as: user,
      json: { action: 'reject' },
    })
    expect([viaToken.status, viaToken.body]).toEqual([400, notWaiting])
    // Unknown (well-formed), malformed and truncated keys: 401, the same message.
    for (const bad of [formatApiKey(crypto.randomBytes(32)), 'rwk_notakey', reader.slice(0, -1), `${reader}0`]) {
      const res = await api('/api/saved-keywords', withKey(bad, ip))
      expect([res.status, res.body]).toEqual([401, INVALID])
    }

    // 120 requests a minute per key: the one past it gets 429 with Retry-After; the other key is not affected.
    let limited: Awaited<ReturnType<typeof api>> | undefined
    let sent = 0
    while (!limited && sent < 250) {
      const batch = await Promise.all(Array.from({ length: 25 }, () => api('/api/system/ping', withKey(reader, ip))))
      sent += batch.length
      limited = batch.find((r) => r.status === 429)
      for (const r of batch) expect([400, 429]).toContain(r.status)
    }
    expect(limited).toBeDefined()
    expect(limited!.body).toEqual({ message: 'Too many requests with this API key. Please wait and try again.' })
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await api('/api/system/ping', withKey(publisher, ip))).status).toBe(400)
  })

  it('asks for the second factor before making a key, and allows ten active keys', async () => {
    const user = await createTestUser()
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
    await db
      .insert(schema.userTotp)
      .values({ userId: user.id, secretEncrypted: encryptSecret(secret), confirmedAt: new Date() })
    const browser = browserOf(user)
    const profile = `${appUrl()}/profile`
    const create = (extra: Array<[string, string]> = []) =>
      browser.postForm(profile, [['intent', 'api-key-create'], ['name', 'Agent'], ['scopes', 'read'], ...extra])
    const noCode = await create()
    expect(noCode.status).toBe(400)
    expect(await noCode.text()).toMatch(/id="[^"]*code[^"]*-error"/)
    await freshStep(3000)
    const ok = await create([['code', await totpCode(secret)]])
    expect(ok.status).toBe(200)
    expect(KEY_IN_PAGE.test(await ok.text())).toBe(true)
    for (let i = 0; i < 9; i++) expect((await createApiKey(user.id, { name: `k${i}`, scopes: ['read'] })).ok).toBe(true)
    expect(await createApiKey(user.id, { name: 'eleventh', scopes: ['read'] })).toEqual({ ok: false, reason: 'limit' })
    await db.delete(schema.userTotp).where(eq(schema.userTotp.userId, user.id))
    const eleventh = await create()
    expect(eleventh.status).toBe(400)
    expect(await eleventh.text()).toContain('You can have at most 10 active API keys. Revoke one first.')
  })
})
