import crypto from 'node:crypto'
import { createCookie } from '@remix-run/node'
import { and, eq, gt, isNull, lt, ne, sql, type Placeholder } from 'drizzle-orm'
import { db, preparedQuery, schema, type Db } from '#app/platform/db/client.server'
import { cookieName, signedCookieOptions } from '#app/platform/http/cookies.server'
import { getEnv } from '#app/platform/env.server'
import { sendMail } from '#app/platform/mail/mail.server'
import { hashPassword, verifyPassword } from '#app/platform/security/password.server'
import { clientIp, hit } from '#app/platform/security/rate-limit.server'
import { safeRedirect } from '#app/platform/security/redirect'
import { normalizeEmail, findUserByEmail } from './users.server'
import type { ReclaimedSettings } from './account-schemas'
import { afterReclaim, reclaimAccount, type AccountReclaim, type Tx } from './account-takeover.server'
import { enqueuePasswordResetMail } from './jobs/account-mail.server'

/**
 * Account security (issue 13): single-use e-mail links (verification, password reset), ending sessions, the
 * device cookie that lets a known browser past a lockout, and the session list of /profile.
 * Links are stored as SHA-256 hashes; the raw token exists only in the e-mail.
 */

export const VERIFY_TTL_MS = 24 * 3600 * 1000
export const RESET_TTL_MS = 3600 * 1000

export const ACCOUNT_RATE_LIMITS = {
  forgotPerIp: { limit: 10, windowSeconds: 60 * 60 },
  forgotPerAccount: { limit: 3, windowSeconds: 60 * 60 },
  resendPerAccount: { limit: 5, windowSeconds: 60 * 60 },
  resetPerIp: { limit: 20, windowSeconds: 60 * 60 },
} as const

type Purpose = 'verify_email' | 'reset_password'
type UserRow = typeof schema.users.$inferSelect

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

async function mintToken(user: { id: string; email: string }, purpose: Purpose, ttlMs: number) {
  const token = crypto.randomBytes(32).toString('base64url')
  // A new link replaces the older unused ones of the same purpose.
  await db
    .delete(schema.accountTokens)
    .where(and(eq(schema.accountTokens.userId, user.id), eq(schema.accountTokens.purpose, purpose)))
  await db.insert(schema.accountTokens).values({
    tokenHash: hashToken(token),
    userId: user.id,
    purpose,
    email: normalizeEmail(user.email),
    expiresAt: new Date(Date.now() + ttlMs),
  })
  return token
}

/** Marks a token used, atomically: only a live, unused token of this purpose comes back (once). */
async function consumeToken(token: string, purpose: Purpose, q: Db | Tx = db) {
  if (!token || token.length > 200) return null
  const [row] = await q
    .update(schema.accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(schema.accountTokens.tokenHash, hashToken(token)),
        eq(schema.accountTokens.purpose, purpose),
        isNull(schema.accountTokens.usedAt),
        gt(schema.accountTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: schema.accountTokens.userId, email: schema.accountTokens.email })
  return row ?? null
}

/** Whether a reset link is live (for the reset page's GET), without using it. */
export async function resetTokenIsLive(token: string) {
  if (!token || token.length > 200) return false
  const [row] = await db
    .select({ userId: schema.accountTokens.userId })
    .from(schema.accountTokens)
    .where(
      and(
        eq(schema.accountTokens.tokenHash, hashToken(token)),
        eq(schema.accountTokens.purpose, 'reset_password'),
        isNull(schema.accountTokens.usedAt),
        gt(schema.accountTokens.expiresAt, sql`now()`),
      ),
    )
    .limit(1)
  return Boolean(row)
}

const link = (path: string, token: string, extra: Record<string, string> = {}) =>
  new URL(`${path}?${new URLSearchParams({ token, ...extra })}`, getEnv().APP_URL)

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** The one button of a mail: a link styled as a button (mail clients drop stylesheets, so the style is inline). */
const BUTTON_STYLE =
  'display:inline-block;padding:10px 18px;border-radius:6px;background:#1d4ed8;color:#ffffff;font-weight:600;text-decoration:none'

async function mail(to: string, subject: string, paragraphs: string[], action?: { label: string; url: URL }) {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), '— Rankwell'].join('\n\n')
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(action
      ? [
          `<p><a href="${escapeHtml(action.url.toString())}" style="${BUTTON_STYLE}">${escapeHtml(action.label)}</a></p>`,
        ]
      : []),
    '<p>— Rankwell</p>',
  ].join('\n')
  await sendMail({ to, subject, text, html })
}

/** Where a verification link goes on to when nothing else was asked: the onboarding (then the app). */
export const VERIFY_NEXT_DEFAULT = '/onboarding'

/**
 * Sends a fresh verification link (24 h, single use). `next` is the page the link continues to once used (a
 * same-site path: the onboarding right after sign-up, the page the banner was on for a resend; anything else is
 * dropped). Mail failures are logged, never shown as a sign-up failure.
 */
export async function sendVerificationEmail(
  user: { id: string; email: string; name: string },
  next: string = VERIFY_NEXT_DEFAULT,
) {
  const token = await mintToken(user, 'verify_email', VERIFY_TTL_MS)
  try {
    await mail(
      user.email,
      'Verify your email address for Rankwell',
      [
        `Hi ${user.name || 'there'},`,
        'Thank you for signing up for Rankwell. Please confirm that this email address is yours: once it is, Auto Pilot can publish your posts.',
        'The button works once, within 24 hours.',
        "If this wasn't you, ignore this e-mail: without a click on the button, nothing is confirmed.",
      ],
      {
        label: 'Verify my email address',
        url: link('/verify-email', token, { next: safeRedirect(next, VERIFY_NEXT_DEFAULT) }),
      },
    )
    return true
  } catch (error) {
    console.error('[accounts] verification e-mail failed', error instanceof Error ? error.message : error)
    return false
  }
}

/** The resend button of the banner: rate-limited per account. */
export async function resendVerification(
  user: UserRow,
  next?: string,
): Promise<{ ok: boolean; retryAfterSeconds?: number }> {
  if (user.emailVerifiedAt) return { ok: true }
  const limited = await hit(`verify-resend:${user.id}`, ACCOUNT_RATE_LIMITS.resendPerAccount)
  if (!limited.allowed) return { ok: false, retryAfterSeconds: limited.retryAfterSeconds }
  return { ok: await sendVerificationEmail(user, next) }
}

/** Uses a verification link. The account is verified only if its address is still the one the link went to. */
export async function verifyEmail(token: string) {
  const row = await consumeToken(token, 'verify_email')
  if (!row) return null
  const [user] = await db
    .update(schema.users)
    .set({ emailVerifiedAt: sql`coalesce(${schema.users.emailVerifiedAt}, now())`, updatedAt: new Date() })
    .where(and(eq(schema.users.id, row.userId), eq(sql`lower(${schema.users.email})`, row.email)))
    .returning()
  return user ?? null
}

/** Marks an address proven by another route (Google's verified e-mail, a used reset link). */
export async function markEmailVerified(userId: string) {
  await db
    .update(schema.users)
    .set({ emailVerifiedAt: sql`coalesce(${schema.users.emailVerifiedAt}, now())` })
    .where(eq(schema.users.id, userId))
}

// ---------------------------------------------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------------------------------------------

/** Ends every session and API token of a user, except `keep` (the one making the request). Returns how many. */
export async function endSessions(userId: string, keep?: string | null) {
  const ended = await db
    .delete(schema.sessions)
    .where(and(eq(schema.sessions.userId, userId), keep ? ne(schema.sessions.id, keep) : undefined))
    .returning({ id: schema.sessions.id })
  return ended.length
}

/** Ends one session of this user (a row of /profile's list); false when it is not theirs or already gone. */
export async function endSession(userId: string, sessionId: string) {
  const ended = await db
    .delete(schema.sessions)
    .where(and(eq(schema.sessions.userId, userId), eq(schema.sessions.id, sessionId)))
    .returning({ id: schema.sessions.id })
  return ended.length > 0
}

/** The id shown for a session in lists and forms: a hash, so that a page never carries a live session id. */
export const publicSessionId = (sessionId: string) => hashToken(`session:${sessionId}`).slice(0, 24)

export async function endSessionByPublicId(userId: string, publicId: string) {
  const rows = await listSessionRows(userId)
  const match = rows.find((r) => publicSessionId(r.id) === publicId)
  return match ? endSession(userId, match.id) : false
}

/** A user's live sessions, and their order in the list (most recently used first). */
const liveSessionsOf = (userId: string | Placeholder) =>
  and(eq(schema.sessions.userId, userId), gt(schema.sessions.expiresAt, sql`now()`))!
const SESSION_ORDER = sql`${schema.sessions.lastUsedAt} desc`

const sessionRowsQuery = preparedQuery((d) =>
  d
    .select()
    .from(schema.sessions)
    .where(liveSessionsOf(sql.placeholder('userId')))
    .orderBy(SESSION_ORDER)
    .prepare('session_rows'),
)
async function listSessionRows(userId: string) {
  return sessionRowsQuery().execute({ userId })
}

export type SessionListItem = {
  id: string
  kind: 'web' | 'api'
  device: string
  ipPrefix: string | null
  lastUsedAt: string
  createdAt: string
  current: boolean
}

type SessionListRow = {
  id: string
  kind: 'web' | 'api'
  userAgent: string | null
  ipPrefix: string | null
  /** Timestamps as JSON text (`json_build_object`). */
  lastUsedAt: string
  createdAt: string
}

/**
 * The session list of /profile as one JSON column, for the page's one statement (issue 17): what `toSessionList`
 * needs of each live session, in the list's order.
 */
export function sessionListColumn(userId: string | Placeholder) {
  const s = schema.sessions
  return sql<SessionListRow[]>`(select coalesce(json_agg(json_build_object('id', ${s.id}, 'kind', ${s.kind},
    'userAgent', ${s.userAgent}, 'ipPrefix', ${s.ipPrefix}, 'lastUsedAt', ${s.lastUsedAt}, 'createdAt', ${s.createdAt})
    order by ${SESSION_ORDER}), '[]'::json) from ${s} where ${liveSessionsOf(userId)})`
}

export function toSessionList(rows: SessionListRow[], currentSessionId: string | null): SessionListItem[] {
  return rows.map((r) => ({
    id: publicSessionId(r.id),
    kind: r.kind,
    device: describeUserAgent(r.userAgent),
    ipPrefix: r.ipPrefix,
    lastUsedAt: new Date(r.lastUsedAt).toISOString(),
    createdAt: new Date(r.createdAt).toISOString(),
    current: r.id === currentSessionId,
  }))
}

/** A short, human label for a user agent ("Chrome on macOS"); the raw string when nothing is recognised. */
export function describeUserAgent(ua: string | null): string {
  if (!ua) return 'Unknown device'
  const browser =
    [
      [/Edg\//, 'Edge'],
      [/Firefox\//, 'Firefox'],
      [/Chrome\//, 'Chrome'],
      [/Safari\//, 'Safari'],
      [/curl\//, 'curl'],
      [/node|undici/i, 'Node.js'],
    ].find(([re]) => (re as RegExp).test(ua))?.[1] ?? null
  const os =
    [
      [/Windows/, 'Windows'],
      [/Android/, 'Android'],
      [/iPhone|iPad/, 'iOS'],
      [/Mac OS X|Macintosh/, 'macOS'],
      [/Linux/, 'Linux'],
    ].find(([re]) => (re as RegExp).test(ua))?.[1] ?? null
  if (browser && os) return `${browser} on ${os}`
  return (browser as string | null) ?? ua.slice(0, 80)
}

/** The client's address reduced to its network: IPv4 /24 (a.b.c.x), IPv6 /48. Enough to recognise, not to track. */
export function ipPrefix(ip: string): string | null {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/.exec(ip)
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.x`
  if (ip.includes(':')) {
    const parts = ip.split(':').filter(Boolean).slice(0, 3)
    return parts.length ? `${parts.join(':')}::/48` : null
  }
  return null
}

export const requestIpPrefix = (request: Request) => ipPrefix(clientIp(request))

// ---------------------------------------------------------------------------------------------------------------
// Passwords
// ---------------------------------------------------------------------------------------------------------------

/**
 * 'Forgot password?': the same answer, in the same time, whether or not the address exists (issue 34). The request
 * does the same work for any address: the per-client limit (429) and one queued job, never awaiting the e-mail; the
 * worker looks the address up (`sendPasswordResetEmail`).
 */
export async function requestPasswordReset(
  request: Request,
  email: string,
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  const perIp = await hit(`forgot:ip:${clientIp(request)}`, ACCOUNT_RATE_LIMITS.forgotPerIp)
  if (!perIp.allowed) return { ok: false, retryAfterSeconds: perIp.retryAfterSeconds }
  await enqueuePasswordResetMail({ email })
  return { ok: true }
}

/**
 * The worker's half of 'Forgot password?': for an account, a fresh one-hour link by e-mail, limited silently per
 * account (so nobody can flood someone's inbox; a `retry` of a failed send does not count again). A refused send
 * throws (the job is tried again).
 */
export async function sendPasswordResetEmail(
  email: string,
  opts: { retry?: boolean } = {},
): Promise<'sent' | 'no-account' | 'limited'> {
  const user = await findUserByEmail(email)
  if (!user) return 'no-account'
  if (!opts.retry) {
    const perAccount = await hit(`forgot:acct:${user.id}`, ACCOUNT_RATE_LIMITS.forgotPerAccount)
    if (!perAccount.allowed) return 'limited'
  }
  const token = await mintToken(user, 'reset_password', RESET_TTL_MS)
  await mail(
    user.email,
    'Reset your Rankwell password',
    [
      `Hi ${user.name || 'there'},`,
      'Someone (hopefully you) asked to reset the password of your Rankwell account. The link works once, for one hour.',
      'If it was not you, ignore this message: your password stays as it is.',
    ],
    { label: 'Choose a new password', url: link('/reset-password', token) },
  )
  return 'sent'
}

/**
 * Uses a reset link: sets the password, proves the address, ends every session and API token. When nobody had
 * verified the account, this is its owner taking it over (issue 34): what whoever created it set up is removed in the
 * same transaction (`reclaim`, handed down by the route) and `reclaimed` says what went; null for a plain reset.
 */
export async function resetPassword(
  request: Request,
  token: string,
  password: string,
  reclaim: AccountReclaim,
): Promise<
  | { ok: true; userId: string; reclaimed: ReclaimedSettings | null }
  | { ok: false; status: 400 | 429; retryAfterSeconds?: number }
> {
  const perIp = await hit(`reset:ip:${clientIp(request)}`, ACCOUNT_RATE_LIMITS.resetPerIp)
  if (!perIp.allowed) return { ok: false, status: 429, retryAfterSeconds: perIp.retryAfterSeconds }
  // Hashing is slow: done before the transaction (and only for a live link), so no row is locked meanwhile.
  if (!(await resetTokenIsLive(token))) return { ok: false, status: 400 }
  const passwordHash = await hashPassword(password)
  const done = await db.transaction(async (tx) => {
    const row = await consumeToken(token, 'reset_password', tx)
    if (!row) return null
    const [before] = await tx
      .select({ id: schema.users.id, emailVerifiedAt: schema.users.emailVerifiedAt })
      .from(schema.users)
      .where(and(eq(schema.users.id, row.userId), eq(sql`lower(${schema.users.email})`, row.email)))
      .for('update')
    if (!before) return null
    await tx
      .update(schema.users)
      .set({
        passwordHash,
        emailVerifiedAt: sql`coalesce(${schema.users.emailVerifiedAt}, now())`,
        updatedAt: new Date(),
      })
      .where(eq(schema.users.id, before.id))
    if (before.emailVerifiedAt) {
      await tx.delete(schema.sessions).where(eq(schema.sessions.userId, before.id))
      await tx.delete(schema.accountTokens).where(eq(schema.accountTokens.userId, before.id))
      return { userId: before.id, reclaimed: null }
    }
    return { userId: before.id, reclaimed: await reclaimAccount(tx, before.id, reclaim) }
  })
  if (!done) return { ok: false, status: 400 }
  if (done.reclaimed) await afterReclaim(reclaim, done.userId)
  return { ok: true, ...done }
}

/** Change password (current one required): ends every other session and API token. */
export async function changePassword(
  user: UserRow,
  currentSessionId: string | null,
  input: { currentPassword: string; newPassword: string },
): Promise<{ ok: true } | { ok: false; status: 400 | 429; retryAfterSeconds?: number }> {
  const limited = await hit(`change-password:${user.id}`, { limit: 10, windowSeconds: 15 * 60 })
  if (!limited.allowed) return { ok: false, status: 429, retryAfterSeconds: limited.retryAfterSeconds }
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword)))
    return { ok: false, status: 400 }
  await db
    .update(schema.users)
    .set({ passwordHash: await hashPassword(input.newPassword), updatedAt: new Date() })
    .where(eq(schema.users.id, user.id))
  await endSessions(user.id, currentSessionId)
  await db
    .delete(schema.accountTokens)
    .where(and(eq(schema.accountTokens.userId, user.id), eq(schema.accountTokens.purpose, 'reset_password')))
  return { ok: true }
}

/** Housekeeping: spent and expired links are useless a day later. */
export async function pruneAccountTokens() {
  await db
    .delete(schema.accountTokens)
    .where(lt(schema.accountTokens.expiresAt, new Date(Date.now() - 24 * 3600 * 1000)))
}

// ---------------------------------------------------------------------------------------------------------------
// Device cookies (OWASP "Slow down online guessing attacks with device cookies")
// ---------------------------------------------------------------------------------------------------------------

const DEVICE_TTL_S = 365 * 24 * 3600
type Device = { d: string; u: string[] }

function deviceCookie() {
  return createCookie(cookieName('rw_device'), signedCookieOptions(DEVICE_TTL_S))
}

/** The signed device cookie of this browser: a random id and the accounts that signed in here before. */
export async function readDevice(request: Request): Promise<Device | null> {
  const value = (await deviceCookie()
    .parse(request.headers.get('Cookie'))
    .catch(() => null)) as unknown
  if (!value || typeof value !== 'object') return null
  const { d, u } = value as Partial<Device>
  if (typeof d !== 'string' || !Array.isArray(u) || !u.every((x) => typeof x === 'string')) return null
  return { d, u }
}

/** The Set-Cookie value that remembers this browser as one `userId` has signed in from (newest five accounts). */
export async function rememberDevice(request: Request, userId: string): Promise<string> {
  const device = (await readDevice(request)) ?? { d: crypto.randomBytes(16).toString('base64url'), u: [] }
  const u = [userId, ...device.u.filter((x) => x !== userId)].slice(0, 5)
  return deviceCookie().serialize({ d: device.d, u })
}
