/**
 * Helpers for integration tests. They run in their own process with the same environment as the app under
 * test (scripts/test.ts), so they may read Postgres directly to assert what the app wrote.
 */
import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { markEmailVerified } from '#app/features/accounts/account-security.server'
import { issueApiToken } from '#app/features/accounts/api-auth.server'
import { db, schema } from '#app/platform/db/client.server'
import { createSession, sessionCookie } from '#app/features/accounts/session.server'
import { createUser } from '#app/features/accounts/users.server'
import { hashPassword } from '#app/platform/security/password.server'

export const appUrl = () => {
  const url = process.env.APP_URL
  if (!url) throw new Error('APP_URL is not set: run integration tests through `npm test`')
  return url
}

export function uniqueEmail(prefix = 'user') {
  return `${prefix}-${crypto.randomBytes(5).toString('hex')}@example.com`
}

/** A client IP of its own (tests send it as X-Forwarded-For), so that one test's rate limits never touch another's. */
export const uniqueIp = () => `10.${crypto.randomInt(0, 255)}.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 254)}`

export type TestUser = Awaited<ReturnType<typeof createTestUser>>

const passwordHashes = new Map<string, Promise<string>>()
function hashOnce(password: string) {
  let hash = passwordHashes.get(password)
  if (!hash) passwordHashes.set(password, (hash = hashPassword(password)))
  return hash
}

/** A user created directly in the database, with a browser cookie and an API token. */
export async function createTestUser(
  opts: { onboarded?: boolean; password?: string; name?: string; verified?: boolean } = {},
) {
  const email = uniqueEmail()
  const password = opts.password ?? 'correct-horse-battery'
  const created = await createUser({ email, name: opts.name ?? 'Test User' })
  if (!created) throw new Error('could not create test user')
  // The password's real argon2id hash (sign-in verifies it), computed once per process and password: hashing costs a
  // fifth of a CPU-second, and the suite makes hundreds of users with the same password on a 2-core machine.
  const passwordHash = await hashOnce(password)
  await db.update(schema.users).set({ passwordHash }).where(eq(schema.users.id, created.id))
  const user = { ...created, passwordHash }
  // Verified unless asked otherwise, as if the link of the verification e-mail had been followed.
  if (opts.verified ?? true) await markEmailVerified(user.id)
  if (opts.onboarded ?? true) {
    await db
      .update(schema.users)
      .set({
        onboardingComplete: true,
        marketSegment: 'Indie SaaS founders',
        productService: 'email marketing software',
        website: 'https://example.com',
        countryCode: '2840',
        countryName: 'United States',
        languageCode: '1000',
        languageName: 'English',
      })
      .where(eq(schema.users.id, user.id))
  }
  const session = await createSession(user.id)
  const cookie = (await sessionCookie().serialize(session.id)).split(';')[0]!
  const token = await issueApiToken({ id: user.id, onboardingComplete: opts.onboarded ?? true })
  return { ...user, password, cookie, token }
}

/** fetch against the app; `as` signs the request in with a user's Bearer token or cookie. */
export async function api(
  path: string,
  init: RequestInit & { json?: unknown; as?: { token?: string; cookie?: string }; auth?: 'token' | 'cookie' } = {},
) {
  const headers = new Headers(init.headers)
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json')
    init.body = JSON.stringify(init.json)
  }
  if (init.as) {
    if ((init.auth ?? 'token') === 'token' && init.as.token) headers.set('Authorization', `Bearer ${init.as.token}`)
    else if (init.as.cookie) {
      headers.set('Cookie', init.as.cookie)
      headers.set('Origin', appUrl())
    }
  }
  const res = await fetch(`${appUrl()}${path}`, { ...init, headers, redirect: 'manual' })
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: body as Record<string, unknown> & unknown, text }
}

export async function waitFor<T>(
  fn: () => Promise<T | null | undefined | false>,
  opts: { timeout?: number; interval?: number } = {},
) {
  const deadline = Date.now() + (opts.timeout ?? 20_000)
  let last: unknown
  while (Date.now() < deadline) {
    try {
      const value = await fn()
      if (value) return value
    } catch (e) {
      last = e
    }
    await new Promise((r) => setTimeout(r, opts.interval ?? 200))
  }
  throw new Error(`waitFor timed out${last ? `: ${(last as Error).message}` : ''}`)
}
