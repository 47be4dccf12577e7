import { describe, expect, it } from 'vitest'
import { isRetryableStatus, retryAfterMs } from '#app/platform/http/http-retry'
import { durationMs, withRetries, type Outcome } from './http.server'
import { KeywordProviderError } from './types'

describe('retry hints', () => {
  it('reads Retry-After in seconds or as a date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000)
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 7_000)).toBe(3000)
    expect(retryAfterMs(new Headers())).toBeUndefined()
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined()
  })

  it("reads Google's retryDelay durations", () => {
    expect(durationMs('30s')).toBe(30_000)
    expect(durationMs('1.5s')).toBe(1500)
    expect(durationMs('abc')).toBeUndefined()
    expect(durationMs(undefined)).toBeUndefined()
  })

  it('retries timeouts, rate limits and server errors only', () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true)
    expect([400, 401, 402, 403, 404].some(isRetryableStatus)).toBe(false)
  })
})

describe('withRetries', () => {
  const fail = (retryable: boolean, retryAfterMs?: number): Outcome<string> => ({
    ok: false,
    retryable,
    message: 'nope',
    status: 503,
    retryAfterMs,
  })

  it('tries again after a retryable failure and returns the first success', async () => {
    let calls = 0
    const value = await withRetries('dataforseo', async () =>
      ++calls < 3 ? fail(true, 1) : { ok: true, value: 'done' },
    )
    expect(value).toBe('done')
    expect(calls).toBe(3)
  })

  it('stops at once on a failure that retrying cannot fix', async () => {
    let calls = 0
    await expect(withRetries('google_ads', async () => (calls++, fail(false)))).rejects.toBeInstanceOf(
      KeywordProviderError,
    )
    expect(calls).toBe(1)
  })

  it('gives up after the last attempt', async () => {
    let calls = 0
    await expect(withRetries('dataforseo', async () => (calls++, fail(true, 1)), { maxAttempts: 3 })).rejects.toThrow(
      /nope/,
    )
    expect(calls).toBe(3)
  })

  it('does not wait for a retry hint longer than the budget left', async () => {
    let calls = 0
    const started = Date.now()
    await expect(
      withRetries('dataforseo', async () => (calls++, fail(true, 60_000)), { budgetMs: 1_000 }),
    ).rejects.toThrow(/exceeds the time left/)
    expect(calls).toBe(1)
    expect(Date.now() - started).toBeLessThan(500)
  })

  it('treats a thrown error (network, timeout) as retryable', async () => {
    let calls = 0
    const value = await withRetries('ai_estimate', async () => {
      if (++calls === 1) throw new TypeError('fetch failed')
      return { ok: true, value: 42 }
    })
    expect(value).toBe(42)
    expect(calls).toBe(2)
  })

  it('aborts an attempt that takes longer than its time limit', async () => {
    let calls = 0
    const value = await withRetries(
      'dataforseo',
      (signal) =>
        new Promise<Outcome<string>>((resolve, reject) => {
          if (++calls > 1) return resolve({ ok: true, value: 'second' })
          signal.addEventListener('abort', () => reject(signal.reason))
        }),
      { attemptTimeoutMs: 50 },
    )
    expect(value).toBe('second')
  })
})
