import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { DAY_MS, parseDay } from '#app/features/publishing/calendar'
import { apiError, requireApiUserId } from '#app/features/accounts/api-auth.server'
import { calendarEntries } from '#app/features/publishing/calendar.server'

/** GET /api/calendar?from=YYYY-MM-DD&to=YYYY-MM-DD (at most 92 days; default: the next 31) → {data: [entry]}. */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request)
  const url = new URL(request.url)
  const now = new Date()
  const fromRaw = url.searchParams.get('from')
  const toRaw = url.searchParams.get('to')
  const invalid = (v: string | null) => v !== null && parseDay(v, new Date(0)).getTime() === 0
  if (invalid(fromRaw))
    return apiError(400, 'from must be a date like 2026-12-01.', { errors: { from: ['Invalid date.'] } })
  if (invalid(toRaw)) return apiError(400, 'to must be a date like 2026-12-31.', { errors: { to: ['Invalid date.'] } })
  const from = parseDay(fromRaw, now)
  const to = toRaw ? new Date(parseDay(toRaw, now).getTime() + DAY_MS) : new Date(from.getTime() + 31 * DAY_MS)
  if (to <= from || to.getTime() - from.getTime() > 92 * DAY_MS)
    return apiError(400, 'Choose a range of 1 to 92 days.', { errors: { to: ['Invalid range.'] } })
  return json({ data: await calendarEntries(userId, from, to, now) })
}
