import { json } from '@remix-run/node'
import { readJson } from './body.server'
import type { FieldErrors } from '#app/platform/forms/submission'

/** Reads a JSON object body; null when it is JSON but not an object (broken JSON and oversized bodies throw 400/413). */
export async function readJsonBody(request: Request): Promise<Record<string, unknown> | null> {
  const body = await readJson(request)
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null
}

/** What a public service answers when it refuses a request (bad input, rate limit, provider down). */
export type PublicFailure = {
  ok: false
  status: 400 | 429 | 502 | 503
  message: string
  /** Bad input: the messages by the form's field names (`apiErrors`, decision 0311). */
  errors?: FieldErrors
  retryAfterSeconds?: number
}

/** Headers for an outcome: Retry-After on 429 and 503 answers. */
export function outcomeHeaders(outcome: { ok: boolean; retryAfterSeconds?: number }): HeadersInit {
  return !outcome.ok && outcome.retryAfterSeconds ? { 'Retry-After': String(outcome.retryAfterSeconds) } : {}
}

/** A refusal as JSON `{ message, errors? }` with its status and, when given, Retry-After. */
export function failureJson(outcome: Omit<PublicFailure, 'ok'>) {
  return json(
    { message: outcome.message, ...(outcome.errors ? { errors: outcome.errors } : {}) },
    { status: outcome.status, headers: outcomeHeaders({ ok: false, ...outcome }) },
  )
}

/**
 * The frame of a public JSON POST route: 405 for another method, 400 for a body that is not a JSON object, and a
 * logged 503 (`unavailable`) when `handle` throws.
 */
export async function publicJsonPost(
  request: Request,
  opts: { logLabel: string; unavailable: { message: string; headers?: HeadersInit } },
  handle: (body: Record<string, unknown>) => Promise<Response>,
) {
  if (request.method !== 'POST') return methodNotAllowed()
  try {
    const body = await readJsonBody(request)
    if (!body) return json({ message: 'The request body must be a JSON object.' }, { status: 400 })
    return await handle(body)
  } catch (error) {
    if (error instanceof Response) return error
    console.error(opts.logLabel, error)
    return json({ message: opts.unavailable.message }, { status: 503, headers: opts.unavailable.headers })
  }
}

/** The loader of a POST-only /api route: GET answers 405 with `Allow: POST`. */
export function methodNotAllowed() {
  return json({ message: 'Method not allowed.' }, { status: 405, headers: { Allow: 'POST' } })
}
