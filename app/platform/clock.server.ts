/**
 * The time the rankings jobs run at. Jobs take `now` from their payload (an ISO time the scheduler or a caller put
 * there) or from the system clock; nothing else can move it. Integration tests drive the jobs over simulated days by
 * enqueueing them with a `now` of their choice, through the same code path the scheduler uses.
 */
export function clockNow(at?: string | Date | null): Date {
  if (at instanceof Date) return new Date(at.getTime())
  if (typeof at === 'string' && at) {
    const parsed = new Date(at)
    if (!Number.isNaN(parsed.getTime())) return parsed
  }
  return new Date()
}
