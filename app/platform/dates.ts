/**
 * A moment in UTC with the month's short name, to the minute: 'Jan 5, 03:04 PM UTC'; `year` adds the year
 * ('Jan 5, 2026, 03:04 PM UTC'), `seconds` the seconds ('Jan 5, 03:04:05 PM UTC').
 */
export function formatUtcDateTime(iso: string, opts: { year?: boolean; seconds?: boolean } = {}) {
  return UTC_DATE_TIME[(opts.year ? 1 : 0) + (opts.seconds ? 2 : 0)]!.format(new Date(iso)) + ' UTC'
}

// The four formatters, built once (index: year + 2 × seconds).
const UTC_DATE_TIME = [0, 1, 2, 3].map(
  (i) =>
    new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      ...(i & 1 ? { year: 'numeric' } : {}),
      hour: '2-digit',
      minute: '2-digit',
      ...(i & 2 ? { second: '2-digit' } : {}),
      timeZone: 'UTC',
    }),
)

/** UTC calendar day, YYYY-MM-DD. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** The UTC day `days` after `day` (YYYY-MM-DD; negative for before). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00.000Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return utcDay(d)
}
