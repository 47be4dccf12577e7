import crypto from 'node:crypto'
import { json } from '@remix-run/node'
import type { z } from 'zod'
import { apiErrors } from '#app/platform/forms/submission'
import { getEnv } from '#app/platform/env.server'
import { readJson } from '#app/platform/http/body.server'
import { createSession, findSessionUser, getSessionId, SESSION_TTL_MS, type SessionUser } from './session.server'

/**
 * Bearer tokens for API clients: HS256 JWTs carrying userId, onboardingComplete and the id of an API session row,
 * so that they expire and can be revoked. Browser requests to /api fall back to the session cookie.
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

/**
 * The user id of an /api request: a valid Bearer token, or the browser's session cookie.
 * Throws 401 JSON when missing or bad, 403 when the token's user or session no longer exists.
 */
export async function requireApiUserId(request: Request): Promise<string> {
  return (await requireApiSession(request)).userId
}

/**
 * The user and the session row behind an /api request (the Bearer token's API session, or the browser's cookie
 * session): one statement, the live session joined to its user (as for pages).
 */
export async function requireApiSession(
  request: Request,
): Promise<{ userId: string; sessionId: string; user: SessionUser }> {
  const token = bearer(request)
  if (!token) {
    const sessionId = await getSessionId(request)
    const user = sessionId ? await findSessionUser(sessionId) : null
    if (user && sessionId) return { userId: user.id, sessionId, user }
    throw apiError(401, 'No authentication token found. Please log in.')
  }
  const claims = verifyApiToken(token)
  if (!claims) throw apiError(401, 'Invalid or expired token.')
  // A deleted user's sessions are deleted with it, so both cases end here.
  const user = await findSessionUser(claims.sid)
  if (!user || user.id !== claims.sub) throw apiError(403, 'Session has ended. Please log in again.')
  return { userId: user.id, sessionId: claims.sid, user }
}

export async function requireApiUser(request: Request): Promise<SessionUser> {
  return (await requireApiSession(request)).user
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
