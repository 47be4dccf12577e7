import crypto from 'node:crypto'
import { json } from '@remix-run/node'
import type { z } from 'zod'
import { apiErrors } from '#app/platform/forms/submission'
import { getEnv } from '#app/platform/env.server'
import { readJson } from '#app/platform/http/body.server'
import { currentRequestScope } from '#app/platform/http/request-scope.server'
import { hit } from '#app/platform/security/rate-limit.server'
import { requestIpPrefix } from './account-security.server'
import { API_KEY_MESSAGES, API_KEY_PREFIX, API_SCOPES, scopeForMethod, type ApiScope } from './api-keys'
import { authenticateApiKey } from './api-keys.server'
import { createSession, findSessionUser, getSessionId, SESSION_TTL_MS, type SessionUser } from './session.server'

/**
 * Bearer tokens for API clients: HS256 JWTs carrying userId, onboardingComplete and the id of an API session row,
 * so that they expire and can be revoked, and personal API keys (`rwk_…`, issue 38). Browser requests to /api fall
 * back to the session cookie.
 */
type TokenClaims = { sub: string; sid: string; onboardingComplete: boolean; userId: string; iat: number; exp: number }

const b64 = (input: Buffer | string) => Buffer.from(input).toString('base64url')

function sign(data: string, secret: string) {
  return crypto.createHmac('sha256', secret).update(data).digest('base64url')
}

export async function issueApiToken(
  user: { id: string; onboardingComplete: boolean },
  userAgent?: string | null,
  ipPrefix?: string | null,
) {
  const session = await createSession(user.id, { kind: 'api', userAgent, ipPrefix })
  const now = Math.floor(Date.now() / 1000)
  const claims: TokenClaims = {
    sub: user.id,
    userId: user.id,
    sid: session.id,
    onboardingComplete: user.onboardingComplete,
    iat: now,
    exp: now + Math.floor(SESSION_TTL_MS / 1000),
  }
  const head = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
  const body = b64(JSON.stringify(claims))
  return `${head}.${body}.${sign(`${head}.${body}`, getEnv().SESSION_SECRETS[0]!)}`
}

/** Verifies signature (any of the rotated secrets) and expiry. */
export function verifyApiToken(token: string): TokenClaims | null {
  const parts = token.split('.')
  if (parts.length !== 3) return null
  const [head, body, signature] = parts as [string, string, string]
  const valid = getEnv().SESSION_SECRETS.some((secret) => {
    const expected = Buffer.from(sign(`${head}.${body}`, secret))
    const given = Buffer.from(signature)
    return expected.length === given.length && crypto.timingSafeEqual(expected, given)
  })
  if (!valid) return null
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TokenClaims
    if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) return null
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return null
    return claims
  } catch {
    return null
  }
}

export function apiError(status: number, message: string, extra: Record<string, unknown> = {}) {
  return json({ message, ...extra }, { status })
}

function bearer(request: Request) {
  const header = request.headers.get('Authorization') ?? ''
  const match = /^Bearer\s+(.+)$/i.exec(header)
  return match ? match[1]!.trim() : null
}

/** What authenticated an /api request, and what it may do. */
export type ApiSession = {
  userId: string
  user: SessionUser
  /** The session row (browser cookie or the token of POST /api/login); null for a personal API key. */
  sessionId: string | null
  /** The personal API key (issue 38); null for a session. */
  keyId: string | null
  /** What the request may do: every scope for a session, the key's own for a key. */
  scopes: readonly ApiScope[]
}

export type ApiAuthOptions = {
  /**
   * The scope the route needs; by default 'read' for GET/HEAD and 'write' for other methods. Routes that publish or
   * approve ask for 'publish' (decision 0380).
   */
  scope?: ApiScope
}

/** Requests per minute per API key (decision 0380); a session's requests are limited by each route as before. */
export const API_KEY_RATE_LIMIT = { limit: 120, windowSeconds: 60 } as const

/**
 * The user id of an /api request: a valid Bearer token (a session token or a personal API key), or the browser's
 * session cookie. Throws 401 JSON when missing or bad, 403 when the token's user or session no longer exists or the
 * key lacks the scope, 429 when the key went over its rate limit.
 */
export async function requireApiUserId(request: Request, opts?: ApiAuthOptions): Promise<string> {
  return (await requireApiSession(request, opts)).userId
}

const keyError = (status: number, message: string, headers: Record<string, string> = {}) => {
  const response = apiError(status, message)
  response.headers.set('Cache-Control', 'no-store')
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value)
  return response
}

/**
 * Who is behind an /api request and what it may do. A Bearer token starting with `rwk_` is a personal API key
 * (looked up on every request, so a revoked key is refused at once; rate-limited per key; its scopes checked against
 * the scope the request needs); any other Bearer token is a session token; no token, the browser's cookie session.
 * Sessions hold every scope. The session cases are one statement, the live session joined to its user (as for pages).
 */
export async function requireApiSession(request: Request, opts: ApiAuthOptions = {}): Promise<ApiSession> {
  const token = bearer(request)
  if (!token) {
    const sessionId = await getSessionId(request)
    const user = sessionId ? await findSessionUser(sessionId) : null
    if (user && sessionId) return signedIn({ userId: user.id, user, sessionId, keyId: null, scopes: API_SCOPES })
    throw apiError(401, 'No authentication token found. Please log in.')
  }
  if (token.startsWith(API_KEY_PREFIX)) return keySession(request, token, opts)
  const claims = verifyApiToken(token)
  if (!claims) throw apiError(401, 'Invalid or expired token.')
  // A deleted user's sessions are deleted with it, so both cases end here.
  const user = await findSessionUser(claims.sid)
  if (!user || user.id !== claims.sub) throw apiError(403, 'Session has ended. Please log in again.')
  return signedIn({ userId: user.id, user, sessionId: claims.sid, keyId: null, scopes: API_SCOPES })
}

async function keySession(request: Request, token: string, opts: ApiAuthOptions): Promise<ApiSession> {
  const found = await authenticateApiKey(token, requestIpPrefix(request))
  if (!found) throw keyError(401, API_KEY_MESSAGES.invalidKey, { 'WWW-Authenticate': 'Bearer error="invalid_token"' })
  const limited = await hit(`api-key:${found.keyId}`, { ...API_KEY_RATE_LIMIT, failOpen: true })
  if (!limited.allowed)
    throw keyError(429, API_KEY_MESSAGES.rateLimited, { 'Retry-After': String(limited.retryAfterSeconds) })
  const needed = opts.scope ?? scopeForMethod(request.method)
  if (!found.scopes.includes(needed))
    throw keyError(403, API_KEY_MESSAGES.missingScope(needed), {
      'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${needed}"`,
    })
  return signedIn({
    userId: found.user.id,
    user: found.user,
    sessionId: null,
    keyId: found.keyId,
    scopes: found.scopes,
  })
}

/** Error reports name the user of the request (issue 20), as for pages. */
function signedIn(session: ApiSession): ApiSession {
  const scope = currentRequestScope()
  if (scope) scope.userId = session.userId
  return session
}

export async function requireApiUser(request: Request, opts?: ApiAuthOptions): Promise<SessionUser> {
  return (await requireApiSession(request, opts)).user
}

/**
 * Parses a JSON body with a zod schema; throws 400 on bad JSON, and on bad fields `{message, errors}` with the errors
 * under the names the matching form's fields have (`apiErrors`, decision 0311).
 */
export async function parseJson<T extends z.ZodTypeAny>(request: Request, schemaDef: T): Promise<z.infer<T>> {
  const body = await readJson(request)
  const parsed = schemaDef.safeParse(body)
  if (!parsed.success) {
    const { message, errors } = apiErrors(parsed.error)
    throw apiError(400, message, { errors })
  }
  return parsed.data
}
