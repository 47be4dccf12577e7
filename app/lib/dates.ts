/**
 * A moment in UTC with the month's short name, to the minute: 'Jan 5, 03:04 PM UTC'; `year` adds the year
 * ('Jan 5, 2026, 03:04 PM UTC'), `seconds` the seconds ('Jan 5, 03:04:05 PM UTC').
 */
export function formatUtcDateTime(iso: string, opts: { year?: boolean; seconds?: boolean } = {}) {
  return (
    new Date(iso).toLocaleString('en-US', {
      month: 'short',
      day: 'numeric',
      ...(opts.year ? { year: 'numeric' } : {}),
      hour: '2-digit',
      minute: '2-digit',
      ...(opts.seconds ? { second: '2-digit' } : {}),
      timeZone: 'UTC',
    }) + ' UTC'
  )
}
