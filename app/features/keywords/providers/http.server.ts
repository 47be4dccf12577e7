import type { KeywordSource } from '#app/features/keywords/keywords'
import { recordProviderCall } from '#app/platform/observability/metrics.server'
import { KeywordProviderError } from './types'

/**
 * Bounded retries for provider calls: at most MAX_ATTEMPTS tries within a total budget. Network errors, timeouts,
 * 408/429/5xx (isRetryableStatus of #app/lib/http-retry, and whatever a provider calls retryable) are tried again after the provider's own hint
 * (Retry-After, Google's retryDelay) or an exponential backoff with jitter. A hint longer than the remaining
 * budget ends the call at once: waiting longer than the user would is pointless.
 */
export const MAX_ATTEMPTS = 3
export const ATTEMPT_TIMEOUT_MS = 8_000
export const TOTAL_BUDGET_MS = 15_000

export type HttpAnswer = { status: number; headers: Headers; body: unknown }

export type Outcome<T> =
  { ok: true; value: T } | { ok: false; retryable: boolean; message: string; status?: number; retryAfterMs?: number }

/** A JSON request; the body is parsed when it is JSON, otherwise kept as text. */
export async function fetchJson(url: string, init: RequestInit, signal: AbortSignal): Promise<HttpAnswer> {
  const res = await fetch(url, { ...init, signal })
  const text = await res.text()
  let body: unknown = text
  if (text) {
    try {
      body = JSON.parse(text)
    } catch {
      /* not JSON: keep the text */
    }
  }
  return { status: res.status, headers: res.headers, body }
}

/** A protobuf Duration string such as "30s" or "1.5s", in milliseconds. */
export function durationMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const m = /^(\d+(?:\.\d+)?)s$/.exec(value.trim())
  return m ? Math.round(Number(m[1]) * 1000) : undefined
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function withRetries<T>(
  provider: KeywordSource,
  attempt: (signal: AbortSignal, attemptNo: number) => Promise<Outcome<T>>,
  opts: { maxAttempts?: number; attemptTimeoutMs?: number; budgetMs?: number } = {},
): Promise<T> {
  const maxAttempts = opts.maxAttempts ?? MAX_ATTEMPTS
  const deadline = Date.now() + (opts.budgetMs ?? TOTAL_BUDGET_MS)
  let last: { message: string; status?: number } = { message: 'no attempt made' }
  for (let n = 1; n <= maxAttempts; n++) {
    const remaining = deadline - Date.now()
    if (remaining <= 50) break
    const signal = AbortSignal.timeout(Math.min(opts.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS, remaining))
    let outcome: Outcome<T>
    const started = performance.now()
    try {
      outcome = await attempt(signal, n)
      recordProviderCall(provider, (performance.now() - started) / 1000, !outcome.ok)
    } catch (error) {
      // A nested provider call (e.g. the OAuth token exchange) has already spent its own retries.
      if (error instanceof KeywordProviderError) throw error
      recordProviderCall(provider, (performance.now() - started) / 1000, true)
      const timedOut = signal.aborted
      outcome = {
        ok: false,
        retryable: true,
        message: timedOut
          ? 'the request timed out'
          : `network error: ${error instanceof Error ? error.message : String(error)}`,
      }
    }
    if (outcome.ok) return outcome.value
    last = { message: outcome.message, status: outcome.status }
    if (!outcome.retryable || n === maxAttempts) break
    const backoff = 250 * 2 ** (n - 1) + Math.floor(Math.random() * 100)
    const wait = outcome.retryAfterMs ?? backoff
    if (Date.now() + wait >= deadline - 50) {
      last.message += ` (retry hint of ${wait} ms exceeds the time left)`
      break
    }
    await sleep(wait)
  }
  throw new KeywordProviderError(`${provider}: ${last.message}`, provider, last.status)
}
