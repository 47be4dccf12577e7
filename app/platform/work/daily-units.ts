/**
 * The shared rules of the daily work lists (rank checks, issue 16; AI visibility checks, issue 37, decision 0370):
 * units claimed by workers with SKIP LOCKED, a claim older than STALE_CLAIM_MS taken over (its worker died), a failed
 * unit tried again later the same day with a growing delay, and the hourly tick taking its share of what is open so
 * that the day's work is spread over the hours left (the last hour takes whatever is left).
 */

/** A claim older than this belongs to a worker that died: the unit is claimed again. */
export const STALE_CLAIM_MS = 10 * 60_000

/** When a unit that failed on its `attempts`-th try is tried again: 30 minutes, then 1 hour, 2 hours… */
export function retryAt(now: Date, attempts: number) {
  return new Date(now.getTime() + 30 * 60_000 * 2 ** Math.max(0, attempts - 1))
}

/** How many of the `open` units the tick at `now` takes: an even share of the hours left in the UTC day. */
export function hourlyShare(open: number, now: Date) {
  const hoursLeft = 24 - now.getUTCHours()
  return Math.ceil(open / hoursLeft)
}
