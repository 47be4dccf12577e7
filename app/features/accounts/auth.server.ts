import crypto from 'node:crypto'
import { json } from '@remix-run/node'
import type { z } from 'zod'
import { parseSubmission, type SubmissionResult } from '#app/platform/forms/submission'
import { honeypotFilled } from '#app/platform/security/honeypot'
import { AUTH_MESSAGES, type SignInInput, type SignUpInput } from './account-schemas'
import { readDevice, rememberDevice, requestIpPrefix, sendVerificationEmail } from './account-security.server'
import { hashPassword, verifyPassword } from '#app/platform/security/password.server'
import { clientIp, hit, resetBucket, type RateLimitResult } from '#app/platform/security/rate-limit.server'
import { createSession, sessionCookie } from './session.server'
import { TOAST_MS, toast } from '#app/platform/http/toast.server'
import { createUser, findUserByEmail, normalizeEmail } from './users.server'

/**
 * E-mail and password sign-in and sign-up, shared by the pages (/signin, /signup) and the API (/api/login,
 * /api/signup). Attempts are rate-limited per IP and per account in Redis before any password is hashed.
 */

/**
 * Attempts per window. Sign-up is rarer than sign-in, so its limits are tighter. Sign-in counts per client, per
 * account and client together, and per account; a browser holding this account's device cookie (it signed in here
 * before) has a bucket of its own instead of the per-account one, so failures from elsewhere cannot lock the owner
 * out of their own browser (OWASP device cookies).
 */
export const AUTH_RATE_LIMITS = {
  signInPerIp: { limit: 20, windowSeconds: 15 * 60 },
  signInPerAccountAndIp: { limit: 10, windowSeconds: 15 * 60 },
  signInPerAccount: { limit: 10, windowSeconds: 15 * 60 },
  signInPerDevice: { limit: 10, windowSeconds: 15 * 60 },
  signUpPerIp: { limit: 10, windowSeconds: 60 * 60 },
  signUpPerAccount: { limit: 5, windowSeconds: 60 * 60 },
} as const

type User = NonNullable<Awaited<ReturnType<typeof findUserByEmail>>>

export type AuthResult =
  | { ok: true; user: User }
  | { ok: false; status: 400 | 401 | 409 | 429; message: string; retryAfterSeconds?: number; field?: string }

function rateLimited(result: RateLimitResult): AuthResult {
  const minutes = Math.max(1, Math.ceil(result.retryAfterSeconds / 60))
  return {
    ok: false,
    status: 429,
    message: `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
    retryAfterSeconds: result.retryAfterSeconds,
  }
}

/** Buckets are keyed by a hash of the address, so raw e-mail addresses never sit in Redis keys. */
const accountKey = (email: string) =>
  crypto.createHash('sha256').update(normalizeEmail(email)).digest('hex').slice(0, 32)

const ipKey = (request: Request) => crypto.createHash('sha256').update(clientIp(request)).digest('hex').slice(0, 16)

/** The sign-in buckets this attempt counts in: the device bucket replaces the per-account one for a known browser. */
async function signInBuckets(request: Request, email: string, user: User | null) {
  const acct = accountKey(email)
  const device = user ? await readDevice(request) : null
  const known = device && user && device.u.includes(user.id)
  return [
    { key: `signin:ip:${clientIp(request)}`, opts: AUTH_RATE_LIMITS.signInPerIp, resets: false },
    known
      ? { key: `signin:dev:${acct}:${device.d}`, opts: AUTH_RATE_LIMITS.signInPerDevice, resets: true }
      : { key: `signin:acct-ip:${acct}:${ipKey(request)}`, opts: AUTH_RATE_LIMITS.signInPerAccountAndIp, resets: true },
    ...(known ? [] : [{ key: `signin:acct:${acct}`, opts: AUTH_RATE_LIMITS.signInPerAccount, resets: false }]),
  ]
}

async function limitAll(buckets: Array<{ key: string; opts: { limit: number; windowSeconds: number } }>) {
  for (const bucket of buckets) {
    const result = await hit(bucket.key, bucket.opts)
    if (!result.allowed) return rateLimited(result)
  }
  return null
}

// Verifying against a real hash when the account does not exist keeps the answer time the same either way.
let dummyHash: Promise<string> | undefined
const timingHash = () => (dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex')))

export async function signIn(request: Request, input: SignInInput): Promise<AuthResult> {
  const user = await findUserByEmail(input.email)
  const buckets = await signInBuckets(request, input.email, user)
  const limited = await limitAll(buckets)
  if (limited) return limited
  const valid = await verifyPassword(user?.passwordHash ?? (await timingHash()), input.password)
  if (!user || !user.passwordHash || !valid) return { ok: false, status: 401, message: AUTH_MESSAGES.invalid }
  for (const bucket of buckets) if (bucket.resets) await resetBucket(bucket.key, bucket.opts.windowSeconds)
  return { ok: true, user }
}

export async function signUp(request: Request, input: SignUpInput): Promise<AuthResult> {
  const limited = await limitAll([
    { key: `signup:ip:${clientIp(request)}`, opts: AUTH_RATE_LIMITS.signUpPerIp },
    { key: `signup:acct:${accountKey(input.email)}`, opts: AUTH_RATE_LIMITS.signUpPerAccount },
  ])
  if (limited) return limited
  if (await findUserByEmail(input.email)) return { ok: false, status: 409, message: AUTH_MESSAGES.duplicate }
  const user = await createUser({ email: input.email, name: input.name, password: input.password })
  // null: someone else took the address between the check and the insert (unique index on lower(email)).
  if (!user) return { ok: false, status: 409, message: AUTH_MESSAGES.duplicate }
  await sendVerificationEmail(user)
  return { ok: true, user }
}

export function retryAfterHeaders(result: AuthResult): HeadersInit {
  return !result.ok && result.retryAfterSeconds ? { 'Retry-After': String(result.retryAfterSeconds) } : {}
}

/** Starts a browser session; returns its Set-Cookie headers (session and device cookie) for the redirect. */
export async function browserSessionHeaders(request: Request, userId: string): Promise<Headers> {
  const session = await createSession(userId, {
    userAgent: request.headers.get('user-agent'),
    ipPrefix: requestIpPrefix(request),
  })
  const headers = new Headers()
  headers.append('Set-Cookie', await sessionCookie().serialize(session.id))
  headers.append('Set-Cookie', await rememberDevice(request, userId))
  return headers
}

/**
 * What the sign-in and sign-up pages' action answers on failure: Conform's reply (the errors by field and the values
 * to show again, never the password).
 */
export type AuthPageActionData = { result: SubmissionResult<string[]> }

/**
 * The action of the sign-in and sign-up pages, on the posted `form`. A filled honeypot or invalid fields answer 400, a
 * refused attempt its own status (with Retry-After when rate-limited) and its message as the form's error. Success
 * starts a browser session and redirects to `success(user).to` with a toast.
 */
export async function authPageAction<S extends z.ZodTypeAny>(
  request: Request,
  {
    form,
    schema,
    submit,
    success,
    secondStep,
  }: {
    form: FormData
    schema: S
    submit: (input: z.output<S>) => Promise<AuthResult>
    success: (user: User) => { to: string; message: string }
    /** Issue 34: the answer instead of a session when the account asks for a second step (or null). */
    secondStep?: (user: User) => Promise<Response | null>
  },
) {
  const submission = parseSubmission(form, schema)
  const hideFields = ['password']
  if (honeypotFilled(form))
    return json<AuthPageActionData>(
      { result: submission.reply({ formErrors: [AUTH_MESSAGES.generic], hideFields }) },
      { status: 400 },
    )
  if (submission.status !== 'success')
    return json<AuthPageActionData>({ result: submission.reply({ hideFields }) }, { status: 400 })
  const result = await submit(submission.value)
  if (!result.ok) {
    return json<AuthPageActionData>(
      {
        result: submission.reply({
          ...(result.field ? { fieldErrors: { [result.field]: [result.message] } } : { formErrors: [result.message] }),
          hideFields,
        }),
      },
      { status: result.status, headers: retryAfterHeaders(result) },
    )
  }
  const deferred = await secondStep?.(result.user)
  if (deferred) return deferred
  const headers = await browserSessionHeaders(request, result.user.id)
  const { to, message } = success(result.user)
  return toast().redirectWithSuccess(to, { message, duration: TOAST_MS }, { headers })
}
