import crypto from 'node:crypto'
import { generateTOTP, getTOTPAuthUri, verifyTOTP } from '@epic-web/totp'
import { createCookie, redirect } from '@remix-run/node'
import { and, eq, isNotNull, isNull, lt, or, sql, type Placeholder, type SQL } from 'drizzle-orm'
import QRCode from 'qrcode'
import { db, schema } from '#app/platform/db/client.server'
import { cookieName, signedCookieOptions } from '#app/platform/http/cookies.server'
import { decryptSecret, encryptSecret } from '#app/platform/security/crypto.server'
import { clientIp, hit, resetBucket, type RateLimitResult } from '#app/platform/security/rate-limit.server'
import { SECOND_FACTOR_MESSAGES } from './account-schemas'
import { readDevice } from './account-security.server'

/**
 * Issue 34: two-step sign-in with time-based one-time passwords (RFC 6238: 6 digits, 30-second steps, SHA-1, the
 * settings every authenticator app understands) and single-use recovery codes.
 *
 * - The secret is stored encrypted (`encryptSecret`); `confirmed_at` stays null until a first code proves the app
 *   holds it, and only a confirmed factor is asked for.
 * - A code is accepted for the current step and the one before and after it (clock drift), and a step is accepted
 *   once: `last_used_step` only moves forward, in one conditional UPDATE, so a code seen by someone else (or sent
 *   twice) is refused.
 * - Recovery codes: ten, shown once, stored as SHA-256 hashes, each used once (a conditional UPDATE again); a new
 *   set replaces the old one.
 * - Every check of a code counts in rate-limit buckets first (`codeBuckets`).
 */

const TOTP = { period: 30, digits: 6, algorithm: 'SHA-1' } as const
const ISSUER = 'Rankwell'
export const RECOVERY_CODE_COUNT = 10

/** Attempts at a code, per window: the same shape as the password's lockout (auth.server.ts). */
export const CODE_RATE_LIMITS = {
  perIp: { limit: 20, windowSeconds: 15 * 60 },
  perAccount: { limit: 10, windowSeconds: 15 * 60 },
  perDevice: { limit: 10, windowSeconds: 15 * 60 },
  signedIn: { limit: 10, windowSeconds: 15 * 60 },
} as const

type Bucket = { key: string; opts: { limit: number; windowSeconds: number }; resets: boolean }

// ---------------------------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------------------------

async function totpRow(userId: string) {
  const [row] = await db.select().from(schema.userTotp).where(eq(schema.userTotp.userId, userId)).limit(1)
  return row ?? null
}

/** Whether the account has two-step sign-in on (a confirmed factor). */
export async function secondFactorEnabled(userId: string): Promise<boolean> {
  const row = await totpRow(userId)
  return Boolean(row?.confirmedAt)
}

export type SecondFactorState =
  { status: 'off' } | { status: 'pending'; key: string; qrCode: string } | { status: 'on'; recoveryCodesLeft: number }

/** The manual key as people type it: groups of four. */
const groupKey = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ')

function authUri(secret: string, accountName: string) {
  return getTOTPAuthUri({ ...TOTP, secret, accountName, issuer: ISSUER })
}

/** The QR code of the otpauth:// URI, drawn on the server as SVG, as a data: URI for an <img>. */
async function qrCodeDataUri(uri: string) {
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
}

/** A factor being set up: the key to type and its QR code. */
async function pendingState(secretEncrypted: string, email: string): Promise<SecondFactorState> {
  const secret = decryptSecret(secretEncrypted)
  return { status: 'pending', key: groupKey(secret), qrCode: await qrCodeDataUri(authUri(secret, email)) }
}

/**
 * The second factor's facts as columns of a statement about the user (issue 39: /profile reads them with its page
 * instead of in one or two statements of their own); `secondFactorStateOf` makes them the state.
 */
export function secondFactorColumns(userId: SQL | Placeholder) {
  const t = schema.userTotp
  const r = schema.recoveryCodes
  return {
    // The user's factor row, once: its encrypted secret and whether a first code confirmed it.
    totp: sql<{ secretEncrypted: string; confirmed: boolean } | null>`(select json_build_object(
        'secretEncrypted', ${t.secretEncrypted}, 'confirmed', ${t.confirmedAt} is not null)
      from ${t} where ${t.userId} = ${userId})`,
    recoveryCodesLeft: sql<number>`(select count(*)::int from ${r} where ${r.userId} = ${userId} and ${r.usedAt} is null)`,
  }
}

/** What /profile shows: off, being set up (the QR code and the key), or on (how many recovery codes are left). */
export function secondFactorStateOf(
  user: { email: string },
  facts: { totp: { secretEncrypted: string; confirmed: boolean } | null; recoveryCodesLeft: number },
): Promise<SecondFactorState> | SecondFactorState {
  if (facts.totp === null) return { status: 'off' }
  if (!facts.totp.confirmed) return pendingState(facts.totp.secretEncrypted, user.email)
  return { status: 'on', recoveryCodesLeft: facts.recoveryCodesLeft }
}

// ---------------------------------------------------------------------------------------------------------------
// Codes
// ---------------------------------------------------------------------------------------------------------------

/** The step a code matched (current ±1), or null. The counter is read around the check so the step is exact. */
async function matchedStep(secret: string, otp: string): Promise<number | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = Math.floor(Date.now() / 1000 / TOTP.period)
    const result = await verifyTOTP({ otp, secret, ...TOTP, window: 1 })
    const after = Math.floor(Date.now() / 1000 / TOTP.period)
    if (before !== after) continue // the step changed during the check: which one it used is unknown, ask again
    return result ? before + result.delta : null
  }
  return null
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

/** A code as typed, reduced to what matters: no spaces or dashes, lower case. */
const normalizeCode = (code: string) => code.replace(/[\s-]+/g, '').toLowerCase()
const hashRecoveryCode = (code: string) => crypto.createHash('sha256').update(normalizeCode(code)).digest('hex')

function newRecoveryCode() {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)])
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`
}

/** A new set of recovery codes replaces the old one; returns the codes (shown once, never stored in clear). */
async function replaceRecoveryCodes(userId: string): Promise<string[]> {
  const codes = new Set<string>()
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newRecoveryCode())
  await db.transaction(async (tx) => {
    await tx.delete(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, userId))
    await tx
      .insert(schema.recoveryCodes)
      .values([...codes].map((code) => ({ userId, codeHash: hashRecoveryCode(code) })))
  })
  return [...codes]
}

/** Uses a 6-digit code of a confirmed factor: true once per step (the replay guard moves forward atomically). */
async function spendTotpCode(userId: string, otp: string): Promise<boolean> {
  const row = await totpRow(userId)
  if (!row?.confirmedAt) return false
  const step = await matchedStep(decryptSecret(row.secretEncrypted), otp)
  if (step === null) return false
  const used = await db
    .update(schema.userTotp)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(schema.userTotp.userId, userId),
        isNotNull(schema.userTotp.confirmedAt),
        or(isNull(schema.userTotp.lastUsedStep), lt(schema.userTotp.lastUsedStep, step)),
      ),
    )
    .returning({ userId: schema.userTotp.userId })
  return used.length > 0
}

/** Uses a recovery code: true once. */
async function spendRecoveryCode(userId: string, code: string): Promise<boolean> {
  const used = await db
    .update(schema.recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(schema.recoveryCodes.userId, userId),
        eq(schema.recoveryCodes.codeHash, hashRecoveryCode(code)),
        isNull(schema.recoveryCodes.usedAt),
      ),
    )
    .returning({ id: schema.recoveryCodes.id })
  return used.length > 0
}

const SIX_DIGITS = /^\d{6}$/

export type CodeCheck =
  { ok: true } | { ok: false; status: 400 | 401 | 429; message: string; retryAfterSeconds?: number }

function limited(result: RateLimitResult): CodeCheck {
  return {
    ok: false,
    status: 429,
    message: SECOND_FACTOR_MESSAGES.tooMany,
    retryAfterSeconds: result.retryAfterSeconds,
  }
}

/**
 * The buckets a code attempt counts in. At sign-in (`signIn`), as for the password: per client, and per account
 * unless this browser holds the account's device cookie (then a bucket of its own, so that someone else's wrong codes
 * cannot lock the owner out of their own browser). Signed in (a change on /profile), per account.
 */
async function codeBuckets(request: Request, userId: string, context: 'signIn' | 'signedIn'): Promise<Bucket[]> {
  if (context === 'signedIn') return [{ key: `2fa:user:${userId}`, opts: CODE_RATE_LIMITS.signedIn, resets: true }]
  const device = await readDevice(request)
  const known = device && device.u.includes(userId)
  return [
    { key: `2fa:ip:${clientIp(request)}`, opts: CODE_RATE_LIMITS.perIp, resets: false },
    known
      ? { key: `2fa:dev:${userId}:${device.d}`, opts: CODE_RATE_LIMITS.perDevice, resets: true }
      : { key: `2fa:acct:${userId}`, opts: CODE_RATE_LIMITS.perAccount, resets: false },
  ]
}

/**
 * Checks a code of the account's second factor: a 6-digit code from the app, or (`recovery`, the default) a
 * recovery code, which is then used up. Rate-limited before anything is compared.
 */
export async function checkSecondFactorCode(
  request: Request,
  userId: string,
  code: string | undefined,
  opts: { context: 'signIn' | 'signedIn'; recovery?: boolean },
): Promise<CodeCheck> {
  const allowRecovery = opts.recovery ?? true
  const typed = normalizeCode(code ?? '')
  if (!typed)
    return {
      ok: false,
      status: 400,
      message: allowRecovery ? SECOND_FACTOR_MESSAGES.codeOrRecoveryRequired : SECOND_FACTOR_MESSAGES.codeRequired,
    }
  const buckets = await codeBuckets(request, userId, opts.context)
  for (const bucket of buckets) {
    const result = await hit(bucket.key, bucket.opts)
    if (!result.allowed) return limited(result)
  }
  const valid = SIX_DIGITS.test(typed)
    ? await spendTotpCode(userId, typed)
    : allowRecovery && typed.length <= 40 && (await spendRecoveryCode(userId, typed))
  if (!valid) return { ok: false, status: 401, message: SECOND_FACTOR_MESSAGES.wrongCode }
  for (const bucket of buckets) if (bucket.resets) await resetBucket(bucket.key, bucket.opts.windowSeconds)
  return { ok: true }
}

/**
 * The gate of a sensitive change (password change, account deletion, turning the factor off): passes when the account
 * has no second factor, otherwise asks for a current code (or a recovery code).
 */
export async function secondFactorGate(request: Request, userId: string, code: string | undefined) {
  if (!(await secondFactorEnabled(userId))) return { ok: true } as const
  return checkSecondFactorCode(request, userId, code, { context: 'signedIn' })
}

// ---------------------------------------------------------------------------------------------------------------
// Setup, recovery codes, turning off
// ---------------------------------------------------------------------------------------------------------------

/**
 * 'Turn on two-step sign-in': a new secret, kept unconfirmed until a code from the app proves it. Only for an
 * address the account has proven (an unverified account may be someone else's, and its owner must be able to take it
 * over).
 */
export async function startSecondFactorSetup(user: {
  id: string
  emailVerifiedAt: Date | null
}): Promise<'started' | 'on' | 'unverified'> {
  if (!user.emailVerifiedAt) return 'unverified'
  const row = await totpRow(user.id)
  if (row?.confirmedAt) return 'on'
  const { secret } = await generateTOTP(TOTP)
  await db
    .insert(schema.userTotp)
    .values({ userId: user.id, secretEncrypted: encryptSecret(secret) })
    .onConflictDoUpdate({
      target: schema.userTotp.userId,
      set: { secretEncrypted: encryptSecret(secret), lastUsedStep: null, createdAt: new Date() },
      setWhere: isNull(schema.userTotp.confirmedAt),
    })
  return 'started'
}

/** 'Cancel' while setting up: the unconfirmed secret goes. */
export async function cancelSecondFactorSetup(userId: string) {
  await db.delete(schema.userTotp).where(and(eq(schema.userTotp.userId, userId), isNull(schema.userTotp.confirmedAt)))
}

/** The first code from the app: confirms the factor and returns the recovery codes (shown once). */
export async function confirmSecondFactorSetup(
  request: Request,
  userId: string,
  code: string,
): Promise<{ ok: true; recoveryCodes: string[] } | (CodeCheck & { ok: false })> {
  const row = await totpRow(userId)
  if (!row) return { ok: false, status: 400, message: SECOND_FACTOR_MESSAGES.notStarted }
  if (row.confirmedAt) return { ok: false, status: 400, message: SECOND_FACTOR_MESSAGES.alreadyOn }
  const [bucket] = await codeBuckets(request, userId, 'signedIn')
  const limit = await hit(bucket!.key, bucket!.opts)
  if (!limit.allowed) return limited(limit) as CodeCheck & { ok: false }
  const step = await matchedStep(decryptSecret(row.secretEncrypted), normalizeCode(code))
  if (step === null) return { ok: false, status: 401, message: SECOND_FACTOR_MESSAGES.wrongCode }
  const confirmed = await db
    .update(schema.userTotp)
    .set({ confirmedAt: sql`now()`, lastUsedStep: step })
    .where(
      and(
        eq(schema.userTotp.userId, userId),
        isNull(schema.userTotp.confirmedAt),
        eq(schema.userTotp.secretEncrypted, row.secretEncrypted),
      ),
    )
    .returning({ userId: schema.userTotp.userId })
  if (confirmed.length === 0) return { ok: false, status: 400, message: SECOND_FACTOR_MESSAGES.notStarted }
  await resetBucket(bucket!.key, bucket!.opts.windowSeconds)
  return { ok: true, recoveryCodes: await replaceRecoveryCodes(userId) }
}

/** New recovery codes (a current code first): the old ones stop working. */
export async function regenerateRecoveryCodes(
  request: Request,
  userId: string,
  code: string,
): Promise<{ ok: true; recoveryCodes: string[] } | (CodeCheck & { ok: false })> {
  if (!(await secondFactorEnabled(userId)))
    return { ok: false, status: 400, message: SECOND_FACTOR_MESSAGES.notStarted }
  const check = await checkSecondFactorCode(request, userId, code, { context: 'signedIn' })
  if (!check.ok) return check
  return { ok: true, recoveryCodes: await replaceRecoveryCodes(userId) }
}

/** Turns two-step sign-in off: the secret and the recovery codes go. */
export async function removeSecondFactor(userId: string) {
  await db.transaction(async (tx) => {
    await tx.delete(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, userId))
    await tx.delete(schema.userTotp).where(eq(schema.userTotp.userId, userId))
  })
}

// ---------------------------------------------------------------------------------------------------------------
// The sign-in's second step: a signed, short-lived cookie between the password (or Google) and the code
// ---------------------------------------------------------------------------------------------------------------

export const PENDING_TTL_S = 5 * 60
export const SECOND_STEP_PATH = '/signin/verify'

/** Who passed the first step, when, and where to go after: no session exists until the code is right. */
type Pending = { u: string; at: number; to: string | null; n: string | null }

function pendingCookie() {
  return createCookie(cookieName('rw_2fa_pending'), signedCookieOptions(PENDING_TTL_S))
}

/** The redirect to the second step, carrying the pending cookie (and any cookie `headers` already hold). */
export async function redirectToSecondStep(
  userId: string,
  opts: { redirectTo?: string | null; notice?: string | null; headers?: HeadersInit } = {},
) {
  const value: Pending = { u: userId, at: Date.now(), to: opts.redirectTo ?? null, n: opts.notice ?? null }
  const headers = new Headers(opts.headers)
  headers.append('Set-Cookie', await pendingCookie().serialize(value))
  headers.set('Cache-Control', 'no-store')
  return redirect(SECOND_STEP_PATH, { status: 303, headers })
}

/** The pending sign-in of this browser, or null (none, forged, or older than five minutes). */
export async function readPendingSignIn(request: Request) {
  const value = (await pendingCookie()
    .parse(request.headers.get('Cookie'))
    .catch(() => null)) as Partial<Pending> | null
  if (!value || typeof value !== 'object' || typeof value.u !== 'string' || typeof value.at !== 'number') return null
  if (Date.now() - value.at > PENDING_TTL_S * 1000 || value.at > Date.now() + 60_000) return null
  return {
    userId: value.u,
    redirectTo: typeof value.to === 'string' ? value.to : null,
    notice: typeof value.n === 'string' ? value.n : null,
  }
}

/** The Set-Cookie value that ends the pending sign-in. */
export async function clearPendingSignIn() {
  return pendingCookie().serialize('', { maxAge: 0 })
}
