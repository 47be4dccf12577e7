/**
 * The one rule for retrying HTTP calls, shared by the keyword providers, Auto Pilot's webhook sender and the post
 * pipeline: which answers are worth another attempt, and how long the server asked us to wait.
 */

/** Request timeout (408), rate limit (429) and server errors (5xx) are worth another attempt. */
export function isRetryableStatus(status: number) {
  return status === 408 || status === 429 || status >= 500
}

/** A Retry-After value, in seconds or as an HTTP date, in milliseconds; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

/** The Retry-After header of a fetch answer, in milliseconds (undefined when absent or unreadable). */
export function retryAfterMs(headers: Pick<Headers, 'get'>, now = Date.now()): number | undefined {
  return parseRetryAfter(headers.get('retry-after'), now) ?? undefined
}
