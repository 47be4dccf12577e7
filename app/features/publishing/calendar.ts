/**
 * The publishing calendar's dates: months and weeks as grids of UTC days (weeks start on Monday), and the
 * Auto Pilot slots that fall in a range. Pure.
 */
export const DAY_MS = 24 * 3600 * 1000

export type CalendarView = 'month' | 'week'

export type CalendarEntry = {
  id: string
  kind: 'slot' | 'review' | 'scheduled' | 'published'
  /** ISO time of the entry. */
  at: string
  title: string
  postId?: string
  /** Where a published post lives (destination names). */
  destinations?: string[]
}

export const ENTRY_LABELS: Record<CalendarEntry['kind'], string> = {
  slot: 'Auto Pilot writes a post',
  review: 'Waiting for review',
  scheduled: 'Scheduled',
  published: 'Published',
}

export const dayKey = (d: Date) => d.toISOString().slice(0, 10)

/** Parses `YYYY-MM-DD` (a UTC day); anything else gives `fallback`. */
export function parseDay(value: string | null | undefined, fallback: Date): Date {
  if (value && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const d = new Date(`${value}T00:00:00Z`)
    if (!Number.isNaN(d.getTime()) && dayKey(d) === value) return d
  }
  return new Date(Date.UTC(fallback.getUTCFullYear(), fallback.getUTCMonth(), fallback.getUTCDate()))
}

function startOfWeek(d: Date) {
  const day = (d.getUTCDay() + 6) % 7 // Monday = 0
  return new Date(d.getTime() - day * DAY_MS)
}

/** The days shown for a view around `anchor`: whole weeks covering the month, or one week. */
export function calendarRange(view: CalendarView, anchor: Date): { from: Date; to: Date; weeks: Date[][] } {
  let from: Date
  let to: Date
  if (view === 'week') {
    from = startOfWeek(anchor)
    to = new Date(from.getTime() + 7 * DAY_MS)
  } else {
    const first = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), 1))
    const next = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1, 1))
    from = startOfWeek(first)
    to = startOfWeek(new Date(next.getTime() - DAY_MS))
    to = new Date(to.getTime() + 7 * DAY_MS)
  }
  const weeks: Date[][] = []
  for (let t = from.getTime(); t < to.getTime(); t += 7 * DAY_MS)
    weeks.push(Array.from({ length: 7 }, (_, i) => new Date(t + i * DAY_MS)))
  return { from, to, weeks }
}

/** The anchors of the previous and next page of a view. */
export function neighbours(view: CalendarView, anchor: Date) {
  if (view === 'week')
    return { prev: new Date(anchor.getTime() - 7 * DAY_MS), next: new Date(anchor.getTime() + 7 * DAY_MS) }
  return {
    prev: new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - 1, 1)),
    next: new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1, 1)),
  }
}

/**
 * Auto Pilot's upcoming runs in [from, to): every `cadenceDays` from the next one (the last run plus the cadence,
 * or now when that has passed), at most 62.
 */
export function autopilotSlots(opts: { lastRunAt: Date | null; cadenceDays: number; now: Date; from: Date; to: Date }) {
  const step = opts.cadenceDays * DAY_MS
  let next = opts.lastRunAt ? opts.lastRunAt.getTime() + step : opts.now.getTime()
  if (next < opts.now.getTime()) next = opts.now.getTime()
  const slots: Date[] = []
  for (let t = next; t < opts.to.getTime() && slots.length < 62; t += step)
    if (t >= opts.from.getTime()) slots.push(new Date(t))
  return slots
}

export const MONTH_FORMAT = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
export const DAY_FORMAT = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
})
