import crypto from 'node:crypto'
import { createCookie, redirect } from '@remix-run/node'
import { and, eq, getTableColumns, gt, sql } from 'drizzle-orm'
import { safeRedirect } from '#app/platform/security/redirect'
import { rememberDevice, requestIpPrefix } from './account-security.server'
import { db, schema, sqlClient } from '#app/platform/db/client.server'
import { cookieName, signedCookieOptions } from '#app/platform/http/cookies.server'
import { currentRequestScope, forgetRequestMemo, memoizeInRequest } from '#app/platform/http/request-scope.server'

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000

/** The cookie carries only the session id; the session itself is a row, so it can be revoked. */
export function sessionCookie() {
  return createCookie(cookieName('rw_session'), signedCookieOptions(SESSION_TTL_MS / 1000))
}

export function newSessionId() {
  return crypto.randomBytes(32).toString('base64url')
}

export async function createSession(
  userId: string,
  opts: { kind?: 'web' | 'api'; userAgent?: string | null; ipPrefix?: string | null } = {},
) {
  const [row] = await db
    .insert(schema.sessions)
    .values({
      id: newSessionId(),
      userId,
      kind: opts.kind ?? 'web',
      expiresAt: new Date(Date.now() + SESSION_TTL_MS),
      userAgent: opts.userAgent?.slice(0, 300) ?? null,
      ipPrefix: opts.ipPrefix ?? null,
    })
    .returning()
  return row!
}

/**
 * The session id of a request's Cookie header. Unsigning is a pure function of the header (the secrets are fixed
 * for the process), so the answer is remembered per header (issue 17: it was ~3% of a signed-in page's CPU); the
 * memory is bounded and a long header is not kept. Whether the session is still valid is the database's answer.
 */
const sessionIdByHeader = new Map<string, string | null>()
const SESSION_ID_MEMO = { entries: 1000, headerLength: 4096 }
export async function getSessionId(request: Request): Promise<string | null> {
  const header = request.headers.get('Cookie')
  if (!header) return null
  const known = sessionIdByHeader.get(header)
  if (known !== undefined) return known
  const value = await sessionCookie().parse(header)
  const id = typeof value === 'string' && value.length > 0 ? value : null
  if (header.length <= SESSION_ID_MEMO.headerLength) {
    if (sessionIdByHeader.size >= SESSION_ID_MEMO.entries) sessionIdByHeader.clear()
    sessionIdByHeader.set(header, id)
  }
  return id
}

/** The live session row for an id, or null when it does not exist or has expired. */
export async function findSession(sessionId: string) {
  const [row] = await db
    .select()
    .from(schema.sessions)
    .where(and(eq(schema.sessions.id, sessionId), gt(schema.sessions.expiresAt, new Date())))
    .limit(1)
  if (row && Date.now() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // "Last used" for /profile's list, written at most every few minutes per session.
    await db
      .update(schema.sessions)
      .set({ lastUsedAt: new Date() })
      .where(eq(schema.sessions.id, row.id))
      .catch(() => {})
  }
  return row ?? null
}

/**
 * The session's user in one prepared statement (sessions joined to users). Prepared once per connection pool;
 * the pool is identified by its client so that a reconnect (tests close and reopen it) prepares again.
 */
let sessionUserQuery: { client: unknown; query: ReturnType<typeof prepareSessionUser> } | undefined
function prepareSessionUser() {
  return db
    .select({
      user: getTableColumns(schema.users),
      sessionId: schema.sessions.id,
      lastUsedAt: schema.sessions.lastUsedAt,
      subscriptionStatus: schema.subscriptions.status,
    })
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .leftJoin(schema.subscriptions, eq(schema.subscriptions.userId, schema.sessions.userId))
    .where(and(eq(schema.sessions.id, sql.placeholder('sessionId')), gt(schema.sessions.expiresAt, sql`now()`)))
    .limit(1)
    .prepare('session_user')
}
/**
 * The user of a live session id (any kind: a browser's cookie or an API token's session), or null, in the same one
 * prepared statement as the cookie lookup.
 */
export async function findSessionUser(sessionId: string): Promise<SessionUser | null> {
  return lookupSessionUser(sessionId)
}

async function lookupSessionUser(sessionId: string) {
  const client = sqlClient()
  if (sessionUserQuery?.client !== client) sessionUserQuery = { client, query: prepareSessionUser() }
  const [row] = await sessionUserQuery.query.execute({ sessionId })
  if (!row) return null
  subscriptionStatusByUser.set(row.user, row.subscriptionStatus)
  if (Date.now() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // "Last used" for /profile's list, written at most every few minutes per session.
    await db
      .update(schema.sessions)
      .set({ lastUsedAt: new Date() })
      .where(eq(schema.sessions.id, row.sessionId))
      .catch(() => {})
  }
  return row.user
}

const LAST_USED_RESOLUTION_MS = 5 * 60 * 1000

/** The subscription status read in the same statement as the session (for the layout's billing banner). */
const subscriptionStatusByUser = new WeakMap<object, string | null>()

/**
 * The subscription status of a user returned by `getUser`/`requireUser`, read with the session at no extra cost;
 * `undefined` for a user object that did not come from a session lookup.
 */
export function sessionSubscriptionStatus(user: object): string | null | undefined {
  return subscriptionStatusByUser.get(user)
}

export type SessionUser = typeof schema.users.$inferSelect

/**
 * The signed-in user of a request, or null. Within one HTTP request (see request-scope.server.ts) the lookup runs
 * once per session cookie and is shared by every loader that asks — root and route loaders alike — as long as the
 * request is a read (GET/HEAD); an action's writes are never hidden behind a stale copy.
 */
export async function getUser(request: Request): Promise<SessionUser | null> {
  const cookie = request.headers.get('Cookie')
  if (!cookie) return null
  const read = () =>
    getSessionId(request)
      .then((sessionId) => (sessionId ? lookupSessionUser(sessionId) : null))
      .then((user) => {
        // Error reports name the user of the request (issue 20).
        const scope = currentRequestScope()
        if (scope && user) scope.userId = user.id
        return user
      })
  const method = request.method.toUpperCase()
  if (method !== 'GET' && method !== 'HEAD') return read()
  return memoizeInRequest(`user:${cookie}`, read)
}

export async function getUserId(request: Request): Promise<string | null> {
  return (await getUser(request))?.id ?? null
}

/** After a write to the current user (profile, onboarding, sign-out), later loaders of this request look again. */
export function forgetRequestUser() {
  forgetRequestMemo('user:')
}

/**
 * The longest address kept as the way back after signing in. A longer one (a hostile or broken query string) would
 * echo into a Location header past what clients and proxies accept (16 kB in Node, often 4–8 kB in proxies), which
 * turns a redirect into a failed request; the page itself (without its query) is kept instead, or nothing.
 */
export const MAX_REDIRECT_TO_LENGTH = 2000

function signInRedirect(request: Request) {
  const url = new URL(request.url)
  const back = [`${url.pathname}${url.search}`, url.pathname].find((to) => to.length <= MAX_REDIRECT_TO_LENGTH)
  return redirect(back ? `/signin?${new URLSearchParams({ redirectTo: back })}` : '/signin')
}

export async function requireUserId(request: Request): Promise<string> {
  const userId = await getUserId(request)
  if (!userId) throw signInRedirect(request)
  return userId
}

export async function requireUser(request: Request, opts: { onboarded?: boolean } = {}) {
  const user = await getUser(request)
  if (!user) throw signInRedirect(request)
  if (opts.onboarded && !user.onboardingComplete) throw redirect('/onboarding')
  return user
}

/** Starts a browser session and redirects with its cookie set. */
export async function signInAndRedirect(request: Request, userId: string, to: string, headers: HeadersInit = {}) {
  const session = await createSession(userId, {
    userAgent: request.headers.get('user-agent'),
    ipPrefix: requestIpPrefix(request),
  })
  const out = new Headers(headers)
  out.append('Set-Cookie', await sessionCookie().serialize(session.id))
  out.append('Set-Cookie', await rememberDevice(request, userId))
  return redirect(safeRedirect(to), { headers: out })
}

/** Ends the session in the database (so the old cookie no longer works) and clears the cookie. */
export async function signOut(request: Request, to = '/signin') {
  const sessionId = await getSessionId(request)
  if (sessionId) await db.delete(schema.sessions).where(eq(schema.sessions.id, sessionId))
  forgetRequestUser()
  return redirect(to, {
    headers: { 'Set-Cookie': await sessionCookie().serialize('', { maxAge: 0 }) },
  })
}
