import crypto from 'node:crypto'
import { createCookieSessionStorage } from '@remix-run/node'
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm'
import { Authenticator, AuthorizationError } from 'remix-auth'
import { GoogleStrategy, type GoogleProfile, type GoogleStrategyOptions } from 'remix-auth-google'
import { db, schema } from '#app/platform/db/client.server'
import { cookieName, signedCookieOptions } from '#app/platform/http/cookies.server'
import { getEnv, services } from '#app/platform/env.server'
import { createUser, findUserByEmail, normalizeEmail } from './users.server'
import { parseReclaimed, type ReclaimedSettings } from './account-schemas'
import { afterReclaim, reclaimAccount, type AccountReclaim } from './account-takeover.server'

/**
 * Google sign-in (remix-auth 3 + remix-auth-google 2): GET /api/auth/google sends the browser to Google,
 * GET /api/auth/google/callback creates or links the account by verified e-mail (keyed on Google's `sub`) and
 * mints a single-use code, and /oauth-callback?token=<code> redeems it for a browser session.
 *
 * The code lives one minute, is stored hashed, is marked used atomically, and is bound to the browser that went
 * through the callback (its hash sits in the signed OAuth cookie), so a crafted /oauth-callback link can never sign
 * a visitor into somebody else's account.
 */

/**
 * `tookOver`: Google proved the address of an unverified account, which it then took over (see below);
 * `reclaimed`: what whoever created it had left and was removed then (issue 34).
 */
export type GoogleUser = {
  id: string
  onboardingComplete: boolean
  tookOver?: boolean
  reclaimed?: ReclaimedSettings
}

export const OAUTH_CODE_TTL_MS = 60_000
const PENDING_CODE_KEY = 'pending-code'
/** What a takeover removed, carried in the signed OAuth cookie to /oauth-callback's message. */
const RECLAIMED_KEY = 'reclaimed'
/** The key of the removals handed down by the route (`finishGoogleSignIn`) in remix-auth's context. */
const RECLAIM_CONTEXT_KEY = 'accountReclaim'

function reclaimFrom(context: Record<string, unknown> | undefined): AccountReclaim {
  const reclaim = context?.[RECLAIM_CONTEXT_KEY] as AccountReclaim | undefined
  if (!reclaim) throw new Error("Google sign-in was started without the takeover's removals")
  return reclaim
}

export class GoogleSignInError extends Error {
  constructor(
    readonly code: 'google-unverified' | 'google-conflict' | 'google-failed',
    message: string,
  ) {
    super(message)
  }
}

/** Google's endpoints, or the ones under GOOGLE_OAUTH_URL (a compatible server, the test fake). */
export function googleEndpoints(base: string | undefined) {
  const root = base?.replace(/\/+$/, '')
  return {
    authorizationURL: root ? `${root}/o/oauth2/v2/auth` : 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenURL: root ? `${root}/token` : 'https://oauth2.googleapis.com/token',
    userInfoURL: root ? `${root}/oauth2/v3/userinfo` : 'https://www.googleapis.com/oauth2/v3/userinfo',
    /** Token revocation (RFC 7009 style: POST, form-encoded `token=`, 200 when revoked). */
    revokeURL: root ? `${root}/revoke` : 'https://oauth2.googleapis.com/revoke',
  }
}

/** remix-auth-google hard-codes Google's URLs; this points them at GOOGLE_OAUTH_URL when it is set. */
class ConfigurableGoogleStrategy extends GoogleStrategy<GoogleUser> {
  private readonly profileURL: string

  constructor(
    options: GoogleStrategyOptions & { baseURL?: string },
    verify: ConstructorParameters<typeof GoogleStrategy<GoogleUser>>[1],
  ) {
    super(options, verify)
    const endpoints = googleEndpoints(options.baseURL)
    this.authorizationURL = endpoints.authorizationURL
    this.tokenURL = endpoints.tokenURL
    this.profileURL = endpoints.userInfoURL
  }

  protected async userProfile(accessToken: string): Promise<GoogleProfile> {
    const response = await fetch(this.profileURL, { headers: { Authorization: `Bearer ${accessToken}` } })
    if (!response.ok) throw new Error(`Google userinfo answered ${response.status}`)
    const raw = (await response.json()) as GoogleProfile['_json']
    return {
      provider: 'google',
      id: raw.sub,
      displayName: raw.name,
      name: { familyName: raw.family_name, givenName: raw.given_name },
      emails: [{ value: raw.email }],
      photos: [{ value: raw.picture }],
      _json: raw,
    }
  }
}

/** The OAuth `state` (and the pending code's hash) travel in a short-lived cookie signed with SESSION_SECRETS. */
function oauthStorage() {
  return createCookieSessionStorage({ cookie: { name: cookieName('rw_oauth'), ...signedCookieOptions(10 * 60) } })
}

let cached: { authenticator: Authenticator<GoogleUser>; storage: ReturnType<typeof oauthStorage> } | undefined

function google() {
  if (cached) return cached
  const env = getEnv()
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) throw new Error('Google sign-in is not configured')
  const storage = oauthStorage()
  const authenticator = new Authenticator<GoogleUser>(storage, { throwOnError: true })
  authenticator.use(
    new ConfigurableGoogleStrategy(
      {
        clientID: env.GOOGLE_CLIENT_ID,
        clientSecret: env.GOOGLE_CLIENT_SECRET,
        callbackURL: new URL('/api/auth/google/callback', env.APP_URL).toString(),
        scope: ['openid', 'email', 'profile'],
        prompt: 'select_account',
        baseURL: env.GOOGLE_OAUTH_URL,
      },
      ({ profile, context }) => findOrCreateGoogleUser(profile, reclaimFrom(context)),
    ),
  )
  cached = { authenticator, storage }
  return cached
}

export const googleEnabled = () => services().google

/** Throws the redirect to Google's consent screen (with the state cookie set). */
export async function startGoogleSignIn(request: Request): Promise<never> {
  await google().authenticator.authenticate('google', request)
  throw new Error('remix-auth did not redirect to Google')
}

/**
 * Handles Google's redirect back: exchanges the code, finds or creates the user, and returns where to send the
 * browser next (/oauth-callback with a fresh single-use code) plus the cookie that binds the code to this browser.
 * Failures come back as a /signin error code. `reclaim`: what a takeover of an unverified account removes above
 * accounts (handed down by the route, issue 34).
 */
export async function finishGoogleSignIn(
  request: Request,
  reclaim: AccountReclaim,
): Promise<{ ok: true; to: string; setCookie: string } | { ok: false; error: string; setCookie: string }> {
  const { authenticator, storage } = google()
  const session = await storage.getSession(request.headers.get('Cookie'))
  const url = new URL(request.url)
  const clear = () => storage.destroySession(session)
  if (url.searchParams.get('error')) {
    return {
      ok: false,
      error: url.searchParams.get('error') === 'access_denied' ? 'google-denied' : 'google-failed',
      setCookie: await clear(),
    }
  }
  let user: GoogleUser
  try {
    user = await authenticator.authenticate('google', request, { context: { [RECLAIM_CONTEXT_KEY]: reclaim } })
  } catch (error) {
    if (error instanceof Response) throw error
    const cause = error instanceof AuthorizationError ? error.cause : error
    if (cause instanceof GoogleSignInError) return { ok: false, error: cause.code, setCookie: await clear() }
    console.error('[google sign-in]', error instanceof Error ? error.message : error)
    return { ok: false, error: 'google-failed', setCookie: await clear() }
  }
  if (user.tookOver) await afterReclaim(reclaim, user.id)
  const code = await mintOAuthCode(user.id)
  session.unset('oauth2:state')
  session.set(PENDING_CODE_KEY, hashCode(code))
  if (user.reclaimed) session.set(RECLAIMED_KEY, user.reclaimed)
  return {
    ok: true,
    to: `/oauth-callback?${new URLSearchParams({ token: code, ...(user.tookOver ? { notice: 'account-secured' } : {}) })}`,
    setCookie: await storage.commitSession(session),
  }
}

/**
 * Signs in by Google `sub`; otherwise links or creates the account by the verified e-mail address, or takes over
 * an unverified account with that address (removing what `reclaim` and accounts remove, issue 34).
 */
export async function findOrCreateGoogleUser(profile: GoogleProfile, reclaim: AccountReclaim): Promise<GoogleUser> {
  const sub = String(profile._json?.sub ?? profile.id ?? '')
  if (!sub) throw new GoogleSignInError('google-failed', 'Google did not say who you are.')
  const pick = (u: { id: string; onboardingComplete: boolean }) => ({
    id: u.id,
    onboardingComplete: u.onboardingComplete,
  })

  const [bySub] = await db.select().from(schema.users).where(eq(schema.users.googleSub, sub)).limit(1)
  if (bySub) return pick(bySub)

  const email = profile._json?.email ?? profile.emails?.[0]?.value
  const verified =
    (profile._json?.email_verified as unknown) === true || (profile._json?.email_verified as unknown) === 'true'
  if (!email || !verified)
    throw new GoogleSignInError('google-unverified', 'Your Google email address is not verified.')

  const existing = await findUserByEmail(email)
  if (existing) {
    if (existing.googleSub && existing.googleSub !== sub) {
      throw new GoogleSignInError('google-conflict', 'This email is linked to a different Google account.')
    }
    if (existing.emailVerifiedAt) {
      const [linked] = await db
        .update(schema.users)
        .set({ googleSub: sub, updatedAt: new Date() })
        .where(and(eq(schema.users.id, existing.id), isNull(schema.users.googleSub)))
        .returning()
      return pick(linked ?? existing)
    }
    // Nobody ever proved this address, and Google just did: whoever signed up with it may not be its owner. The owner
    // takes the account over cleanly: the password is removed, every session, API token and link is ended, and what
    // whoever created it set up is removed (account-takeover.server.ts), all in one transaction.
    const tookOver = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(schema.users)
        .set({ googleSub: sub, passwordHash: null, emailVerifiedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(schema.users.id, existing.id), isNull(schema.users.emailVerifiedAt)))
        .returning()
      if (!row) return null
      const reclaimed = await reclaimAccount(tx, row.id, reclaim)
      return { id: row.id, onboardingComplete: false, reclaimed }
    })
    if (tookOver) return { ...tookOver, tookOver: true }
    const again = await findUserByEmail(email)
    if (again?.googleSub === sub) return pick(again)
    throw new GoogleSignInError('google-failed', 'Could not sign you in. Please try again.')
  }

  const name = profile.displayName?.trim() || normalizeEmail(email).split('@')[0]!
  const created = await createUser({ email, name, googleSub: sub, emailVerified: true })
  if (created) return pick(created)
  // Lost a race with a concurrent sign-in of the same person: the row exists now.
  const again = await findUserByEmail(email)
  if (again && (!again.googleSub || again.googleSub === sub)) return pick(again)
  throw new GoogleSignInError('google-failed', 'Could not create your account.')
}

const hashCode = (code: string) => crypto.createHash('sha256').update(code).digest('hex')

export async function mintOAuthCode(userId: string): Promise<string> {
  const code = crypto.randomBytes(32).toString('base64url')
  await db
    .insert(schema.oauthCodes)
    .values({ codeHash: hashCode(code), userId, expiresAt: new Date(Date.now() + OAUTH_CODE_TTL_MS) })
  // Housekeeping: codes are useless a minute after minting.
  await db.delete(schema.oauthCodes).where(lt(schema.oauthCodes.expiresAt, new Date(Date.now() - 24 * 3600 * 1000)))
  return code
}

/**
 * Redeems a code from /oauth-callback: only when this browser carries the matching pending-code cookie, and only
 * once (the UPDATE marks it used atomically). Returns the user and the cookie that clears the OAuth state.
 */
export async function redeemOAuthCode(
  request: Request,
  code: string,
): Promise<{ user: GoogleUser | null; setCookie: string | null; reclaimed: ReclaimedSettings | null }> {
  const storage = cached?.storage ?? oauthStorage()
  const session = await storage.getSession(request.headers.get('Cookie'))
  const hash = hashCode(code)
  const bound = session.get(PENDING_CODE_KEY)
  const reclaimed = parseReclaimed(session.get(RECLAIMED_KEY))
  const setCookie =
    session.has(PENDING_CODE_KEY) || session.has('oauth2:state') ? await storage.destroySession(session) : null
  if (
    typeof bound !== 'string' ||
    bound.length !== hash.length ||
    !crypto.timingSafeEqual(Buffer.from(bound), Buffer.from(hash))
  ) {
    return { user: null, setCookie, reclaimed: null }
  }
  const [row] = await db
    .update(schema.oauthCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(schema.oauthCodes.codeHash, hash),
        isNull(schema.oauthCodes.usedAt),
        gt(schema.oauthCodes.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: schema.oauthCodes.userId })
  if (!row) return { user: null, setCookie, reclaimed: null }
  const [user] = await db
    .select({ id: schema.users.id, onboardingComplete: schema.users.onboardingComplete })
    .from(schema.users)
    .where(eq(schema.users.id, row.userId))
    .limit(1)
  return { user: user ?? null, setCookie, reclaimed: user ? reclaimed : null }
}
