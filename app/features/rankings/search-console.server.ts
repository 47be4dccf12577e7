import crypto from 'node:crypto'
import { createCookie } from '@remix-run/node'
import { and, eq, sql } from 'drizzle-orm'
import { addDays, domainOf, utcDay } from './rankings'
import { decryptSecret, encryptSecret } from '#app/platform/security/crypto.server'
import { db, schema } from '#app/platform/db/client.server'
import { cookieName, signedCookieOptions } from '#app/platform/http/cookies.server'
import { getEnv, services } from '#app/platform/env.server'
import { googleEndpoints } from '#app/features/accounts/google-auth.server'
import type { Tx } from '#app/features/accounts/account-takeover.server'
import { mailConfigured, sendMail } from '#app/platform/mail/mail.server'
import { escapeHtml } from '#app/platform/html'
import { observeProvider } from '#app/platform/observability/metrics.server'

/**
 * Google Search Console: OAuth with the `webmasters.readonly` scope (the refresh token stored encrypted), the
 * property that matches the user's website, and the daily pull of clicks, impressions, CTR and average position by
 * day, page and query (`searchanalytics.query`, paged until an empty page, 16 months back at first and then from
 * the day after the last complete one). A revoked grant disables the connection once, with a banner and an e-mail.
 * Issue 34: the authorization request carries a PKCE challenge (RFC 7636, S256; the verifier waits in the signed state
 * cookie), the state cookie is cleared whatever the callback's outcome, and the grant is revoked at Google when the
 * user disconnects or deletes the account (decision 0342).
 */
export const SEARCH_CONSOLE_SCOPE = 'https://www.googleapis.com/auth/webmasters.readonly'
const conns = schema.searchConsoleConnections

/** Search Console keeps 16 months; its figures settle after about two days. */
const HISTORY_DAYS = 486
const SETTLE_DAYS = 2
const CHUNK_DAYS = 30
const ROW_LIMIT = 25_000
const TIMEOUT_MS = 20_000

export class SearchConsoleError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message)
  }
}

export const searchConsoleAvailable = () => services().google

const callbackUrl = () => new URL('/rankings/search-console/callback', getEnv().APP_URL).toString()

function stateCookie() {
  return createCookie(cookieName('rw_gsc'), signedCookieOptions(10 * 60))
}

/** The Set-Cookie that removes the state cookie (every answer of the callback sends it). */
export function clearStateCookie() {
  return stateCookie().serialize('', { maxAge: 0, expires: new Date(0) })
}

/** RFC 7636: a verifier of 64 unreserved characters (48 random bytes) and its S256 challenge. */
export function pkcePair() {
  const verifier = crypto.randomBytes(48).toString('base64url')
  return { verifier, challenge: pkceChallenge(verifier) }
}

/** `BASE64URL(SHA256(ASCII(code_verifier)))`, without padding. */
export const pkceChallenge = (verifier: string) => crypto.createHash('sha256').update(verifier).digest('base64url')

/**
 * The redirect to Google's consent screen, with the state bound to this browser and user, and the PKCE verifier, in
 * a signed cookie.
 */
export async function connectRedirect(userId: string) {
  const env = getEnv()
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) throw new Error('Google OAuth is not configured')
  const state = crypto.randomBytes(24).toString('base64url')
  const { verifier, challenge } = pkcePair()
  const url = new URL(googleEndpoints(env.GOOGLE_OAUTH_URL).authorizationURL)
  url.search = new URLSearchParams({
    client_id: env.GOOGLE_CLIENT_ID,
    redirect_uri: callbackUrl(),
    response_type: 'code',
    scope: SEARCH_CONSOLE_SCOPE,
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'true',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString()
  return { location: url.toString(), setCookie: await stateCookie().serialize({ state, userId, verifier }) }
}

async function tokenRequest(params: Record<string, string>) {
  const env = getEnv()
  const res = await fetch(googleEndpoints(env.GOOGLE_OAUTH_URL).tokenURL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: env.GOOGLE_CLIENT_ID ?? '',
      client_secret: env.GOOGLE_CLIENT_SECRET ?? '',
      ...params,
    }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  })
  const body = (await res.json().catch(() => ({}))) as {
    access_token?: string
    refresh_token?: string
    scope?: string
    error?: string
  }
  return { status: res.status, body }
}

type ConnectResult = { ok: true; siteUrl: string | null } | { ok: false; error: string }

/**
 * Google's redirect back: checks the state, exchanges the code with the PKCE verifier, stores the refresh token
 * encrypted and picks the property matching the website when there is exactly one. Whatever the outcome, the answer
 * carries `setCookie`, which clears the state cookie (a state is good for one callback).
 */
export async function finishConnect(request: Request, userId: string): Promise<ConnectResult & { setCookie: string }> {
  const setCookie = await clearStateCookie()
  try {
    return { ...(await exchangeCode(request, userId)), setCookie }
  } catch (error) {
    console.error('[search console] connecting failed', error instanceof Error ? error.message : error)
    return { ok: false, error: 'Google could not be reached. Please try connecting again.', setCookie }
  }
}

async function exchangeCode(request: Request, userId: string): Promise<ConnectResult> {
  const url = new URL(request.url)
  const saved = (await stateCookie().parse(request.headers.get('Cookie'))) as {
    state?: string
    userId?: string
    verifier?: string
  } | null
  if (url.searchParams.get('error')) return { ok: false, error: 'Google Search Console access was not granted.' }
  const state = url.searchParams.get('state') ?? ''
  if (!saved?.state || !saved.verifier || saved.userId !== userId || saved.state !== state)
    return { ok: false, error: 'The Google sign-in expired. Please try connecting again.' }
  const code = url.searchParams.get('code')
  if (!code) return { ok: false, error: 'Google did not send an authorization code.' }
  const token = await tokenRequest({
    code,
    code_verifier: saved.verifier,
    grant_type: 'authorization_code',
    redirect_uri: callbackUrl(),
  })
  if (token.status !== 200 || !token.body.access_token) {
    console.error(`[search console] the token exchange was refused: ${token.status} ${token.body.error ?? ''}`)
    return {
      ok: false,
      error:
        token.body.error === 'invalid_grant'
          ? 'Google could not confirm that this browser started the connection. Please try connecting again.'
          : 'Google refused the authorization. Please try again.',
    }
  }
  const scopes = (token.body.scope ?? '').split(/\s+/)
  if (!scopes.includes(SEARCH_CONSOLE_SCOPE) && !scopes.includes('https://www.googleapis.com/auth/webmasters'))
    return { ok: false, error: 'Please allow read access to Search Console.' }
  if (!token.body.refresh_token)
    return { ok: false, error: 'Google did not grant offline access. Please try connecting again.' }
  const sites = await listSitesWith(token.body.access_token)
  const [user] = await db
    .select({ website: schema.users.website })
    .from(schema.users)
    .where(eq(schema.users.id, userId))
  const siteUrl = matchingSite(sites, user?.website ?? null)
  const values = {
    refreshToken: encryptSecret(token.body.refresh_token),
    siteUrl,
    status: 'active' as const,
    disabledReason: null,
    disabledAt: null,
    syncedThrough: null,
    updatedAt: new Date(),
  }
  await db
    .insert(conns)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: conns.userId, set: values })
  return { ok: true, siteUrl }
}

/** The one property that is the user's website (a domain property or a URL-prefix property on its host). */
export function matchingSite(sites: Array<{ siteUrl: string }>, website: string | null): string | null {
  const domain = domainOf(website)
  if (!domain) return null
  const matches = sites.filter((s) =>
    s.siteUrl.startsWith('sc-domain:') ? s.siteUrl.slice(10).toLowerCase() === domain : domainOf(s.siteUrl) === domain,
  )
  const domainProperty = matches.find((s) => s.siteUrl.startsWith('sc-domain:'))
  if (domainProperty) return domainProperty.siteUrl
  return matches.length === 1 ? matches[0]!.siteUrl : null
}

async function api<T>(accessToken: string, path: string, init: RequestInit = {}) {
  const base = getEnv().SEARCH_CONSOLE_API_URL.replace(/\/+$/, '')
  let res: Response
  try {
    res = await fetch(`${base}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json', ...init.headers },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch (error) {
    throw new SearchConsoleError(`Search Console unreachable: ${(error as Error).message}`, true)
  }
  const body = (await res.json().catch(() => ({}))) as T & { error?: { message?: string } }
  return { status: res.status, body }
}

async function listSitesWith(accessToken: string) {
  const res = await api<{ siteEntry?: Array<{ siteUrl: string; permissionLevel: string }> }>(accessToken, '/sites')
  if (res.status !== 200) return []
  return (res.body.siteEntry ?? []).filter((s) => s.permissionLevel !== 'siteUnverifiedUser')
}

type Connection = typeof conns.$inferSelect

export async function getConnection(userId: string): Promise<Connection | null> {
  const [row] = await db.select().from(conns).where(eq(conns.userId, userId)).limit(1)
  return row ?? null
}

/** Disables a connection once (only the first caller e-mails), keeping its data for the charts. */
export async function disableConnection(userId: string, reason: string) {
  const [row] = await db
    .update(conns)
    .set({ status: 'disabled', disabledReason: reason, disabledAt: new Date(), updatedAt: new Date() })
    .where(and(eq(conns.userId, userId), eq(conns.status, 'active')))
    .returning({ userId: conns.userId })
  if (!row) return false
  const [user] = await db
    .select({ email: schema.users.email, name: schema.users.name })
    .from(schema.users)
    .where(eq(schema.users.id, userId))
  if (user && mailConfigured()) {
    const link = new URL('/rankings', getEnv().APP_URL).toString()
    await sendMail({
      to: user.email,
      subject: 'Google Search Console was disconnected from Rankwell',
      text:
        `Hi ${user.name || 'there'},\n\nGoogle no longer lets Rankwell read your Search Console data (${reason}), ` +
        `so we stopped pulling clicks and impressions. Your rankings history is kept.\n\n` +
        `Connect Search Console again: ${link}\n`,
      html:
        `<p>Hi ${escapeHtml(user.name || 'there')},</p><p>Google no longer lets Rankwell read your Search Console ` +
        `data (${escapeHtml(reason)}), so we stopped pulling clicks and impressions. Your rankings history is kept.</p>` +
        `<p><a href="${link}">Connect Search Console again</a></p>`,
    }).catch((error: unknown) => console.error('[search console] could not send the e-mail', error))
  }
  return true
}

/** A fresh access token, or null after disabling the connection when Google says the grant is gone. */
async function accessTokenFor(conn: Connection): Promise<string | null> {
  let refreshToken: string
  try {
    refreshToken = decryptSecret(conn.refreshToken)
  } catch {
    await disableConnection(conn.userId, 'the stored credentials could not be read')
    return null
  }
  const token = await tokenRequest({ refresh_token: refreshToken, grant_type: 'refresh_token' }).catch((error) => {
    throw new SearchConsoleError(`Google token endpoint unreachable: ${(error as Error).message}`, true)
  })
  if (token.status === 200 && token.body.access_token) return token.body.access_token
  if (token.body.error === 'invalid_grant' || token.status === 401) {
    await disableConnection(conn.userId, 'access was revoked')
    return null
  }
  throw new SearchConsoleError(
    `Google token endpoint answered ${token.status}`,
    token.status >= 500 || token.status === 429,
  )
}

export async function listSites(userId: string) {
  const conn = await getConnection(userId)
  if (!conn || conn.status !== 'active') return []
  const token = await accessTokenFor(conn)
  return token ? listSitesWith(token) : []
}

export async function chooseSite(userId: string, siteUrl: string) {
  const sites = await listSites(userId)
  if (!sites.some((s) => s.siteUrl === siteUrl)) return false
  await db.update(conns).set({ siteUrl, syncedThrough: null, updatedAt: new Date() }).where(eq(conns.userId, userId))
  await db.delete(schema.searchConsoleStats).where(eq(schema.searchConsoleStats.userId, userId))
  return true
}

const REVOKE_TIMEOUT_MS = 5_000

/**
 * Revokes the stored grant at Google (its refresh token, which ends every access token of the grant too). Never
 * throws: Google being down or refusing (a token already revoked answers 400) is logged, and the caller goes on to
 * delete the local tokens anyway. Returns whether Google confirmed it.
 */
export async function revokeSearchConsoleGrant(userId: string): Promise<boolean> {
  const conn = await getConnection(userId).catch(() => null)
  if (!conn) return false
  let token: string
  try {
    token = decryptSecret(conn.refreshToken)
  } catch {
    console.error('[search console] the stored grant could not be read, so it was not revoked at Google')
    return false
  }
  try {
    const res = await observeProvider(
      'google',
      () =>
        fetch(googleEndpoints(getEnv().GOOGLE_OAUTH_URL).revokeURL, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token }),
          signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS),
        }),
      (r) => r.status >= 500 || r.status === 429,
    )
    await res.body?.cancel().catch(() => {})
    if (res.ok) return true
    console.error(`[search console] Google answered ${res.status} to the revocation; the local grant goes anyway`)
  } catch (error) {
    console.error(
      '[search console] Google could not be reached to revoke the grant; the local grant goes anyway:',
      error instanceof Error ? error.message : error,
    )
  }
  return false
}

/** 'Disconnect': the grant is revoked at Google (best effort), then the connection and its token are deleted. */
export async function disconnect(userId: string) {
  await revokeSearchConsoleGrant(userId)
  await db.delete(conns).where(eq(conns.userId, userId))
}

type Row = { keys?: string[]; clicks: number; impressions: number; ctr: number; position: number }

/**
 * Pulls what is missing, 30 days at a time; each finished chunk moves `synced_through`, so a pull interrupted by a
 * quota answer or a crash resumes where it stopped. Quota and server errors throw (the job retries with backoff).
 */
export async function pullSearchConsole(userId: string, now: Date) {
  const conn = await getConnection(userId)
  if (!conn || conn.status !== 'active' || !conn.siteUrl) return { pulled: 0, skipped: true }
  const token = await accessTokenFor(conn)
  if (!token) return { pulled: 0, disabled: true }
  const end = addDays(utcDay(now), -SETTLE_DAYS)
  let start = conn.syncedThrough ? addDays(conn.syncedThrough, 1) : addDays(end, -HISTORY_DAYS)
  let pulled = 0
  let calls = 0
  while (start <= end) {
    const chunkEnd = [addDays(start, CHUNK_DAYS - 1), end].sort()[0]!
    for (let startRow = 0; ;) {
      const res = await api<{ rows?: Row[] }>(
        token,
        `/sites/${encodeURIComponent(conn.siteUrl)}/searchAnalytics/query`,
        {
          method: 'POST',
          body: JSON.stringify({
            startDate: start,
            endDate: chunkEnd,
            dimensions: ['date', 'page', 'query'],
            type: 'web',
            rowLimit: ROW_LIMIT,
            startRow,
          }),
        },
      )
      calls++
      if (res.status === 401) {
        await disableConnection(userId, 'access was revoked')
        return { pulled, calls, disabled: true }
      }
      if (res.status === 403) {
        await disableConnection(userId, 'Rankwell no longer has access to this property')
        return { pulled, calls, disabled: true }
      }
      if (res.status !== 200) {
        throw new SearchConsoleError(
          `searchanalytics.query answered ${res.status}: ${res.body.error?.message ?? ''}`,
          res.status === 429 || res.status >= 500,
        )
      }
      const rows = res.body.rows ?? []
      if (rows.length === 0) break
      await storeRows(userId, rows)
      pulled += rows.length
      startRow += rows.length
    }
    await db
      .update(conns)
      .set({ syncedThrough: chunkEnd, lastSyncAt: new Date(), updatedAt: new Date() })
      .where(eq(conns.userId, userId))
    start = addDays(chunkEnd, 1)
  }
  return { pulled, calls }
}

async function storeRows(userId: string, rows: Row[]) {
  const values = rows
    .filter((r) => r.keys && r.keys.length === 3)
    .map((r) => ({
      userId,
      day: r.keys![0]!,
      page: r.keys![1]!,
      query: r.keys![2]!,
      clicks: Math.round(r.clicks),
      impressions: Math.round(r.impressions),
      ctr: r.ctr,
      position: r.position,
    }))
  for (let i = 0; i < values.length; i += 1000) {
    await db
      .insert(schema.searchConsoleStats)
      .values(values.slice(i, i + 1000))
      .onConflictDoUpdate({
        target: [
          schema.searchConsoleStats.userId,
          schema.searchConsoleStats.page,
          schema.searchConsoleStats.query,
          schema.searchConsoleStats.day,
        ],
        set: {
          clicks: sql`excluded.clicks`,
          impressions: sql`excluded.impressions`,
          ctr: sql`excluded.ctr`,
          position: sql`excluded.position`,
        },
      })
  }
}

/** Users whose connection is active with a chosen property: the daily pull's list. */
export async function activeConnections() {
  const rows = await db
    .select({ userId: conns.userId })
    .from(conns)
    .where(and(eq(conns.status, 'active'), sql`${conns.siteUrl} is not null`))
  return rows.map((r) => r.userId)
}

/**
 * Issue 34: a takeover of an unverified account removes a Search Console connection whoever created it had made
 * (their property's figures would otherwise feed the owner's rankings and refresh suggestions), with the figures
 * pulled through it, inside the takeover's transaction. The grant itself is theirs: its token is deleted here, not
 * revoked. Returns whether there was one.
 */
export async function removeSearchConsoleLeftovers(tx: Tx, userId: string): Promise<boolean> {
  await tx.delete(schema.searchConsoleStats).where(eq(schema.searchConsoleStats.userId, userId))
  const removed = await tx.delete(conns).where(eq(conns.userId, userId)).returning({ userId: conns.userId })
  return removed.length > 0
}
